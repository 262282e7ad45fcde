/** E-mail and password with 'Continue' and the way to help: PasswordAuthenticate and Main's form. */
import { isValidEmail } from '@gatehouse/protocol';
import { useId, useRef, useState, type FormEvent } from 'react';
import { useMessages } from '../messages/use-messages.js';
import { useWidget } from '../widget-context.js';
import { Button } from './button.js';
import { EmailInput } from './email-input.js';
import { FormError } from './form-error.js';
import { PasswordInput } from './password-input.js';

export function PasswordLoginForm() {
  const format = useMessages();
  const { state, actions } = useWidget();
  const [email, setEmail] = useState(state.password.email);
  const [password, setPassword] = useState('');
  const [invalidEmail, setInvalidEmail] = useState(false);
  const passwordRef = useRef<HTMLInputElement>(null);
  const errorId = useId();
  const error = invalidEmail ? format('email.invalid') : state.form.error;

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const address = email.trim();
    if (!isValidEmail(address)) {
      setInvalidEmail(true);
      return;
    }
    setInvalidEmail(false);
    if (!password) {
      passwordRef.current?.focus();
      return;
    }
    actions.authenticatePassword(address, password);
  }

  return (
    // The browser's own validation bubbles are replaced by the widget's messages (docs/widget.md §5).
    <form className="gh-form" noValidate onSubmit={submit}>
      <EmailInput
        autoComplete="username"
        value={email}
        onChange={setEmail}
        errorId={invalidEmail ? errorId : undefined}
      />
      <PasswordInput
        label={format('password.label')}
        autoComplete="current-password"
        value={password}
        onChange={setPassword}
        inputRef={passwordRef}
        invalid={Boolean(state.form.error)}
        describedBy={state.form.error ? errorId : undefined}
      />
      <FormError id={errorId} message={error} />
      <Button type="submit" loading={state.form.isSubmitting}>
        {format('passwordAuthenticate.continue')}
      </Button>
      <Button variant="text" onClick={() => actions.showForgotPassword(email.trim())}>
        {format('passwordAuthenticate.help')}
      </Button>
    </form>
  );
}
