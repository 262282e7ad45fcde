/** One member in the list: address, name, status, roles, sign-in methods and last sign-in, and the actions the viewer may take. */
import { useId, useState } from 'react';
import type { Member } from '@gatehouse/protocol';
import { Button } from '../parts/button.js';
import { FormError } from '../parts/form-error.js';
import { useAdmin } from './admin-context.js';
import type { NoticeState } from './notice.js';
import { RolesEditor } from './roles-editor.js';
import { MemberMethods } from './member-methods.js';
import { MemberLastSignIn } from './member-sign-in.js';
import { useAction } from './use-action.js';

export function MemberRow({
  member,
  onChanged,
  notice,
}: {
  member: Member;
  onChanged: (member: Member) => void;
  notice: NoticeState;
}) {
  const { admin, format, rights, session } = useAdmin();
  const id = useId();
  const [mode, setMode] = useState<'view' | 'roles' | 'confirm' | 'confirmMfa' | 'confirmPassword'>(
    'view',
  );
  const email = member.email_address;
  const deleted = member.status === 'deleted';
  const self = member.member_id === session.member.member_id;

  const deactivate = useAction(format, async () => {
    await admin.organization.members.delete(member.member_id);
    onChanged({ ...member, status: 'deleted' });
    setMode('view');
    notice.show(format('members.deactivated', { email }));
  });
  // Resetting MFA removes the phone number and the authenticator app, whichever the member has.
  const resetMfa = useAction(format, async () => {
    const members = admin.organization.members;
    let answer = member;
    if (answer.mfa_phone_number)
      answer = (await members.deleteMfaPhoneNumber(answer.member_id)).member;
    if (answer.totp_registration_id) answer = (await members.deleteTotp(answer.member_id)).member;
    onChanged(answer);
    setMode('view');
    notice.show(format('members.mfaReset', { email }));
  });
  const removePassword = useAction(format, async () => {
    const answer = await admin.organization.members.deletePassword(member.member_password_id);
    onChanged(answer.member);
    setMode('view');
    notice.show(format('members.passwordRemoved', { email }));
  });
  const reactivate = useAction(format, async () => {
    const answer = await admin.organization.members.reactivate(member.member_id);
    onChanged(answer.member);
    notice.show(format('members.reactivated', { email }));
  });

  const resend = useAction(format, async () => {
    await admin.magicLinks.email.resendInvite({ member_id: member.member_id });
    notice.show(format('invite.resent', { email }));
  });
  const revoke = useAction(format, async () => {
    await admin.magicLinks.email.revokeInvite({ member_id: member.member_id });
    onChanged({ ...member, status: 'deleted' });
    notice.show(format('invite.revoked', { email }));
  });

  const roles = member.roles.map((r) => r.role_id).filter((r) => r !== 'member');
  const canChangeRoles = rights.updateMemberRoles && !deleted;
  const canDeactivate = rights.deactivateMembers && !deleted && !self;
  const canReactivate = rights.reactivateMembers && deleted;
  const canManageInvite = rights.inviteMembers && member.status === 'invited';
  const hasMfa = member.mfa_phone_number !== '' || member.totp_registration_id !== '';
  const canResetMfa = rights.resetMemberMfa && !deleted && hasMfa;
  const canRemovePassword =
    rights.removeMemberPasswords && !deleted && member.member_password_id !== '';
  const error =
    deactivate.error ??
    reactivate.error ??
    resend.error ??
    revoke.error ??
    resetMfa.error ??
    removePassword.error;
  const confirmations = {
    confirm: { text: format('members.confirmDeactivate', { email }), action: deactivate },
    confirmMfa: { text: format('members.confirmResetMfa', { email }), action: resetMfa },
    confirmPassword: {
      text: format('members.confirmRemovePassword', { email }),
      action: removePassword,
    },
  };
  const confirming = mode === 'view' || mode === 'roles' ? null : confirmations[mode];

  return (
    <li className="gh-admin-row" aria-labelledby={`${id}-email`}>
      <div className="gh-admin-row-main">
        <span id={`${id}-email`} className="gh-admin-email">
          {email}
        </span>
        {member.name && <span className="gh-text-secondary">{member.name}</span>}
        <span className={`gh-admin-badge gh-admin-status-${member.status}`}>
          {format(`status.${member.status}`)}
        </span>
        <span className="gh-text-secondary gh-admin-roles">
          <span className="gh-admin-visually-hidden">{format('members.roles')}: </span>
          {['member', ...roles].join(', ')}
        </span>
        {!deleted && <MemberMethods member={member} />}
        <MemberLastSignIn member={member} />
      </div>
      {(canChangeRoles ||
        canDeactivate ||
        canReactivate ||
        canManageInvite ||
        canResetMfa ||
        canRemovePassword) &&
        mode === 'view' && (
          <div
            className="gh-admin-actions"
            role="group"
            aria-label={format('members.actions', { email })}
          >
            {canChangeRoles && (
              <Button variant="secondary" onClick={() => setMode('roles')}>
                {format('members.changeRoles')}
              </Button>
            )}
            {canResetMfa && (
              <Button variant="secondary" onClick={() => setMode('confirmMfa')}>
                {format('members.resetMfa')}
              </Button>
            )}
            {canRemovePassword && (
              <Button variant="secondary" onClick={() => setMode('confirmPassword')}>
                {format('members.removePassword')}
              </Button>
            )}
            {canDeactivate && (
              <Button variant="secondary" onClick={() => setMode('confirm')}>
                {format('members.deactivate')}
              </Button>
            )}
            {canManageInvite && (
              <Button variant="secondary" loading={resend.busy} onClick={() => void resend.run()}>
                {format('invite.resend')}
              </Button>
            )}
            {canManageInvite && (
              <Button variant="secondary" loading={revoke.busy} onClick={() => void revoke.run()}>
                {format('invite.revoke')}
              </Button>
            )}
            {canReactivate && (
              <Button
                variant="secondary"
                loading={reactivate.busy}
                onClick={() => void reactivate.run()}
              >
                {format('members.reactivate')}
              </Button>
            )}
          </div>
        )}
      {mode === 'roles' && (
        <RolesEditor
          member={member}
          onDone={(updated) => {
            if (updated) {
              onChanged(updated);
              notice.show(format('members.rolesSaved', { email }));
            }
            setMode('view');
          }}
        />
      )}
      {confirming && (
        <div className="gh-admin-confirm" role="group" aria-labelledby={`${id}-confirm`}>
          <p id={`${id}-confirm`} className="gh-text">
            {confirming.text}
          </p>
          <div className="gh-admin-actions">
            <Button
              autoFocus
              loading={confirming.action.busy}
              onClick={() => void confirming.action.run()}
            >
              {format('members.confirm')}
            </Button>
            <Button variant="secondary" onClick={() => setMode('view')}>
              {format('common.cancel')}
            </Button>
          </div>
        </div>
      )}
      <FormError id={`${id}-error`} message={error} />
    </li>
  );
}
