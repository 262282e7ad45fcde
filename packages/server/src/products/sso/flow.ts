/**
 * The SSO sign-in flow (docs/protocol.md §7.6, §8): start at the IdP, come back through the SAML
 * ACS or the OIDC callback, find or JIT-provision the member, return to the app with an `sso`
 * token, and redeem that token for result AM.
 */
import { randomUUID } from 'node:crypto';
import {
  FEDERATED_TOKEN_MINUTES,
  type AuthenticationFactor,
  type Member,
  type Organization,
} from '@gatehouse/protocol';
import * as oidc from 'openid-client';
import { isoAt, type Context, type Db } from '../../context.js';
import { hashToken, newToken, safeEqual } from '../../crypto/random.js';
import type { SsoConnectionsTable, SsoRequestsTable } from '../../store/schema.js';
import { issueLinkToken, redeemForSignIn } from '../../auth/link-tokens.js';
import {
  activateMember,
  createMember,
  memberByEmail,
  memberById,
  normalizeEmail,
  replaceRolesFrom,
} from '../members/store.js';
import { allowsAuthMethod } from '../organizations/service.js';
import { organizationById } from '../organizations/store.js';
import { resolveRedirectUrl, withToken } from '../projects/policy.js';
import type { Project } from '../projects/service.js';
import { projectPolicy } from '../rbac/service.js';
import { allOrNothing, fail, isFailure, type Failure } from '../../result.js';
import type { AuthOutcome, PresentedSession } from '../../auth/complete.js';
import { completePrimary } from '../../auth/primary.js';
import { oidcSettings, samlSettings, ssoUrls, type SsoUrls } from './connections.js';
import { discoverProvider } from './oidc-discovery.js';
import { authnRequestUrl, serviceProviderMetadata, verifySamlResponse } from './saml.js';
import {
  certificateRowsOf,
  claimRequest,
  connectionRow,
  connectionRowById,
  insertRequest,
  liveRequestById,
  liveRequestByState,
  recordAssertion,
} from './store.js';
import { memberRemoved } from '../members/errors.js';
import {
  alreadyAnswered,
  assertionReplayed,
  badPkceChallenge,
  connectionGone,
  connectionInactive,
  connectionNotFound,
  connectionOrganizationGone,
  emailNotVerified,
  idpInitiatedNotAllowed,
  memberRaced,
  noEmail,
  noIdToken,
  pkceRequired,
  ssoNotAllowed,
  otherBrowser,
  ssoTokenNotFound,
  unknownInResponseTo,
  unknownState,
} from './errors.js';

const TOKEN_LIFETIME_MS = FEDERATED_TOKEN_MINUTES * 60_000;

/** The query of `GET /v1/public/sso/start`, form-decoded. */
export interface SsoStartQuery {
  connection_id: string;
  pkce_code_challenge?: string | undefined;
  login_redirect_url?: string | undefined;
  signup_redirect_url?: string | undefined;
}

function urlsOf(ctx: Context): SsoUrls {
  return ssoUrls(ctx.config.publicUrl);
}

async function samlProvider(ctx: Context, row: SsoConnectionsTable) {
  const urls = urlsOf(ctx);
  const certificates = await certificateRowsOf(ctx.db, [row.id]);
  return {
    entityId: urls.samlEntityId(row.id),
    acsUrl: urls.samlAcsUrl(row.id),
    settings: samlSettings(row),
    certificates: certificates.map((c) => c.certificate),
  };
}

// Discovery documents change rarely: each connection's is fetched once per version of the
// connection (its updated_at) and kept for a few minutes, in this process only.
const PROVIDER_CACHE_MS = 10 * 60_000;
const providerCache = new Map<
  string,
  { at: number; config: Promise<oidc.Configuration | Failure> }
>();

