/**
 * The one way a federated sign-in (Google, Microsoft, One Tap, SAML and OIDC SSO) becomes a member
 * of an organization: by the identity linked before, else by an address the provider vouches for,
 * else as a new member when the organization's rules admit the person.
 */
import type { Member, Organization } from '@gatehouse/protocol';
import type { Db } from '../../context.js';
import { fail, type Failure } from '../../result.js';
import {
  activateMember,
  createMember,
  memberByEmail,
  memberById,
} from '../../tenancy/members/store.js';
import type { Project } from '../../tenancy/projects/service.js';
import {
  recordLink,
  linkedMemberId,
  type LinkProfile,
  type ProviderSubject,
} from './registrations.js';

/** Who signed in, as the member will know them. */
export interface ProvisionIdentity {
  email: string;
  name: string;
  link: ProviderSubject;
  /** What the provider said of the person, kept on the link for member answers. */
  profile?: LinkProfile;
}

/** What the sign-in method's trust rule decided for this organization. */
export interface ProvisionPolicy {
  /** Whether the provider vouches for the address here: it may sign in as the member who has it. */
  vouched: boolean;
  /** Why a person who is not yet a member may not join; null when they may. */
  joinRefusal: Failure | null;
}

/** The member a federated sign-in reached, and whether it was created or activated by it. */
export interface Provisioned {
  member: Member;
  /** True when the sign-in created the member or activated an invited or pending one. */
  created: boolean;
}

/** The member was removed from the organization. */
const memberRemoved = (): Failure => fail('member_not_found', 'This member has been removed.');

/** The provider does not vouch for the address in this organization. */
export const addressNotVouched = (email: string): Failure =>
  fail(
    'oauth_email_not_verified',
    `The provider does not vouch for ${email} here: sign in with another method, or ask an administrator to allow your organization's account.`,
  );

/** A concurrent sign-in of the same person created the member first. */
const raced = (): Failure =>
  fail('invalid_request', 'The member was created by another sign-in at the same time; try again.');

async function signedIn(
  db: Db,
  projectId: string,
  member: Member,
  identity: ProvisionIdentity,
  now: number,
): Promise<Provisioned | Failure> {
  const linked = await recordLink(
    db,
    {
      project_id: projectId,
      organization_id: member.organization_id,
      member_id: member.member_id,
      email: member.email_address,
    },
    identity.link,
    now,
    identity.profile,
  );
  if (!linked) return raced();
  return { member: await activateMember(db, member, now), created: member.status !== 'active' };
}

/**
 * Finds or creates the member this identity is in the organization, and links the identity to
 * it. Run it in the transaction that issues the sign-in's token.
 *
 * @example
 * const joined = await findOrProvisionMember(trx, project, org, identity, policy, now);
 * if (isFailure(joined)) return joined;
 */
export async function findOrProvisionMember(
  db: Db,
  project: Project,
  org: Organization,
  identity: ProvisionIdentity,
  policy: ProvisionPolicy,
  now: number,
): Promise<Provisioned | Failure> {
  const linkedId = await linkedMemberId(db, org.organization_id, identity.link);
  const linked = linkedId ? await memberById(db, project.id, linkedId) : null;
  if (linked) {
    if (linked.status === 'deleted') return memberRemoved();
    return signedIn(db, project.id, linked, identity, now);
  }
  const existing = await memberByEmail(db, org.organization_id, identity.email);
  if (existing?.status === 'deleted') return memberRemoved();
  if (existing) {
    // Another account claiming a member's address (a second subject, or a first one): only an
    // address the provider vouches for may take over or create the member's link.
    if (!policy.vouched) return addressNotVouched(identity.email);
    return signedIn(db, project.id, existing, identity, now);
  }
  if (policy.joinRefusal) return policy.joinRefusal;
  const created = await createMember(
    db,
    project.id,
    project.environment,
    org.organization_id,
    { email_address: identity.email, name: identity.name, status: 'active', emailVerified: true },
    now,
  );
  if (created === 'email_taken') return raced();
  const done = await signedIn(db, project.id, created, identity, now);
  return 'member' in done ? { member: done.member, created: true } : done;
}
