/** The passwords product's store: password hashes, one per member, mirrored as the member's `member_password_id`. */
import type { Environment, Member } from '@gatehouse/protocol';
import { sql } from 'kysely';
import { isoAt, type Db } from '../../context.js';
import { newId } from '../../crypto/random.js';
import { preparedQuery } from '../../store/prepared.js';
import { bcryptCostProblem } from '../../crypto/hash-bounds.js';
import { voidLinkTokens } from '../../auth/link-tokens.js';
import { endMemberSessions } from '../../auth/revocation.js';
import {
  isLinked,
  LINKED_FLAG,
  MEMBER_COLUMNS,
  memberRowReader,
} from '../../tenancy/members/columns.js';
import { toMember } from '../../tenancy/members/store.js';
import { registrationsOf } from '../../tenancy/members/store-registrations.js';

/** A member's stored password. */
export interface StoredPassword {
  id: string;
  hash: string;
  /** The project required a reset: right or not, the password signs in no more. */
  resetRequired: boolean;
}

/**
 * The hash formats `verifyPassword` understands: argon2 (PHC), bcrypt, PHC-style scrypt and
 * Django's pbkdf2_sha256. Imports are checked against this so a typo cannot lock a member out.
 */
const SUPPORTED_HASHES = [
  /^\$argon2(id|i|d)\$(v=\d+\$)?m=\d+,t=\d+,p=\d+\$[A-Za-z0-9+/.]+\$[A-Za-z0-9+/.]+$/,
  /^\$2[aby]\$\d\d\$[./A-Za-z0-9]{53}$/,
  /^\$scrypt\$ln=\d+,r=\d+,p=\d+\$[A-Za-z0-9+/.=]+\$[A-Za-z0-9+/.=]+$/,
  /^pbkdf2_sha256\$\d+\$[^$]+\$[A-Za-z0-9+/=]+$/,
];

/**
 * Whether an imported hash is in a format that can be verified.
 *
 * @example
 * isSupportedHash('$2b$10$…'); // true
 */
export function isSupportedHash(hash: string): boolean {
  if (hash.length > 1024 || !SUPPORTED_HASHES.some((pattern) => pattern.test(hash))) return false;
  // A bcrypt cost past the bound would never verify (crypto/hash-bounds.ts).
  return !hash.startsWith('$2') || bcryptCostProblem(Number(hash.slice(4, 6))) === null;
}

// Every password sign-in reads it: built once (see `preparedQuery`).
const passwordOfMember = preparedQuery((db, p: { memberId: string }) =>
  db
    .selectFrom('passwords')
    .select(['id', 'hash', 'reset_required'])
    .where('member_id', '=', p.memberId),
);

/** The member's stored password, or null when the member has none. */
export async function storedPassword(db: Db, memberId: string): Promise<StoredPassword | null> {
  const [row] = await passwordOfMember(db, { memberId });
  return row ? { id: row.id, hash: row.hash, resetRequired: row.reset_required === 1 } : null;
}

/** One row per role of the member (one with null roles when it has none), with its password. */
type MemberPasswordRow = Record<string, unknown> & {
  p_id: string | null;
  p_hash: string | null;
  p_reset_required: number | null;
  r_role_id: string | null;
  r_source_type: string;
  /** Whether the member has linked provider identities (1/true): only then are they read. */
  f_linked: unknown;
};

// Every password sign-in reads its member, the member's roles and password: one statement,
// built once (see `preparedQuery`). A member has at most one password (unique `member_id`).
const memberAndPasswordByEmail = preparedQuery((db, p: { organizationId: string; email: string }) =>
  db
    .selectFrom('members as m')
    .leftJoin('passwords as p', 'p.member_id', 'm.id')
    .leftJoin('member_roles as r', 'r.member_id', 'm.id')
    .select([
      ...MEMBER_COLUMNS.map((c) => sql.ref(`m.${c}`).as(`m_${c}`)),
      'p.id as p_id',
      'p.hash as p_hash',
      'p.reset_required as p_reset_required',
      'r.role_id as r_role_id',
      'r.source_type as r_source_type',
      LINKED_FLAG,
    ])
    .where('m.organization_id', '=', p.organizationId)
    .where('m.email', '=', p.email)
    .orderBy('r.role_id')
    .orderBy('r.source_type')
    .$castTo<MemberPasswordRow>(),
);
const memberRowOf = memberRowReader('m_');

