/**
 * The end of every SSO sign-in: the member the IdP's person is in the connection's organization
 * (by the identity linked before, by address, or JIT-provisioned under the organization's SSO
 * rules), the roles its groups and the connection give, the `sso` token the app redeems, and its redemption.
 */
import {
  FEDERATED_TOKEN_MINUTES,
  type AuthenticationFactor,
  type Organization,
} from '@gatehouse/protocol';
import type { AuthOutcome, PresentedSession } from '../../auth/complete.js';
import { findOrProvisionMember } from '../../auth/federated/provision.js';
import { issueLinkToken, redeemForSignIn } from '../../auth/link-tokens.js';
import { completePrimary } from '../../auth/primary.js';
import type { ClientInfo } from '../../auth/client-info.js';
import { isoAt, type Context, type Db } from '../../context.js';
import { allOrNothing, fail, isFailure, type Failure } from '../../result.js';
import type { SsoConnectionsTable, SsoRequestsTable } from '../../store/schema.js';
import { memberRemoved } from '../../tenancy/members/errors.js';
import { memberById, normalizeEmail } from '../../tenancy/members/store.js';
import { replaceRolesFrom } from '../../tenancy/members/store-roles.js';
import { allowsAuthMethod } from '../../tenancy/organizations/service.js';
import { organizationById } from '../../tenancy/organizations/store.js';
import { withToken } from '../../tenancy/projects/policy.js';
import type { Project } from '../../tenancy/projects/service.js';
import { projectPolicy } from '../../tenancy/rbac/service.js';
import { oidcSettings, samlSettings } from './connections.js';
import {
  connectionDisabled,
  connectionOrganizationGone,
  ssoNotAllowed,
  ssoTokenNotFound,
} from './errors.js';
import type { SsoRedirect } from './flow.js';
import { connectionRowById, touchConnectionRow } from './store.js';

/** Who the IdP says signed in. */
export interface SsoIdentity {
  email: string;
  name: string;
  groups: string[];
  /** The IdP's entity ID (SAML) or the ID token's issuer (OIDC). */
  issuer: string;
  /** The IdP's id of the person: the SAML NameID, or the ID token's `sub`. */
  subject: string;
  /** What the IdP said of the person: the SAML attributes, or the OIDC claims. */
  attributes: Record<string, unknown>;
}

/**
 * The roles a sign-in through a connection gives: those of the IdP's groups under its group
 * assignments, and those it gives everyone (SAML).
 */
async function rolesOfSignIn(
  db: Db,
  row: SsoConnectionsTable,
  groups: readonly string[],
): Promise<{ fromGroups: string[]; fromConnection: string[] }> {
  const settings = row.kind === 'saml' ? samlSettings(row) : null;
  const assignments = settings ? settings.group_roles : oidcSettings(row).group_roles;
  // A role deleted from the policy since the mapping was saved is skipped.
  const known = new Set((await projectPolicy(db, row.project_id)).roles.map((r) => r.role_id));
  const fromGroups = assignments
    .filter((a) => groups.includes(a.group) && known.has(a.role_id))
    .map((a) => a.role_id);
  const fromConnection = (settings?.connection_roles ?? [])
    .filter((a) => known.has(a.role_id))
    .map((a) => a.role_id);
  return { fromGroups: [...new Set(fromGroups)], fromConnection: [...new Set(fromConnection)] };
}

/** Whether the organization lets this connection create members on first sign-in. */
function jitAllowed(org: Organization, connectionId: string): boolean {
  switch (org.sso_jit_provisioning) {
    case 'ALL_ALLOWED':
      return true;
    case 'RESTRICTED':
      return (org.sso_jit_provisioning_allowed_connections ?? []).includes(connectionId);
    default:
      return false;
  }
}

/**
 * Finds the IdP's person among the connection's organization's members (by the identity linked
 * on an earlier sign-in, else by e-mail) or creates one when the organization's SSO JIT rules
 * allow it, linking the identity; applies group and connection roles; and issues the `sso`
 * token the app redeems. The signup URL is chosen when this sign-in created or activated the
 * member (§14), the login URL otherwise.
 */
