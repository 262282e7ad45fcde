/**
 * Where a member's role comes from, and which of them a session holds: explicit and e-mail domain
 * roles always, an SSO connection's roles only while the session holds a factor of that
 * connection (docs/security.md, "Roles are checked on the server, every time").
 */
import type { AuthenticationFactor, Member, RoleSourceType } from '@gatehouse/protocol';

/** The sources whose roles every session of the member holds. */
const STANDING_SOURCES: readonly string[] = ['direct_assignment', 'email_assignment'];
/** The sources whose roles hold only with a factor of their connection in the session. */
type ConnectionSource = Extract<RoleSourceType, 'sso_connection' | 'sso_connection_group'>;

/**
 * The stored `source_type` of a role given by an SSO connection: the source and the connection's
 * id, so that the same role from two connections is two rows.
 *
 * @example
 * connectionSource('sso_connection_group', 'saml-connection-test-…'); // 'sso_connection_group:saml-…'
 */
export function connectionSource(source: ConnectionSource, connectionId: string): string {
  return `${source}:${connectionId}`;
}

/**
 * A stored `source_type` in its wire form: the type, and the connection's id in `details` for a
 * role an SSO connection gives. A connection role stored without its connection (before the
 * connection was recorded) names none, and so counts in no session until the next SSO sign-in
 * records it.
 *
 * @example
 * roleSourceOf('sso_connection_group:oidc-connection-test-1'); // { type: 'sso_connection_group', details: { connection_id: 'oidc-connection-test-1' } }
 */
export function roleSourceOf(stored: string): {
  type: RoleSourceType;
  details: Record<string, unknown>;
} {
  const colon = stored.indexOf(':');
  if (colon < 0) return { type: stored as RoleSourceType, details: {} };
  return {
    type: stored.slice(0, colon) as RoleSourceType,
    details: { connection_id: stored.slice(colon + 1) },
  };
}

/** The SSO connections a session's factors were proven with. */
function connectionsOf(factors: readonly AuthenticationFactor[]): Set<string> {
  const ids = new Set<string>();
  for (const factor of factors) {
    if (factor.type !== 'sso') continue;
    for (const key of ['saml_sso_factor', 'oidc_sso_factor'] as const) {
      const id = (factor[key] as { id?: unknown } | undefined)?.id;
      if (typeof id === 'string') ids.add(id);
    }
  }
  return ids;
}

/**
 * The role ids a session of the member holds, the one computation behind every RBAC check of a
 * session (browser API, management calls made with a member's session, `authorization_check`)
 * and the roles a session and its JWT carry: a role given explicitly or by an e-mail domain rule
 * always, a role an SSO connection gives (by its groups, or to everyone who signs in through it)
 * only when one of the session's factors was proven with that connection, as the hosted provider grants them. `factors` are the session's,
 * or a session row's stored `factors` JSON.
 *
 * @example
 * const roles = sessionRoleIds(member, session.authentication_factors);
 */
export function sessionRoleIds(
  member: Member,
  factors: readonly AuthenticationFactor[] | string,
): string[] {
  const connections = connectionsOf(
    typeof factors === 'string' ? (JSON.parse(factors) as AuthenticationFactor[]) : factors,
  );
  return member.roles
    .filter((role) =>
      role.sources.some((source) => {
        if (STANDING_SOURCES.includes(source.type)) return true;
        // Any other source (an SSO connection's) needs a factor of its connection.
        const id = source.details.connection_id;
        return typeof id === 'string' && connections.has(id);
      }),
    )
    .map((role) => role.role_id);
}
