/** The columns of a member row, for queries that join members to tables sharing column names. */
import { sql } from 'kysely';
import type { MembersTable } from '../../store/schema.js';

/** Every column of a member row by name (the compiler checks that none is missing). */
export const MEMBER_COLUMNS = Object.keys({
  id: 1,
  project_id: 1,
  organization_id: 1,
  email: 1,
  email_id: 1,
  email_verified: 1,
  name: 1,
  status: 1,
  password_id: 1,
  mfa_enrolled: 1,
  mfa_phone_number: 1,
  mfa_phone_verified: 1,
  totp_registration_id: 1,
  default_mfa_method: 1,
  trusted_metadata: 1,
  untrusted_metadata: 1,
  locale: 1,
  created_at: 1,
  updated_at: 1,
  last_sign_in_at: 1,
} satisfies Record<keyof MembersTable, 1>) as (keyof MembersTable)[];

/**
 * A function reading a member row back from a joined row, where each member column was selected
 * under `prefix` (the pairs are made once, not per row).
 */
export function memberRowReader(prefix: string): (row: Record<string, unknown>) => MembersTable {
  const pairs = MEMBER_COLUMNS.map((column) => [column, `${prefix}${column}`] as const);
  return (row) => {
    const out: Record<string, unknown> = {};
    for (const [column, key] of pairs) out[column] = row[key];
    return out as unknown as MembersTable;
  };
}

/**
 * Selected beside a member aliased `m` as `f_linked`: whether it has linked provider identities in
 * its organization. Most members have none, so a joined read of a member fetches them only when
 * `isLinked` says so.
 */
export const LINKED_FLAG = sql<unknown>`exists (
  select 1 from member_federated_identities as f
  where f.member_id = m.id and f.organization_id = m.organization_id
)`.as('f_linked');

/** `f_linked` read back: SQLite answers 1, PostgreSQL true. */
export const isLinked = (flag: unknown): boolean => flag === true || Number(flag) === 1;
