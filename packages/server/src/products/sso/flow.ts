/**
 * The start of an SSO sign-in (docs/protocol.md §8) and what its returns share: each
 * connection's SAML service provider or OIDC client configuration, and the check that a return
 * came to the browser that started. The SAML ACS is in acs.ts, the OIDC callback in
 * oidc-callback.ts, the member and the `sso` token in sign-in.ts.
 */
import { randomUUID } from 'node:crypto';
import { FEDERATED_TOKEN_MINUTES } from '@gatehouse/protocol';
import type * as oidc from 'openid-client';
import {
  beginAuthorization,
  cachedConfiguration,
  completeAuthorization,
  type CompletedAuthorization,
} from '../../auth/federated/oidc-client.js';
import { discoverProvider } from '../../auth/federated/oidc-discovery.js';
import { isoAt, type Context } from '../../context.js';
import { hashToken, safeEqual } from '../../crypto/random.js';
import { fail, isFailure, type Failure } from '../../result.js';
import type { SsoConnectionsTable, SsoRequestsTable } from '../../store/schema.js';
import { allowsAuthMethod } from '../../tenancy/organizations/service.js';
import { organizationById } from '../../tenancy/organizations/store.js';
import { resolveRedirectUrl } from '../../tenancy/projects/policy.js';
import type { Project } from '../../tenancy/projects/service.js';
import {
  oidcSettings,
  samlSettings,
  ssoUrls,
  usableForSignIn,
  type SsoUrls,
} from './connections.js';
import {
  badPkceChallenge,
  connectionDisabled,
  connectionInactive,
  connectionNotFound,
  connectionOrganizationGone,
  pkceRequired,
  ssoNotAllowed,
} from './errors.js';
import { scopesOf } from './oidc-mapping.js';
import { authnRequestUrl, serviceProviderMetadata } from './saml.js';
import { certificateRowsOf, connectionRow, connectionRowById, insertRequest } from './store.js';

const TOKEN_LIFETIME_MS = FEDERATED_TOKEN_MINUTES * 60_000;

/** The query of `GET /v1/public/sso/start`, form-decoded. */
export interface SsoStartQuery {
  connection_id: string;
  pkce_code_challenge?: string | undefined;
  login_redirect_url?: string | undefined;
  signup_redirect_url?: string | undefined;
}

export function urlsOf(ctx: Context): SsoUrls {
  return ssoUrls(ctx.config.publicUrl);
}

export async function samlProvider(ctx: Context, row: SsoConnectionsTable) {
  const urls = urlsOf(ctx);
  const certificates = await certificateRowsOf(ctx.db, [row.id]);
  return {
    entityId: urls.samlEntityId(row.id),
    acsUrl: urls.samlAcsUrl(row.id),
    settings: samlSettings(row),
    certificates: certificates.map((c) => c.certificate),
  };
}

/** A connection's OIDC client configuration, read once per version of the connection. */
export function oidcProvider(
  ctx: Context,
  row: SsoConnectionsTable,
): Promise<oidc.Configuration | Failure> {
  const settings = oidcSettings(row);
  const secret = row.secret_encrypted === null ? '' : ctx.box.open(row.secret_encrypted);
  return cachedConfiguration(`sso:${row.id}`, row.updated_at, () =>
    discoverProvider(settings.issuer, settings.client_id, secret),
  );
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
  if (!usableForSignIn(row)) return connectionDisabled();
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
  const started = await beginAuthorization(config, {
    redirectUri: urlsOf(ctx).oidcRedirectUrl(),
    scopes: scopesOf(oidcSettings(row)),
  });
  await insertRequest(ctx.db, {
    ...request,
    state_hash: hashToken(started.state),
    nonce: started.nonce,
    code_verifier_encrypted: ctx.box.seal(started.codeVerifier),
  });
  return { location: started.location };
}

/**
 * Exchanges the code of an OIDC callback with the request's PKCE verifier and checks the ID
 * token, with the one OIDC client of federated sign-in; null when the answer has no ID token.
 *
 * @throws when the provider's answer fails a check (see `reasonOf`).
 */
export function exchangeCallback(
  ctx: Context,
  config: oidc.Configuration,
  request: Pick<SsoRequestsTable, 'code_verifier_encrypted' | 'nonce'>,
  callbackQuery: URLSearchParams,
): Promise<CompletedAuthorization | null> {
  const callbackUrl = new URL(urlsOf(ctx).oidcRedirectUrl());
  callbackUrl.search = callbackQuery.toString();
  return completeAuthorization(config, callbackUrl, {
    pkceCodeVerifier: ctx.box.open(request.code_verifier_encrypted ?? ''),
    expectedState: callbackQuery.get('state') ?? '',
    expectedNonce: request.nonce ?? '',
  });
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
export function sameBrowser(
  request: Pick<SsoRequestsTable, 'browser_hash'>,
  browser: string | null,
): boolean {
  return (
    browser !== null &&
    typeof request.browser_hash === 'string' &&
    safeEqual(request.browser_hash, hashToken(browser))
  );
}

/** Where the browser goes when an IdP sign-in succeeded. */
export interface SsoRedirect {
  location: string;
}
