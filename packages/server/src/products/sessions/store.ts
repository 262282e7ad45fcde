/** The sessions product's store: a session with its member, the member's roles and organization, in one query. */
import type { Member, Organization } from '@gatehouse/protocol';
import { sql } from 'kysely';
import type { Db } from '../../context.js';
import { preparedQuery } from '../../store/prepared.js';
import { readsUntilChanged } from '../../store/read-cache.js';
import type { MembersTable, OrganizationsTable, SessionsTable } from '../../store/schema.js';
import { isLinked, LINKED_FLAG, MEMBER_COLUMNS } from '../../tenancy/members/columns.js';
import { toMember } from '../../tenancy/members/store.js';
import { registrationsOf } from '../../tenancy/members/store-registrations.js';
import { toOrganization } from '../../tenancy/organizations/store.js';

/**
 * A session row with the member and organization it belongs to, as the wire shapes. Frozen: one
 * answer may be remembered and given to the next checks too.
 */
export interface SessionWithOwner {
  row: SessionsTable;
  member: Member;
  organization: Organization;
}

// Every column by name (the compiler checks that none is missing): the joined tables share
// column names, so each is selected under its table's prefix.
const SESSION_COLUMNS = Object.keys({
  id: 1,
  project_id: 1,
  member_id: 1,
  organization_id: 1,
  token_hash: 1,
  factors: 1,
  started_at: 1,
  last_accessed_at: 1,
  expires_at: 1,
  revoked_at: 1,
  ip_address: 1,
  user_agent: 1,
} satisfies Record<keyof SessionsTable, 1>) as (keyof SessionsTable)[];
const ORGANIZATION_COLUMNS = Object.keys({
  id: 1,
  project_id: 1,
  slug: 1,
  name: 1,
  logo_url: 1,
  email_jit_provisioning: 1,
  email_allowed_domains: 1,
  auth_methods: 1,
  allowed_auth_methods: 1,
  mfa_policy: 1,
  mfa_methods: 1,
  allowed_mfa_methods: 1,
  trusted_metadata: 1,
  created_at: 1,
  updated_at: 1,
  sso_active_connections: 1,
  sso_default_connection_id: 1,
  sso_jit_provisioning: 1,
  sso_jit_provisioning_allowed_connections: 1,
  rbac_email_implicit_role_assignments: 1,
  oauth_tenant_jit_provisioning: 1,
  allowed_oauth_tenants: 1,
  claimed_email_domains: 1,
  session_max_duration_minutes: 1,
} satisfies Record<keyof OrganizationsTable, 1>) as (keyof OrganizationsTable)[];

/** One row per role of the member (one with null roles when it has none). */
type JoinedRow = Record<string, unknown> & {
  r_role_id: string | null;
  r_source_type: string;
  /** Whether the member has linked provider identities (1/true): only then are they read. */
  f_linked: unknown;
};

/**
 * The session joined to its member (of the same project), the organization it is in and the
 * member's roles, ordered by role and source like `memberById`'s. Explicit columns rather than `*`, so that a
 * column added by a later migration never changes what a prepared statement returns.
 */
function sessionWithOwnerQuery(db: Db) {
  return db
    .selectFrom('sessions as s')
    .innerJoin('members as m', (join) =>
      join.onRef('m.id', '=', 's.member_id').onRef('m.project_id', '=', 's.project_id'),
    )
    .innerJoin('organizations as o', (join) =>
      join.onRef('o.id', '=', 's.organization_id').onRef('o.project_id', '=', 's.project_id'),
    )
    .leftJoin('member_roles as r', 'r.member_id', 'm.id')
    .select([
      ...SESSION_COLUMNS.map((c) => sql.ref(`s.${c}`).as(`s_${c}`)),
      ...MEMBER_COLUMNS.map((c) => sql.ref(`m.${c}`).as(`m_${c}`)),
      ...ORGANIZATION_COLUMNS.map((c) => sql.ref(`o.${c}`).as(`o_${c}`)),
      'r.role_id as r_role_id',
      'r.source_type as r_source_type',
      LINKED_FLAG,
    ])
    .orderBy('r.role_id')
    .orderBy('r.source_type')
    .$castTo<JoinedRow>();
}

// Every session refresh runs one of these: built once (see `preparedQuery`).
const byTokenHash = preparedQuery((db, p: { tokenHash: string }) =>
  sessionWithOwnerQuery(db).where('s.token_hash', '=', p.tokenHash),
);
const byId = preparedQuery((db, p: { id: string }) =>
  sessionWithOwnerQuery(db).where('s.id', '=', p.id),
);

