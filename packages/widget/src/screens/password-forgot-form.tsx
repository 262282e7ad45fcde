/** PasswordForgotForm: help signing in, by a reset e-mail or a login link (docs/widget.md §2, §4). */
import { isValidEmail } from '@gatehouse/protocol';
import { useId, useState, type FormEvent } from 'react';
import { useMessages } from '../messages/use-messages.js';
import { BackButton } from '../parts/back-button.js';
import { Button } from '../parts/button.js';
import { EmailInput } from '../parts/email-input.js';
import { FormError } from '../parts/form-error.js';
import { Heading } from '../parts/heading.js';
import { useWidget } from '../widget-context.js';

export function PasswordForgotForm() {
  const format = useMessages();
  const { state, actions } = useWidget();
  const [email, setEmail] = useState(state.password.email);
  const [invalid, setInvalid] = useState(false);
  const errorId = useId();
  const error = invalid ? format('email.invalid') : state.form.error;

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const address = email.trim();
    setInvalid(!isValidEmail(address));
    if (isValidEmail(address)) actions.forgotPassword(address);
  }

  return (
    <div className="gh-screen">
      <BackButton onClick={actions.returnToMain} />
      <Heading>{format('passwordForgot.heading')}</Heading>
      <p className="gh-text">{format('passwordForgot.body')}</p>
      <form className="gh-form" noValidate onSubmit={submit}>
        <EmailInput
          autoComplete="email"
          value={email}
          onChange={setEmail}
          errorId={error ? errorId : undefined}
        />
        <FormError id={errorId} message={error} />
        <Button type="submit" loading={state.form.isSubmitting}>
          {format('common.continue')}
        </Button>
      </form>
    </div>
  );
}
