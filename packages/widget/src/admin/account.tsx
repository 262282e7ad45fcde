/**
 * The account section: for every member, whatever their roles, their own sign-in methods — an
 * authenticator app with its backup codes, a phone for text codes, and their password; and, for
 * a member who sees the organization's sessions, their own sessions and browsers to end.
 */
import { useEffect, useId, useState } from 'react';
import type { Member, Organization } from '@gatehouse/protocol';
import { FormError } from '../parts/form-error.js';
import { Spinner } from '../parts/spinner.js';
import { useAdmin } from './admin-context.js';
import { PasswordPanel } from './account-password.js';
import { SmsPanel } from './account-sms.js';
import { TotpPanel } from './account-totp.js';
import { Notice, useNotice } from './notice.js';
import { SessionsSection } from './sessions.js';
import { useAction } from './use-action.js';

export function AccountSection() {
  const { admin, format, rights } = useAdmin();
  const id = useId();
  const notice = useNotice();
  const [state, setState] = useState<{ member: Member; organization: Organization } | null>(null);
  const load = useAction(format, async () => {
    const { member, organization } = await admin.self.get();
    setState({ member, organization });
  });
  const { run: runLoad } = load;
  useEffect(() => {
    void runLoad();
  }, [runLoad]);

  const onMember = (member: Member) => setState((s) => (s ? { ...s, member } : s));
  return (
    <section className="gh-admin-section" aria-labelledby={`${id}-heading`}>
      <h2 id={`${id}-heading`} className="gh-admin-heading">
        {format('account.heading')}
      </h2>
      <Notice notice={notice} />
      <FormError id={`${id}-load-error`} message={load.error} />
      {!state ? (
        !load.error && <Spinner />
      ) : (
        <>
          <p className="gh-text-secondary">
            {format('account.intro', { email: state.member.email_address })}
          </p>
          <TotpPanel {...state} onMember={onMember} notice={notice} />
          <SmsPanel {...state} onMember={onMember} notice={notice} />
          <PasswordPanel {...state} onMember={onMember} notice={notice} />
        </>
      )}
      {/* Without the organization's list, the Sessions section is the member's own already. */}
      {rights.revokeSessions && <SessionsSection own />}
    </section>
  );
}