/**
 * The member of the organization with this (normalized) address, deleted members included, as
 * `memberByEmail` gives it, and the member's stored password; null when there is no such member.
 *
 * @example
 * const found = await memberWithPasswordByEmail(ctx.db, organizationId, 'a@b.co');
 */
export async function memberWithPasswordByEmail(
  db: Db,
  organizationId: string,
  email: string,
): Promise<{ member: Member; password: StoredPassword | null } | null> {
  const rows = await memberAndPasswordByEmail(db, { organizationId, email });
  const [first] = rows;
  if (!first) return null;
  const row = memberRowOf(first);
  const roles = rows.flatMap((r) =>
    r.r_role_id === null ? [] : [{ role_id: r.r_role_id, source_type: r.r_source_type }],
  );
  // Most members have no linked identity: the flag spares them a second query.
  const linked = isLinked(first.f_linked);
  const registrations = linked
    ? await registrationsOf(db, [{ member_id: row.id, organization_id: row.organization_id }])
    : undefined;
  const password =
    first.p_id !== null && first.p_hash !== null
      ? { id: first.p_id, hash: first.p_hash, resetRequired: first.p_reset_required === 1 }
      : null;
  return { member: toMember(row, roles, registrations?.get(row.id)), password };
}

/**
 * Marks the passwords of these members as needing a reset (`passwords.email.requireReset`); a
 * member without a password has nothing to mark. Idempotent, so concurrent calls agree. The
 * next password set, by any path, clears the mark ({@link savePassword}).
 */
export async function requirePasswordReset(
  db: Db,
  projectId: string,
  memberIds: readonly string[],
  now: number,
): Promise<void> {
  if (memberIds.length === 0) return;
  await db
    .updateTable('passwords')
    .set({ reset_required: 1, updated_at: isoAt(now) })
    .where('project_id', '=', projectId)
    .where('member_id', 'in', memberIds)
    .execute();
}

/**
 * Sets a member's password hash. A member keeps one password id for life, so a reset replaces
 * the hash under the same `member_password_id`; one upsert, so concurrent first passwords of
 * the same member cannot both insert. Every other session and IST of the member ends with the
 * old password (only `keepSessionId`, the caller's own session, survives): whoever stole one
 * must not outlast the change. So does every reset link of the member not yet used.
 */
export async function savePassword(
  db: Db,
  input: {
    projectId: string;
    environment: Environment;
    memberId: string;
    hash: string;
    keepSessionId?: string | null;
  },
  now: number,
): Promise<string> {
  const at = isoAt(now);
  const { id } = await db
    .insertInto('passwords')
    .values({
      id: newId('member-password', input.environment),
      project_id: input.projectId,
      member_id: input.memberId,
      hash: input.hash,
      created_at: at,
      updated_at: at,
    })
    .onConflict((oc) =>
      // A new password is a reset: a reset the project required is done.
      oc.column('member_id').doUpdateSet({ hash: input.hash, updated_at: at, reset_required: 0 }),
    )
    .returning('id')
    .executeTakeFirstOrThrow();
  const member = await db
    .updateTable('members')
    .set({ password_id: id, updated_at: at })
    .where('id', '=', input.memberId)
    .returning(['email', 'organization_id'])
    .executeTakeFirstOrThrow();
  // A reset link sent before this password must not replace it afterwards: neither the
  // organization's nor a discovery one, which would set it in every organization of the address.
  await voidLinkTokens(
    db,
    {
      projectId: input.projectId,
      kind: 'password_reset',
      email: member.email,
      organizationId: member.organization_id,
    },
    now,
  );
  await voidLinkTokens(
    db,
    {
      projectId: input.projectId,
      kind: 'discovery_password_reset',
      email: member.email,
      organizationId: null,
    },
    now,
  );
  await endMemberSessions(
    db,
    {
      projectId: input.projectId,
      memberId: input.memberId,
      email: member.email,
      keepSessionId: input.keepSessionId ?? null,
    },
    now,
  );
  return id;
}

/**
 * Replaces an imported or outdated hash after a successful login, only if it is still the hash
 * that was verified: a reset that happened meanwhile wins.
 */
export async function upgradePasswordHash(
  db: Db,
  passwordId: string,
  verifiedHash: string,
  newHash: string,
  now: number,
): Promise<void> {
  await db
    .updateTable('passwords')
    .set({ hash: newHash, updated_at: isoAt(now) })
    .where('id', '=', passwordId)
    .where('hash', '=', verifiedHash)
    .execute();
}
