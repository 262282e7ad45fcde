/**
 * The e-mail magic link form: one required e-mail field and 'Continue with email', with 'Use a
 * password instead' when passwords are offered too.
 */
import { isValidEmail } from '@gatehouse/protocol';
import { useId, useState, type FormEvent } from 'react';
import { useMessages } from '../messages/use-messages.js';
import { useWidget } from '../widget-context.js';
import { Button } from './button.js';
import { LinkifiedText } from './linkified-text.js';

export function EmailForm({ offerPassword = false }: { offerPassword?: boolean }) {
  const format = useMessages();
  const { state, actions } = useWidget();
  const [email, setEmail] = useState(state.magicLink.email);
  const [invalid, setInvalid] = useState(false);
  const inputId = useId();
  const errorId = useId();
  const error = invalid ? format('email.invalid') : state.form.error;

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const value = email.trim();
    if (!isValidEmail(value)) {
      setInvalid(true);
      return;
    }
    setInvalid(false);
    actions.sendEmailMagicLink(value);
  }

  return (
    // The browser's own validation bubbles are replaced by the widget's message (docs/widget.md §5).
    <form className="gh-form" noValidate onSubmit={submit}>
      <label className="gh-label" htmlFor={inputId}>
        {format('email.label')}
      </label>
      <input
        id={inputId}
        className="gh-input"
        type="email"
        name="email"
        required
        autoComplete="email"
        placeholder={format('email.placeholder')}
        value={email}
        onChange={(e) => setEmail(e.target.value)}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? errorId : undefined}
      />
      {error && (
        <p id={errorId} className="gh-error-text" role="alert">
          <LinkifiedText text={error} />
        </p>
      )}
      <Button type="submit" loading={state.form.isSubmitting}>
        {format('email.submit')}
      </Button>
      {offerPassword && (
        <Button variant="text" onClick={() => actions.showPasswordLogin(email.trim())}>
          {format('main.usePassword')}
        </Button>
      )}
    </form>
  );
}
