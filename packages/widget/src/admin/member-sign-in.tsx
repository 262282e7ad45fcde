/** When a member last signed in, as their member object says (`last_sign_in_at`), in the portal's words. */
import type { Member } from '@gatehouse/protocol';
import { useAdmin } from './admin-context.js';
import type { AdminFormat } from './admin-messages.js';

/**
 * 'Last sign-in: …' with the date and time in the browser's own format (as the sessions section
 * shows times), or 'never' for a member who has not completed a sign-in.
 */
export function lastSignInText(member: Member, format: AdminFormat): string {
  const at = member.last_sign_in_at;
  if (!at) return format('members.neverSignedIn');
  const time = new Date(at).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
  return format('members.lastSignIn', { time });
}

export function MemberLastSignIn({ member }: { member: Member }) {
  const { format } = useAdmin();
  return (
    <span className="gh-text-secondary gh-admin-last-sign-in">
      {lastSignInText(member, format)}
    </span>
  );
}
