/** RecoveryCodeEntry: a backup code instead of the authenticator app. */
import { useId, useState, type FormEvent } from 'react';
import { useMessages } from '../messages/use-messages.js';
import { BackButton } from '../parts/back-button.js';
import { Button } from '../parts/button.js';
import { FormError } from '../parts/form-error.js';
import { Heading } from '../parts/heading.js';
import { MfaScreen } from '../parts/mfa-screen.js';
import { useWidget } from '../widget-context.js';

export function RecoveryCodeEntry() {
  const format = useMessages();
  const { state, actions } = useWidget();
  const [code, setCode] = useState('');
  const inputId = useId();
  const errorId = useId();
  const error = state.form.error;
  const trimmed = code.trim();

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (trimmed) actions.recoverWithCode(trimmed);
  }

  return (
    <MfaScreen>
      <BackButton onClick={() => actions.showMfaScreen('TOTPEntry')} />
      <Heading>{format('recoveryEntry.heading')}</Heading>
      <form className="gh-form" noValidate onSubmit={submit}>
        <label className="gh-label" htmlFor={inputId}>
          {format('recoveryEntry.placeholder')}
        </label>
        <input
          id={inputId}
          className="gh-input"
          type="text"
          autoComplete="off"
          autoCapitalize="none"
          spellCheck={false}
          placeholder={format('recoveryEntry.placeholder')}
          value={code}
          onChange={(e) => setCode(e.target.value)}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? errorId : undefined}
        />
        <FormError id={errorId} message={error} />
        <Button type="submit" disabled={!trimmed} loading={state.form.isSubmitting}>
          {format('common.continue')}
        </Button>
      </form>
    </MfaScreen>
  );
}