function oidcProvider(
  ctx: Context,
  row: SsoConnectionsTable,
): Promise<oidc.Configuration | Failure> {
  const key = `${row.id}@${row.updated_at}`;
  const cached = providerCache.get(key);
  if (cached && Date.now() - cached.at < PROVIDER_CACHE_MS) return cached.config;
  const settings = oidcSettings(row);
  const secret = row.secret_encrypted === null ? '' : ctx.box.open(row.secret_encrypted);
  const config = discoverProvider(settings.issuer, settings.client_id, secret).then((result) => {
    if (isFailure(result)) providerCache.delete(key);
    return result;
  });
  for (const [k, v] of providerCache) {
    if (k.startsWith(`${row.id}@`) || Date.now() - v.at >= PROVIDER_CACHE_MS)
      providerCache.delete(k);
  }
  providerCache.set(key, { at: Date.now(), config });
  return config;
}

/**
 * Begins an SSO sign-in: checks the connection, the organization's methods, the redirect URLs
 * (allow-list) and PKCE, stores the request, and answers the IdP URL to send the browser to.
 *
 * @example
 * const result = await startSso(ctx, project, { connection_id, login_redirect_url });
 * if (!isFailure(result)) reply.redirect(result.location);
 */
export async function startSso(
  ctx: Context,
  project: Project,
  query: SsoStartQuery,
  browser: string,
): Promise<{ location: string } | Failure> {
  const row = await connectionRow(ctx.db, project.id, query.connection_id);
  if (!row) return connectionNotFound();
  if (row.status !== 'active') {
    return connectionInactive();
  }
  const org = await organizationById(ctx.db, project.id, row.organization_id);
  if (!org) return connectionOrganizationGone();
  if (!allowsAuthMethod(org, 'sso')) {
    return ssoNotAllowed();
  }
  const login = resolveRedirectUrl(project, 'login', query.login_redirect_url);
  if (!login.ok) return fail('invalid_redirect_url', login.message);
  const signup = resolveRedirectUrl(project, 'signup', query.signup_redirect_url);
  if (!signup.ok) return fail('invalid_redirect_url', signup.message);
  if (project.pkceRequired.sso && !query.pkce_code_challenge) {
    return pkceRequired();
  }
  if (
    query.pkce_code_challenge !== undefined &&
    !/^[A-Za-z0-9_-]{43}$/.test(query.pkce_code_challenge)
  ) {
    return badPkceChallenge();
  }

  const now = ctx.now();
  const request: SsoRequestsTable = {
    // A SAML request ID must be an XML name: it may not start with a digit.
    id: `_${randomUUID()}`,
    project_id: project.id,
    connection_id: row.id,
    state_hash: null,
    nonce: null,
    code_verifier_encrypted: null,
    pkce_challenge: query.pkce_code_challenge ?? null,
    login_redirect_url: login.url,
    signup_redirect_url: signup.url,
    browser_hash: hashToken(browser),
    created_at: isoAt(now),
    expires_at: isoAt(now + TOKEN_LIFETIME_MS),
    used_at: null,
  };

  if (row.kind === 'saml') {
    const location = await authnRequestUrl(await samlProvider(ctx, row), request.id);
    await insertRequest(ctx.db, request);
    return { location };
  }

  const config = await oidcProvider(ctx, row);
  if (isFailure(config)) return config;
  const state = newToken();
  const nonce = newToken();
  const verifier = oidc.randomPKCECodeVerifier();
  const location = oidc.buildAuthorizationUrl(config, {
    redirect_uri: urlsOf(ctx).oidcRedirectUrl(),
    scope: 'openid email profile',
    state,
    nonce,
    code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
  });
  await insertRequest(ctx.db, {
    ...request,
    state_hash: hashToken(state),
    nonce,
    code_verifier_encrypted: ctx.box.seal(verifier),
  });
  return { location: location.href };
}

/** The SP metadata XML of a SAML connection, or null when there is no such connection. */
export async function samlMetadata(ctx: Context, connectionId: string): Promise<string | null> {
  const row = await connectionRowById(ctx.db, connectionId);
  if (!row || row.kind !== 'saml') return null;
  return serviceProviderMetadata(await samlProvider(ctx, row));
}

/**
 * Whether the return came to the browser that started the sign-in (its binding cookie), so that
 * nobody can sign a victim's browser in to the attacker's account (login CSRF).
 */
function sameBrowser(
  request: Pick<SsoRequestsTable, 'browser_hash'>,
  browser: string | null,
): boolean {
  return (
    browser !== null &&
    typeof request.browser_hash === 'string' &&
    safeEqual(request.browser_hash, hashToken(browser))
  );
}

