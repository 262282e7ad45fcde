/**
 * PasswordResetForm: 'Set a new password', the reset e-mail, strength feedback and 'Continue'; or,
 * when the page has no usable link, what to do to get one.
 */
import { useId, useState, type FormEvent } from 'react';
import { useMessages } from '../messages/use-messages.js';
import { ludsRequirements } from '../machine/password-rules.js';
import { Button } from '../parts/button.js';
import { EmailInput } from '../parts/email-input.js';
import { FormError } from '../parts/form-error.js';
import { Heading } from '../parts/heading.js';
import { PasswordInput } from '../parts/password-input.js';
import { PasswordStrength } from '../parts/password-strength.js';
import { canSubmitPassword, useStrengthCheck } from '../parts/use-strength-check.js';
import { useWidget } from '../widget-context.js';

export function PasswordResetForm() {
  const format = useMessages();
  const { state, config, actions } = useWidget();
  const [password, setPassword] = useState('');
  const check = useStrengthCheck(password);
  const strengthId = useId();
  const errorId = useId();
  const { resetEmail } = state.password;
  const error = state.form.error;
  // The project's LUDS rules are known before the first check; zxcvbn shows after it.
  const luds = state.bootstrap.passwordConfig ? ludsRequirements(state, config) : null;

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (canSubmitPassword(password, check)) actions.resetPassword(password);
  }

  const problem = state.password.resetLinkProblem;
  if (problem) {
    // Without a usable link (or a session) no password can be set here: say what to do instead.
    return (
      <div className="gh-screen">
        <Heading>{format('passwordResetForm.heading')}</Heading>
        <FormError id={errorId} message={error} />
        <p className="gh-text">
          {format(
            problem === 'missing'
              ? 'passwordResetForm.linkMissing'
              : 'passwordResetForm.linkUnusable',
          )}
        </p>
      </div>
    );
  }

  return (
    <div className="gh-screen">
      <Heading>{format('passwordResetForm.heading')}</Heading>
      <form className="gh-form" noValidate onSubmit={submit}>
        {resetEmail && (
          // Disabled for people; `username` so password managers save the new pair under it.
          <EmailInput autoComplete="username" value={resetEmail} disabled readOnly />
        )}
        <PasswordInput
          label={format('password.newLabel')}
          autoComplete="new-password"
          value={password}
          onChange={setPassword}
          invalid={Boolean(error)}
          describedBy={error ? `${strengthId} ${errorId}` : strengthId}
        />
        <PasswordStrength
          id={strengthId}
          check={check}
          luds={luds}
          language={config.messages.builtIn}
        />
        <FormError id={errorId} message={error} />
        <Button
          type="submit"
          loading={state.form.isSubmitting}
          disabled={!canSubmitPassword(password, check)}
        >
          {format('common.continue')}
        </Button>
      </form>
    </div>
  );
}
