/** The account section's password: change it with the current one (or set a first one), its strength checked as typed. */
import { useEffect, useId, useState, type FormEvent } from 'react';
import { STRENGTH_CHECK_DEBOUNCE_MS, type Organization } from '@gatehouse/protocol';
import type { GatehouseClient } from '@gatehouse/client';
import { Button } from '../parts/button.js';
import { FormError } from '../parts/form-error.js';
import { PasswordStrength } from '../parts/password-strength.js';
import { canSubmitPassword, type StrengthCheck } from '../parts/use-strength-check.js';
import type { AccountPanelProps } from './account-panel.js';
import { useAdmin } from './admin-context.js';
import { useAction } from './use-action.js';

const allowsPasswords = (organization: Organization) =>
  organization.auth_methods === 'ALL_ALLOWED' ||
  organization.allowed_auth_methods.includes('password');

/**
 * The server's verdict on a new password once typing pauses, as the login widget asks it; only
 * the answer for the password as it is now counts.
 */
function useStrength(client: GatehouseClient, password: string, email: string): StrengthCheck {
  const [answer, setAnswer] = useState<{ password: string; check: StrengthCheck } | null>(null);
  useEffect(() => {
    if (!password) return;
    let current = true;
    const timer = setTimeout(() => {
      client.passwords.strengthCheck({ password, email_address: email }).then(
        (result) => current && setAnswer({ password, check: { status: 'checked', result } }),
        // The server judges the password on submit instead.
        () => current && setAnswer({ password, check: { status: 'unavailable' } }),
      );
    }, STRENGTH_CHECK_DEBOUNCE_MS);
    return () => {
      current = false;
      clearTimeout(timer);
    };
  }, [client, password, email]);
  if (answer && answer.password === password) return answer.check;
  return password ? { status: 'checking' } : { status: 'idle' };
}

export function PasswordPanel({ member, organization, onMember, notice }: AccountPanelProps) {
  const { admin, client, format, language } = useAdmin();
  const id = useId();
  const [existing, setExisting] = useState('');
  const [password, setPassword] = useState('');
  const check = useStrength(client, password, member.email_address);
  const hasPassword = member.member_password_id !== '';

  const save = useAction(format, async () => {
    await client.passwords.resetBySession({
      password,
      ...(hasPassword ? { existing_password: existing } : {}),
    });
    onMember((await admin.self.get()).member);
    setExisting('');
    setPassword('');
    notice.show(format('account.passwordChanged'));
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (canSubmitPassword(password, check)) void save.run();
  };

  return (
    <div className="gh-admin-card" role="group" aria-labelledby={`${id}-heading`}>
      <h3 id={`${id}-heading`} className="gh-admin-subheading">
        {format('account.password')}
      </h3>
      {!allowsPasswords(organization) ? (
        <p className="gh-text-secondary">{format('account.passwordsNotAllowed')}</p>
      ) : (
        <form className="gh-admin-form" onSubmit={submit} aria-describedby={`${id}-error`}>
          {!hasPassword && <p className="gh-text-secondary">{format('account.passwordNone')}</p>}
          {hasPassword && (
            <div className="gh-admin-field">
              <label htmlFor={`${id}-current`}>{format('account.passwordCurrent')}</label>
              <input
                id={`${id}-current`}
                className="gh-input"
                type="password"
                autoComplete="current-password"
                required
                value={existing}
                onChange={(e) => setExisting(e.target.value)}
              />
            </div>
          )}
          <div className="gh-admin-field">
            <label htmlFor={`${id}-new`}>{format('account.passwordNew')}</label>
            <input
              id={`${id}-new`}
              className="gh-input"
              type="password"
              autoComplete="new-password"
              required
              value={password}
              aria-describedby={`${id}-strength`}
              onChange={(e) => setPassword(e.target.value)}
            />
            <PasswordStrength id={`${id}-strength`} check={check} luds={null} language={language} />
          </div>
          <Button
            type="submit"
            loading={save.busy}
            disabled={!canSubmitPassword(password, check) || (hasPassword && !existing)}
          >
            {format(hasPassword ? 'account.passwordChange' : 'account.passwordSet')}
          </Button>
          <FormError id={`${id}-error`} message={save.error} />
        </form>
      )}
    </div>
  );
}