/** Who the IdP says signed in. */
interface FederatedIdentity {
  email: string;
  name: string;
  groups: string[];
}

/** Where the browser goes when an IdP sign-in succeeded. */
export interface SsoRedirect {
  location: string;
}

/**
 * The SAML ACS: verifies the response (signature, issuer, audience, destination, recipient,
 * times), matches `InResponseTo` to a request we sent and have not seen answered, refuses
 * unprompted responses unless the connection allows them, records the assertion ID so it is
 * never accepted twice (on any instance), then signs the member in to the app.
 */
export async function finishSaml(
  ctx: Context,
  connectionId: string,
  samlResponse: string,
  browser: string | null,
): Promise<SsoRedirect | Failure> {
  const row = await connectionRowById(ctx.db, connectionId);
  if (!row || row.kind !== 'saml') {
    return connectionNotFound();
  }
  const project = await ctx.projects.byId(row.project_id);
  if (!project) return connectionNotFound();
  const now = ctx.now();
  const provider = await samlProvider(ctx, row);
  const assertion = await verifySamlResponse(provider, samlResponse, now);
  if (isFailure(assertion)) return assertion;

  return allOrNothing(ctx.db, async (trx) => {
    let request: Pick<
      SsoRequestsTable,
      'pkce_challenge' | 'login_redirect_url' | 'signup_redirect_url'
    >;
    if (assertion.inResponseTo !== null) {
      const sent = await liveRequestById(trx, row.id, assertion.inResponseTo, now);
      if (!sent || !(await claimRequest(trx, sent.id, now))) {
        return unknownInResponseTo();
      }
      if (!sameBrowser(sent, browser)) return otherBrowser('saml');
      request = sent;
    } else {
      if (!provider.settings.allow_idp_initiated) {
        return idpInitiatedNotAllowed();
      }
      const login = resolveRedirectUrl(project, 'login', undefined);
      const signup = resolveRedirectUrl(project, 'signup', undefined);
      if (!login.ok) return fail('invalid_redirect_url', login.message);
      if (!signup.ok) return fail('invalid_redirect_url', signup.message);
      request = {
        pkce_challenge: null,
        login_redirect_url: login.url,
        signup_redirect_url: signup.url,
      };
    }
    if (!(await recordAssertion(trx, row.id, assertion.assertionId, assertion.expiresAt))) {
      return assertionReplayed();
    }
    const name = [assertion.firstName, assertion.lastName].filter((n) => n !== '').join(' ');
    return signInFederated(ctx, trx, project, row, request, {
      email: assertion.email,
      name,
      groups: assertion.groups,
    });
  });
}

/**
 * The OIDC callback: finds the request by its state, exchanges the code with our PKCE verifier,
 * and lets openid-client check the ID token (signature, issuer, audience, expiry, nonce). The
 * e-mail must be verified by the provider.
 */
