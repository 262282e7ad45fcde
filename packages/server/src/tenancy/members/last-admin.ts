/**
 * An organization keeps an admin (docs/protocol.md §7.10): a member-session change that would
 * leave it with no active member holding `admin` — a role taken away, self-demotion included, a
 * member removed, an e-mail rule dropped — is refused, and its writes are rolled back.
 */
import type { Db } from '../../context.js';
import { fail, isFailure, type Failure } from '../../result.js';
import { lockOrganization } from '../organizations/store.js';
import { activeAdminCount } from './store-roles.js';

/** The change would leave the organization with no active admin. */
export const lastAdmin = (): Failure =>
  fail(
    'last_admin',
    'This change would leave the organization without an active admin. Make another member an admin first.',
  );

/**
 * Runs `work` inside the caller's transaction (open it with `allOrNothing`, so a refusal undoes
 * what `work` wrote) and refuses its outcome when the organization had an active admin before
 * and has none after. The organization's row is locked first, so of concurrent changes each
 * sees the others' results: two admins removing each other cannot both succeed.
 *
 * @example
 * return allOrNothing(ctx.db, (trx) =>
 *   keepingAnAdmin(trx, project.id, organizationId, () => removeMember(trx, memberId)),
 * );
 */
export async function keepingAnAdmin<T>(
  trx: Db,
  projectId: string,
  organizationId: string,
  work: () => Promise<T | Failure>,
): Promise<T | Failure> {
  if (!trx.isTransaction) throw new Error('keepingAnAdmin: run it inside allOrNothing');
  await lockOrganization(trx, projectId, organizationId);
  const before = await activeAdminCount(trx, organizationId);
  const result = await work();
  if (isFailure(result)) return result;
  if (before > 0 && (await activeAdminCount(trx, organizationId)) === 0) return lastAdmin();
  return result;
}
