/**
 * Google One Tap (docs/protocol.md §7.8): the page hands us a Google ID token; we verify it with
 * jose against the provider's JWKS (signature, `aud` = the project's One Tap client ID, `iss`,
 * `exp`) and answer the URL to go to, carrying an `oauth` or `discovery_oauth` token like the
 * redirect flow.
 */
import { jwtVerify } from 'jose';
import type { Context } from '../../context.js';
import { allOrNothing, fail, isFailure, type Failure } from '../../result.js';
import { allowsAuthMethod } from '../../tenancy/organizations/service.js';
import { organizationById } from '../../tenancy/organizations/store.js';
import { resolveRedirectUrl, withToken } from '../../tenancy/projects/policy.js';
import type { Project } from '../../tenancy/projects/service.js';
import { emailNotVerified, organizationMissing, pkceRequired } from './errors.js';
import { federatedClaims } from '../../auth/federated/claims.js';
import { googleConfig } from './providers.js';
import { issueToken, joinOrganization, type ProviderIdentity } from './service.js';
import { providerRow } from './store.js';
import { keySetOf } from '../../auth/federated/id-tokens.js';

/** The project's One Tap client ID, or `""` when One Tap is off (Google off, or no client ID). */
export async function oneTapClientId(ctx: Context, project: Project): Promise<string> {
  const row = await providerRow(ctx.db, project.id, 'google');
  return row?.enabled === 1 ? row.onetap_client_id : '';
}

/** Verifies a One Tap credential and reads the person from it. */
async function verifyCredential(
  ctx: Context,
  project: Project,
  idToken: string,
): Promise<ProviderIdentity | Failure> {
  const audience = await oneTapClientId(ctx, project);
  if (audience === '') {
    return fail('oauth_provider_not_configured', 'Google One Tap is off for this project.');
  }
  const config = await googleConfig(ctx, project);
  if (isFailure(config)) return config;
  const metadata = config.serverMetadata();
  if (!metadata.jwks_uri) return fail('oidc_discovery_failed', 'The provider publishes no JWKS.');
  try {
    const { payload } = await jwtVerify(idToken, keySetOf(metadata.jwks_uri), {
      audience,
      issuer: metadata.issuer,
      requiredClaims: ['exp', 'iat', 'email'],
      clockTolerance: 30,
    });
    if (payload.email_verified !== true) return emailNotVerified();
    const now = ctx.now();
    const email = String(payload.email).toLowerCase();
    return {
      email,
      name: typeof payload.name === 'string' ? payload.name : '',
      claims: federatedClaims('google', payload, email),
      values: {
        access_token: '',
        id_token: idToken,
        refresh_token: '',
        scopes: ['openid', 'email', 'profile'],
        expires_at:
          typeof payload.exp === 'number'
            ? new Date(payload.exp * 1000).toISOString()
            : new Date(now).toISOString(),
      },
    };
  } catch (error) {
    const reason = error instanceof Error ? error.message : 'unknown error';
    return fail('invalid_oidc_response', `The One Tap credential was refused: ${reason}`);
  }
}

/** `onetap/submit`: signs the person in to an organization, like the redirect flow's callback. */
export async function submitOneTap(
  ctx: Context,
  project: Project,
  input: {
    id_token: string;
    organization_id: string;
    login_redirect_url?: string | undefined;
    signup_redirect_url?: string | undefined;
    pkce_code_challenge?: string | undefined;
  },
): Promise<{ redirect_url: string } | Failure> {
  const login = resolveRedirectUrl(project, 'login', input.login_redirect_url);
  if (!login.ok) return fail('invalid_redirect_url', login.message);
  const signup = resolveRedirectUrl(project, 'signup', input.signup_redirect_url);
  if (!signup.ok) return fail('invalid_redirect_url', signup.message);
  if (project.pkceRequired.oauth && !input.pkce_code_challenge) return pkceRequired();
  const identity = await verifyCredential(ctx, project, input.id_token);
  if (isFailure(identity)) return identity;
  return allOrNothing(ctx.db, async (trx) => {
    const now = ctx.now();
    const org = await organizationById(trx, project.id, input.organization_id);
    if (!org) return organizationMissing();
    if (!allowsAuthMethod(org, 'google_oauth')) {
      return fail('auth_method_not_allowed', 'This organization does not allow google sign-in.');
    }
    const joined = await joinOrganization(trx, project, org, identity, now);
    if (isFailure(joined)) return joined;
    const request = {
      pkce_challenge: input.pkce_code_challenge ?? null,
      organization_id: org.organization_id,
    };
    const token = await issueToken(
      ctx,
      trx,
      project,
      'google',
      identity,
      joined.member,
      request,
      now,
    );
    return { redirect_url: withToken(joined.created ? signup.url : login.url, 'oauth', token) };
  });
}

/** `onetap/discovery/submit`: hands the verified address to discovery. */
export async function submitOneTapDiscovery(
  ctx: Context,
  project: Project,
  input: {
    id_token: string;
    discovery_redirect_url?: string | undefined;
    pkce_code_challenge?: string | undefined;
  },
): Promise<{ redirect_url: string } | Failure> {
  const target = resolveRedirectUrl(project, 'discovery', input.discovery_redirect_url);
  if (!target.ok) return fail('invalid_redirect_url', target.message);
  if (project.pkceRequired.oauth && !input.pkce_code_challenge) return pkceRequired();
  const identity = await verifyCredential(ctx, project, input.id_token);
  if (isFailure(identity)) return identity;
  const now = ctx.now();
  const request = { pkce_challenge: input.pkce_code_challenge ?? null, organization_id: null };
  const token = await issueToken(ctx, ctx.db, project, 'google', identity, null, request, now);
  return { redirect_url: withToken(target.url, 'discovery_oauth', token) };
}