export async function signInFederated(
  ctx: Context,
  db: Db,
  project: Project,
  row: SsoConnectionsTable,
  request: Pick<SsoRequestsTable, 'pkce_challenge' | 'login_redirect_url' | 'signup_redirect_url'>,
  identity: SsoIdentity,
): Promise<SsoRedirect | Failure> {
  const now = ctx.now();
  const email = normalizeEmail(identity.email);
  // A change of the connection's roles and this sign-in queue on its row: either the change
  // finds this member's link, or this sign-in reads the changed roles; never neither.
  await touchConnectionRow(db, project.id, row.id);
  const connection = (await connectionRowById(db, row.id)) ?? row;
  // Turned off since the answer was read: refused, now under the lock that a change takes.
  const settings = connection.kind === 'saml' ? samlSettings(connection) : oidcSettings(connection);
  if (!settings.sign_in_enabled) return connectionDisabled();
  const org = await organizationById(db, project.id, row.organization_id);
  if (!org) return connectionOrganizationGone();
  const joined = await findOrProvisionMember(
    db,
    project,
    org,
    {
      email,
      name: identity.name,
      link: { provider: `sso:${row.id}`, issuer: identity.issuer, subject: identity.subject },
      profile: { attributes: identity.attributes },
    },
    {
      // The connection is the organization's own IdP: it vouches for its members' addresses.
      vouched: true,
      joinRefusal: jitAllowed(org, row.id)
        ? null
        : fail(
            'sso_jit_provisioning_not_allowed',
            `${email} is not a member of ${org.organization_name}, and this organization does not add members through this SSO connection.`,
          ),
    },
    now,
  );
  if (isFailure(joined)) return joined;
  const { member, created } = joined;
  const roles = await rolesOfSignIn(db, connection, identity.groups);
  await replaceRolesFrom(db, member.member_id, { ssoConnectionGroup: row.id }, roles.fromGroups);
  await replaceRolesFrom(db, member.member_id, { ssoConnection: row.id }, roles.fromConnection);
  const token = await issueLinkToken(
    db,
    {
      projectId: project.id,
      kind: 'sso',
      email,
      organizationId: org.organization_id,
      pkceChallenge: request.pkce_challenge,
      lifetimeMinutes: FEDERATED_TOKEN_MINUTES,
      details: JSON.stringify({
        connection_id: row.id,
        kind: row.kind,
        member_id: member.member_id,
      }),
    },
    now,
  );
  const destination = created ? request.signup_redirect_url : request.login_redirect_url;
  return { location: withToken(destination, 'sso', token) };
}

/** The factor an SSO sign-in proves. */
function ssoFactor(
  connectionId: string,
  kind: string,
  email: string,
  now: number,
): AuthenticationFactor {
  return {
    type: 'sso',
    delivery_method: kind === 'oidc' ? 'oidc_sso' : 'sso_saml',
    last_authenticated_at: isoAt(now),
    sequence_order: 'PRIMARY',
    [kind === 'oidc' ? 'oidc_sso_factor' : 'saml_sso_factor']: {
      id: connectionId,
      provider_id: connectionId,
      external_id: email,
    },
  };
}

/** The body of `sso/authenticate`. */
export interface SsoAuthenticateInput {
  sso_token: string;
  session_duration_minutes: number;
  pkce_code_verifier?: string | undefined;
  intermediate_session_token?: string | undefined;
}

/**
 * Redeems an `sso` token once (PKCE-bound when the start had a challenge) and grants result AM:
 * the organization's MFA policy applies after SSO as after any primary method.
 */
export async function authenticateSso(
  ctx: Context,
  project: Project,
  input: SsoAuthenticateInput,
  presented: PresentedSession | null,
  client: ClientInfo,
): Promise<AuthOutcome | Failure> {
  return allOrNothing(ctx.db, async (trx) => {
    const now = ctx.now();
    const token = await redeemForSignIn(
      trx,
      project.id,
      'sso',
      input.sso_token,
      input.pkce_code_verifier,
      now,
      ssoTokenNotFound,
    );
    if (isFailure(token)) return token;
    if (!token.organization_id || !token.details) return ssoTokenNotFound();
    const details = JSON.parse(token.details) as {
      connection_id: string;
      kind: string;
      member_id: string;
    };
    const org = await organizationById(trx, project.id, token.organization_id);
    if (!org) return connectionOrganizationGone();
    if (!allowsAuthMethod(org, 'sso')) {
      return ssoNotAllowed();
    }
    const member = await memberById(trx, project.id, details.member_id);
    if (!member || member.status === 'deleted' || member.organization_id !== org.organization_id) {
      return memberRemoved();
    }
    return completePrimary(
      ctx,
      trx,
      {
        project,
        organization: org,
        member,
        factors: [ssoFactor(details.connection_id, details.kind, member.email_address, now)],
        durationMinutes: input.session_duration_minutes,
        presented,
        client,
        intermediateSessionToken: input.intermediate_session_token,
      },
      now,
    );
  });
}