// Answered from memory while the database is unchanged: any write of this process, or a commit
// by another, forgets them all, so a revoked session, a deleted member or a changed role shows
// at the very next check (docs/security.md, "Sessions end when they should"). A few KB each.
const SESSIONS_REMEMBERED = 1000;
const rememberedByTokenHash = readsUntilChanged<SessionWithOwner>(SESSIONS_REMEMBERED);
const rememberedById = readsUntilChanged<SessionWithOwner>(SESSIONS_REMEMBERED);

/** Reads one table's columns back from their prefixed names (pairs made once, not per row). */
function columnReader<T>(prefix: string, columns: (keyof T & string)[]): (row: JoinedRow) => T {
  const pairs = columns.map((column) => [column, `${prefix}${column}`] as const);
  return (row) => {
    const out: Record<string, unknown> = {};
    for (const [column, key] of pairs) out[column] = row[key];
    return out as T;
  };
}
const sessionOf = columnReader<SessionsTable>('s_', SESSION_COLUMNS);
const memberOf = columnReader<MembersTable>('m_', MEMBER_COLUMNS);
const organizationOf = columnReader<OrganizationsTable>('o_', ORGANIZATION_COLUMNS);

async function toSessionWithOwner(db: Db, rows: JoinedRow[]): Promise<SessionWithOwner | null> {
  const [first] = rows;
  if (!first) return null;
  const roles = rows.flatMap((r) =>
    r.r_role_id === null ? [] : [{ role_id: r.r_role_id, source_type: r.r_source_type }],
  );
  const memberRow = memberOf(first);
  // Most members have no linked identity: the flag spares them a second query.
  const linked = isLinked(first.f_linked);
  const registrations = linked
    ? await registrationsOf(db, [
        { member_id: memberRow.id, organization_id: memberRow.organization_id },
      ])
    : undefined;
  return {
    row: sessionOf(first),
    member: toMember(memberRow, roles, registrations?.get(memberRow.id)),
    organization: toOrganization(organizationOf(first)),
  };
}

/**
 * The session with this token hash, its member and organization, whatever the session's state
 * (the caller checks project, expiry and revocation); null when there is none, or when its member
 * or organization is gone.
 *
 * @example
 * const found = await sessionWithOwnerByTokenHash(ctx.db, hashToken(token));
 */
export async function sessionWithOwnerByTokenHash(
  db: Db,
  tokenHash: string,
): Promise<SessionWithOwner | null> {
  return rememberedByTokenHash(db, tokenHash, async () =>
    toSessionWithOwner(db, await byTokenHash(db, { tokenHash })),
  );
}

/**
 * {@link sessionWithOwnerByTokenHash} without waiting: the session remembered for this token hash
 * and still true now, or undefined when it must be read.
 *
 * @example
 * const found = rememberedSessionByTokenHash(ctx.db, hash) ?? (await sessionWithOwnerByTokenHash(ctx.db, hash));
 */
export function rememberedSessionByTokenHash(
  db: Db,
  tokenHash: string,
): SessionWithOwner | undefined {
  return rememberedByTokenHash.remembered(db, tokenHash);
}

/**
 * {@link sessionWithOwnerByTokenHash} by session id.
 *
 * @example
 * const found = await sessionWithOwnerById(ctx.db, sessionId);
 */
export async function sessionWithOwnerById(db: Db, id: string): Promise<SessionWithOwner | null> {
  return rememberedById(db, id, async () => toSessionWithOwner(db, await byId(db, { id })));
}

/**
 * A member's live sessions (not revoked, not expired at `nowIso`) in the project, newest first.
 *
 * @example
 * const rows = await liveSessionsOfMember(ctx.db, project.id, memberId, isoAt(ctx.now()));
 */
export async function liveSessionsOfMember(
  db: Db,
  projectId: string,
  memberId: string,
  nowIso: string,
): Promise<SessionsTable[]> {
  return db
    .selectFrom('sessions')
    .selectAll()
    .where('project_id', '=', projectId)
    .where('member_id', '=', memberId)
    .where('revoked_at', 'is', null)
    .where('expires_at', '>', nowIso)
    .orderBy('started_at', 'desc')
    .orderBy('id')
    .execute();
}
