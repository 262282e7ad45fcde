/**
 * The provider identities linked to members, in the wire form of a member's `oauth_registrations`
 * and `sso_registrations` (docs/protocol.md §5). Read by member id and organization together, so
 * a member answer never shows an identity linked in another organization.
 */
import type { OAuthRegistration, SsoRegistration } from '@gatehouse/protocol';
import type { Db } from '../../context.js';
import { preparedQuery } from '../../store/prepared.js';
import type { MemberFederatedIdentitiesTable } from '../../store/schema.js';

/** A member's linked identities as member answers carry them. */
export interface MemberRegistrations {
  sso_registrations: SsoRegistration[];
  oauth_registrations: OAuthRegistration[];
}

/** The prefix of an SSO connection's identities: `provider` is `sso:<connection id>`. */
const SSO_PREFIX = 'sso:';

/** No linked identity. */
export const NO_REGISTRATIONS: MemberRegistrations = {
  sso_registrations: [],
  oauth_registrations: [],
};

function attributesOf(json: string | null | undefined): Record<string, unknown> {
  if (!json) return {};
  const parsed: unknown = JSON.parse(json);
  return parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed)
    ? (parsed as Record<string, unknown>)
    : {};
}

/** One member's links, oldest first, in their wire form. */
function toRegistrations(links: MemberFederatedIdentitiesTable[]): MemberRegistrations {
  const out: MemberRegistrations = { sso_registrations: [], oauth_registrations: [] };
  for (const link of links) {
    if (link.provider.startsWith(SSO_PREFIX)) {
      out.sso_registrations.push({
        connection_id: link.provider.slice(SSO_PREFIX.length),
        external_id: link.subject,
        registration_id: link.id,
        sso_attributes: attributesOf(link.attributes),
      });
    } else {
      out.oauth_registrations.push({
        provider_type: link.provider,
        provider_subject: link.subject,
        member_oauth_registration_id: link.id,
        profile_picture_url: link.profile_picture_url ?? '',
        locale: link.locale ?? '',
      });
    }
  }
  return out;
}

// One member's links, read on every sign-in and refresh: built once (see `preparedQuery`).
const linksOfMember = preparedQuery((db, p: { memberId: string; organizationId: string }) =>
  db
    .selectFrom('member_federated_identities')
    .selectAll()
    .where('member_id', '=', p.memberId)
    .where('organization_id', '=', p.organizationId)
    .orderBy('created_at')
    .orderBy('id'),
);

/**
 * The linked identities of each member, by member id (members with none are absent): only links
 * recorded in the member's own organization count.
 *
 * @example
 * const byMember = await registrationsOf(db, [{ member_id, organization_id }]);
 * byMember.get(member_id) ?? NO_REGISTRATIONS;
 */
export async function registrationsOf(
  db: Db,
  members: readonly { member_id: string; organization_id: string }[],
): Promise<Map<string, MemberRegistrations>> {
  if (members.length === 0) return new Map();
  const orgOf = new Map(members.map((m) => [m.member_id, m.organization_id]));
  const [only] = members;
  const rows =
    members.length === 1 && only
      ? await linksOfMember(db, { memberId: only.member_id, organizationId: only.organization_id })
      : await db
          .selectFrom('member_federated_identities')
          .selectAll()
          .where('member_id', 'in', [...orgOf.keys()])
          .where('organization_id', 'in', [...new Set(orgOf.values())])
          .orderBy('created_at')
          .orderBy('id')
          .execute();
  const byMember = new Map<string, MemberFederatedIdentitiesTable[]>();
  for (const row of rows) {
    // Checked pairwise: a link of this member id under another organization is never shown.
    if (orgOf.get(row.member_id) !== row.organization_id) continue;
    byMember.set(row.member_id, [...(byMember.get(row.member_id) ?? []), row]);
  }
  return new Map([...byMember].map(([id, links]) => [id, toRegistrations(links)]));
}
