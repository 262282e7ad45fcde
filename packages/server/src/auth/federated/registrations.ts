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

/**
 * What a provider said about the person besides who they are, shown in member answers as of the
 * last sign-in: an OAuth provider's picture and locale, an SSO IdP's attributes.
 */
export interface LinkProfile {
  profilePictureUrl?: string | undefined;
  locale?: string | undefined;
  attributes?: Record<string, unknown> | undefined;
}

/** The most an IdP's attributes may take in a member answer: a few KB, a bounded number. */
const MAX_ATTRIBUTES = 64;
const MAX_ATTRIBUTE_NAME = 256;
const MAX_ATTRIBUTE_JSON = 2048;
const MAX_ATTRIBUTES_JSON = 16 * 1024;
const MAX_PROFILE_TEXT = 2048;

/**
 * An IdP's attributes as stored: at most {@link MAX_ATTRIBUTES} names, each value's JSON within
 * {@link MAX_ATTRIBUTE_JSON} characters and the whole within {@link MAX_ATTRIBUTES_JSON}; what
 * goes past a bound is left out, so an IdP cannot grow every member answer without limit.
 *
 * @example
 * boundedAttributes({ email: ['a@b.co'], huge: 'x'.repeat(10_000) }); // '{"email":["a@b.co"]}'
 */
export function boundedAttributes(attributes: Record<string, unknown>): string {
  const kept: Record<string, unknown> = {};
  let size = 2;
  let count = 0;
  for (const [name, value] of Object.entries(attributes)) {
    if (count === MAX_ATTRIBUTES) break;
    if (name.length > MAX_ATTRIBUTE_NAME || value === undefined) continue;
    const json = JSON.stringify(value);
    if (json.length > MAX_ATTRIBUTE_JSON) continue;
    const entry = JSON.stringify(name).length + 1 + json.length + 1;
    if (size + entry > MAX_ATTRIBUTES_JSON) continue;
    kept[name] = value;
    size += entry;
    count += 1;
  }
  return JSON.stringify(kept);
}

/** A provider's text claim as stored: null when absent, empty or too long to be meant. */
function profileText(value: string | undefined): string | null {
  return value && value.length <= MAX_PROFILE_TEXT ? value : null;
}

/** The profile columns of a link. */
function profileColumns(profile: LinkProfile | undefined) {
  return {
    profile_picture_url: profileText(profile?.profilePictureUrl),
    locale: profileText(profile?.locale),
    attributes: profile?.attributes ? boundedAttributes(profile.attributes) : null,
  };
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
 * and notes the time and what the provider said of the person otherwise. False when the
 * identity is already another member's.
 */
export async function recordLink(
  db: Db,
  member: { project_id: string; organization_id: string; member_id: string; email: string },
  identity: ProviderSubject,
  now: number,
  profile?: LinkProfile,
): Promise<boolean> {
  const at = isoAt(now);
  const current = await linkOf(db, member.member_id, identity.provider);
  if (current && current.issuer === identity.issuer && current.subject === identity.subject) {
    await db
      .updateTable('member_federated_identities')
      .set({ last_used_at: at, ...profileColumns(profile) })
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
        ...profileColumns(profile),
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
