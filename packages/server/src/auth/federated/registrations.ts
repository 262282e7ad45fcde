/**
 * The provider identities linked to members: on a member's first federated sign-in with a
 * provider, its issuer and subject are recorded; later sign-ins find the member by them.
 */
import { randomUUID } from 'node:crypto';
import { isoAt, type Db } from '../../context.js';
import type { MemberFederatedIdentitiesTable } from '../../store/schema.js';
import { insertUnlessDuplicate } from '../../store/unique.js';

/** An identity as a provider names it. `provider` is `google`, `microsoft` or `sso:<id>`. */
export interface ProviderSubject {
  provider: string;
  issuer: string;
  subject: string;
}

/** The member an identity is linked to in an organization, if any. */
export async function linkedMemberId(
  db: Db,
  organizationId: string,
  identity: ProviderSubject,
): Promise<string | null> {
  const row = await db
    .selectFrom('member_federated_identities')
    .select('member_id')
    .where('organization_id', '=', organizationId)
    .where('provider', '=', identity.provider)
    .where('issuer', '=', identity.issuer)
    .where('subject', '=', identity.subject)
    .executeTakeFirst();
  return row?.member_id ?? null;
}

/** The identity a member has linked for a provider, if any. */
export async function linkOf(
  db: Db,
  memberId: string,
  provider: string,
): Promise<MemberFederatedIdentitiesTable | null> {
  const row = await db
    .selectFrom('member_federated_identities')
    .selectAll()
    .where('member_id', '=', memberId)
    .where('provider', '=', provider)
    .executeTakeFirst();
  return row ?? null;
}

/** A member's linked identities, oldest first. */
export async function linksOfMember(
  db: Db,
  memberId: string,
): Promise<MemberFederatedIdentitiesTable[]> {
  return db
    .selectFrom('member_federated_identities')
    .selectAll()
    .where('member_id', '=', memberId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

/**
 * Records that a member signed in with an identity: links it on the first sign-in with the
 * provider, replaces the link when the caller has decided the provider vouches for a new one,
 * and notes the time otherwise. False when the identity is already another member's.
 */
export async function recordLink(
  db: Db,
  member: { project_id: string; organization_id: string; member_id: string; email: string },
  identity: ProviderSubject,
  now: number,
): Promise<boolean> {
  const at = isoAt(now);
  const current = await linkOf(db, member.member_id, identity.provider);
  if (current && current.issuer === identity.issuer && current.subject === identity.subject) {
    await db
      .updateTable('member_federated_identities')
      .set({ last_used_at: at })
      .where('id', '=', current.id)
      .execute();
    return true;
  }
  if (current) {
    await db.deleteFrom('member_federated_identities').where('id', '=', current.id).execute();
  }
  return insertUnlessDuplicate(db, (d) =>
    d
      .insertInto('member_federated_identities')
      .values({
        id: randomUUID(),
        project_id: member.project_id,
        organization_id: member.organization_id,
        member_id: member.member_id,
        provider: identity.provider,
        issuer: identity.issuer,
        subject: identity.subject,
        email: member.email,
        created_at: at,
        last_used_at: at,
      })
      .execute(),
  );
}

/** A Microsoft issuer names its tenant: `https://login.microsoftonline.com/{tid}/v2.0`. */
const MICROSOFT_TENANT_ISSUER = /\/([A-Za-z0-9-]{1,64})\/v2\.0\/?$/;

/** The tenants of the Microsoft accounts linked to a member (lowercased). */
export async function linkedMicrosoftTenants(db: Db, memberId: string): Promise<string[]> {
  const links = await linksOfMember(db, memberId);
  return links
    .filter((link) => link.provider === 'microsoft')
    .map((link) => MICROSOFT_TENANT_ISSUER.exec(link.issuer)?.[1]?.toLowerCase())
    .filter((tenant): tenant is string => tenant !== undefined);
}