export async function finishOidc(
  ctx: Context,
  callbackQuery: URLSearchParams,
  browser: string | null,
): Promise<SsoRedirect | Failure> {
  const state = callbackQuery.get('state') ?? '';
  const now = ctx.now();
  const request =
    state === '' ? undefined : await liveRequestByState(ctx.db, hashToken(state), now);
  if (!request) {
    return unknownState();
  }
  // Answered once, whatever happens next: a code or state is never tried twice.
  if (!(await claimRequest(ctx.db, request.id, now))) {
    return alreadyAnswered();
  }
  // Spent either way: a callback in another browser cannot be retried from the one that started.
  if (!sameBrowser(request, browser)) return otherBrowser('oidc');
  const providerError = callbackQuery.get('error');
  if (providerError !== null) {
    const description = callbackQuery.get('error_description');
    return fail(
      'invalid_oidc_response',
      `The identity provider refused the sign-in: ${providerError}${description ? ` (${description})` : ''}.`,
    );
  }
  const row = await connectionRowById(ctx.db, request.connection_id);
  const project = row ? await ctx.projects.byId(row.project_id) : null;
  if (!row || row.kind !== 'oidc' || !project) {
    return connectionGone();
  }
  const config = await oidcProvider(ctx, row);
  if (isFailure(config)) return config;

  let claims: oidc.IDToken | undefined;
  let userinfo: oidc.UserInfoResponse | null = null;
  try {
    const callbackUrl = new URL(urlsOf(ctx).oidcRedirectUrl());
    callbackUrl.search = callbackQuery.toString();
    const tokens = await oidc.authorizationCodeGrant(config, callbackUrl, {
      pkceCodeVerifier: ctx.box.open(request.code_verifier_encrypted ?? ''),
      expectedState: state,
      expectedNonce: request.nonce ?? '',
      idTokenExpected: true,
    });
    claims = tokens.claims();
    if (claims && typeof claims.email !== 'string') {
      userinfo = await oidc.fetchUserInfo(config, tokens.access_token, claims.sub);
    }
  } catch (error) {
    const reason = error instanceof Error ? error.message : 'unknown error';
    return fail('invalid_oidc_response', `The identity provider's answer was refused: ${reason}`);
  }
  if (!claims) return noIdToken();
  const source: Record<string, unknown> = { ...claims, ...(userinfo ?? {}) };
  const email = typeof source.email === 'string' ? source.email : '';
  if (email === '') return noEmail();
  if (source.email_verified !== true) {
    return emailNotVerified();
  }
  const given = [source.given_name, source.family_name].filter(
    (n): n is string => typeof n === 'string' && n !== '',
  );
  const name =
    typeof source.name === 'string' && source.name !== '' ? source.name : given.join(' ');
  const groups = Array.isArray(source.groups)
    ? source.groups.filter((g): g is string => typeof g === 'string')
    : [];
  return allOrNothing(ctx.db, (trx) =>
    signInFederated(ctx, trx, project, row, request, { email, name, groups }),
  );
}

/** The roles an IdP's groups give under a connection's group assignments. */
async function rolesFromGroups(
  db: Db,
  row: SsoConnectionsTable,
  groups: readonly string[],
): Promise<string[]> {
  const assignments =
    row.kind === 'saml' ? samlSettings(row).group_roles : oidcSettings(row).group_roles;
  // A role deleted from the policy since the mapping was saved is skipped.
  const known = new Set((await projectPolicy(db, row.project_id)).roles.map((r) => r.role_id));
  return [
    ...new Set(
      assignments
        .filter((a) => groups.includes(a.group) && known.has(a.role_id))
        .map((a) => a.role_id),
    ),
  ];
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
 * Matches the IdP's person to a member of the connection's organization by e-mail, or creates
 * one when the organization's SSO JIT rules allow it; applies group roles; and issues the `sso`
 * token the app redeems. The signup URL is chosen when this sign-in created or activated the
 * member (§14), the login URL otherwise.
 */
async function signInFederated(
  ctx: Context,
  db: Db,
  project: Project,
  row: SsoConnectionsTable,
  request: Pick<SsoRequestsTable, 'pkce_challenge' | 'login_redirect_url' | 'signup_redirect_url'>,
  identity: FederatedIdentity,
): Promise<SsoRedirect | Failure> {
  const now = ctx.now();
  const email = normalizeEmail(identity.email);
  const org = await organizationById(db, project.id, row.organization_id);
  if (!org) return connectionOrganizationGone();
  const existing = await memberByEmail(db, org.organization_id, email);
  if (existing?.status === 'deleted') {
    return memberRemoved();
  }
  let member: Member;
  let created: boolean;
  if (existing) {
    created = existing.status !== 'active';
    member = await activateMember(db, existing, now);
  } else {
    if (!jitAllowed(org, row.id)) {
      return fail(
        'sso_jit_provisioning_not_allowed',
        `${email} is not a member of ${org.organization_name}, and this organization does not add members through this SSO connection.`,
      );
    }
    const made = await createMember(
      db,
      project.id,
      project.environment,
      org.organization_id,
      { email_address: email, name: identity.name, status: 'active', emailVerified: true },
      now,
    );
    if (made === 'email_taken') {
      return memberRaced();
    }
    member = made;
    created = true;
  }
  await replaceRolesFrom(
    db,
    member.member_id,
    'sso_connection_group',
    await rolesFromGroups(db, row, identity.groups),
  );
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
        intermediateSessionToken: input.intermediate_session_token,
      },
      now,
    );
  });
}
