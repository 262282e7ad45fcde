/**
 * Starting a Google or Microsoft sign-in (docs/protocol.md §8): the organization (or discovery),
 * the redirect URLs, PKCE, and our own state, nonce and PKCE towards the provider, bound to the
 * browser that started.
 */
import { randomUUID } from 'node:crypto';
import { FEDERATED_TOKEN_MINUTES, type Organization } from '@gatehouse/protocol';
import { beginAuthorization } from '../../auth/federated/oidc-client.js';
import { isoAt, type Context } from '../../context.js';
import { hashToken } from '../../crypto/random.js';
import { fail, isFailure, type Failure } from '../../result.js';
import type { OAuthRequestsTable } from '../../store/schema.js';
import { allowsAuthMethod } from '../../tenancy/organizations/service.js';
import { organizationById, organizationBySlug } from '../../tenancy/organizations/store.js';
import { resolveRedirectUrl } from '../../tenancy/projects/policy.js';
import type { Project } from '../../tenancy/projects/service.js';
import { organizationMissing, pkceRequired, providerNotConfigured } from './errors.js';
import { isProvider, providerConfig, redirectUri } from './providers.js';
import { insertOAuthRequest } from './store.js';

const BASE_SCOPES = ['openid', 'email', 'profile'];
/** Query parameters of ours that `provider_*` may not override. */
const RESERVED = new Set([
  'client_id',
  'redirect_uri',
  'response_type',
  'scope',
  'state',
  'nonce',
  'code_challenge',
  'code_challenge_method',
]);

/** Where an OAuth sign-in returns: the login and signup URLs, or the discovery URL. */
export type Destinations = { login: string; signup: string } | { discovery: string };

/**
 * Starts an OAuth sign-in (§8): checks the provider, the organization (by id or slug, unless
 * discovery) and that it allows this provider, the redirect URLs and PKCE, stores the request and
 * answers the provider's authorization URL.
 */
export async function startOAuth(
  ctx: Context,
  project: Project,
  providerName: string,
  query: URLSearchParams,
  discovery: boolean,
  browser: string,
): Promise<{ location: string } | Failure> {
  if (!isProvider(providerName)) return providerNotConfigured();
  const provider = providerName;
  let organization: Organization | null = null;
  let destinations: Destinations;
  const given = (name: string) => query.get(name) ?? undefined;
  if (discovery) {
    const url = resolveRedirectUrl(project, 'discovery', given('discovery_redirect_url'));
    if (!url.ok) return fail('invalid_redirect_url', url.message);
    destinations = { discovery: url.url };
  } else {
    const id = given('organization_id');
    const slug = given('slug');
    organization = id
      ? await organizationById(ctx.db, project.id, id)
      : slug
        ? await organizationBySlug(ctx.db, project.id, slug.toLowerCase())
        : null;
    if (!organization) return organizationMissing();
    if (!allowsAuthMethod(organization, `${provider}_oauth`)) {
      return fail(
        'auth_method_not_allowed',
        `This organization does not allow ${provider} sign-in.`,
      );
    }
    const login = resolveRedirectUrl(project, 'login', given('login_redirect_url'));
    if (!login.ok) return fail('invalid_redirect_url', login.message);
    const signup = resolveRedirectUrl(project, 'signup', given('signup_redirect_url'));
    if (!signup.ok) return fail('invalid_redirect_url', signup.message);
    destinations = { login: login.url, signup: signup.url };
  }
  const challenge = given('pkce_code_challenge');
  if (project.pkceRequired.oauth && !challenge) return pkceRequired();
  if (challenge !== undefined && !/^[A-Za-z0-9_-]{43}$/.test(challenge)) {
    return fail('invalid_request', 'The pkce_code_challenge must be a base64url SHA-256 digest.');
  }
  const config = await providerConfig(ctx, project, provider);
  if (isFailure(config)) return config;

  const scopes = [
    ...new Set([...BASE_SCOPES, ...(given('custom_scopes') ?? '').split(/[\s+]+/).filter(Boolean)]),
  ];
  const parameters: Record<string, string> = {};
  for (const [key, value] of query) {
    const name = key.startsWith('provider_') ? key.slice('provider_'.length) : '';
    if (name !== '' && !RESERVED.has(name)) parameters[name] = value;
  }
  const started = await beginAuthorization(config, {
    redirectUri: redirectUri(ctx, provider),
    scopes,
    parameters,
  });
  const now = ctx.now();
  const request: OAuthRequestsTable = {
    id: randomUUID(),
    project_id: project.id,
    provider,
    organization_id: organization?.organization_id ?? null,
    state_hash: hashToken(started.state),
    browser_hash: hashToken(browser),
    nonce: started.nonce,
    code_verifier_encrypted: ctx.box.seal(started.codeVerifier),
    pkce_challenge: challenge ?? null,
    redirect_urls: JSON.stringify(destinations),
    scopes: scopes.join(' '),
    created_at: isoAt(now),
    expires_at: isoAt(now + FEDERATED_TOKEN_MINUTES * 60_000),
    used_at: null,
  };
  await insertOAuthRequest(ctx.db, request);
  return { location: started.location };
}
