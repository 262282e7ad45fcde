/**
 * The ids an import keeps: objects' `{kind}-{env}-{uuid}` (docs/protocol.md §4), and role ids,
 * where the provider's built-in roles are Gatehouse's `member` and `admin`.
 */
import type { Environment, IdKind } from '@gatehouse/protocol';

const UUID = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';

/**
 * Why an id from another system cannot be kept in a project of `env`, or null when it can: it
 * must be a `{kind}-{env}-{uuid}` of the right kind and of the project's environment.
 *
 * @example
 * idProblem('member', 'test', 'member-live-…'); // 'member-live-… is a live id; the project is test'
 */
export function idProblem(kind: IdKind, env: Environment, id: string): string | null {
  const match = new RegExp(`^${kind}-(test|live)-${UUID}$`).exec(id);
  if (!match)
    return `${JSON.stringify(id.slice(0, 200))} is not of the form ${kind}-{test|live}-{uuid}`;
  if (match[1] !== env) return `${id} is a ${match[1] ?? ''} id; the project is ${env}`;
  return null;
}

const PROVIDER_ROLES: Readonly<Record<string, string>> = {
  stytch_member: 'member',
  stytch_admin: 'admin',
};

/**
 * Gatehouse's id of a role the provider names: its built-in roles map to `member` and `admin`
 * (docs/migrate.md, "What differs"), every other id stays.
 *
 * @example
 * gatehouseRoleId('stytch_admin'); // 'admin'
 */
export function gatehouseRoleId(roleId: string): string {
  return PROVIDER_ROLES[roleId] ?? roleId;
}
