/** Test helpers of the SSO suites: connections set up in the store, and the flow's HTTP steps. */
import { inflateRawSync } from 'node:zlib';
import {
  DEFAULT_OIDC_ATTRIBUTE_MAPPING,
  DEFAULT_SAML_ATTRIBUTE_MAPPING,
  type GroupRoleAssignment,
} from '@gatehouse/protocol';
import type { OidcIdp } from '@gatehouse/testing/idp';
import { discoverProvider } from '../auth/federated/oidc-discovery.js';
import { isoAt } from '../context.js';
import type { OidcSettings, SamlSettings } from '../products/sso/connections.js';
import { parseCertificate, ssoUrls } from '../products/sso/connections.js';
import {
  insertCertificate,
  insertConnection,
  refreshOrganizationConnections,
} from '../products/sso/store.js';
import { parseServerKey, SecretBox } from '../crypto/secret-box.js';
import { isFailure } from '../result.js';
import type { Harness } from './harness.js';

/** What the suites need to know of a connection they made. */
export interface TestConnection {
  connectionId: string;
  entityId: string;
  acsUrl: string;
}

let counter = 0;

/** Adds an active SAML connection straight to the store (the management API has its own suite). */
export async function addSamlConnection(
  h: Harness,
  input: {
    organizationId?: string;
    idpEntityId: string;
    idpSsoUrl: string;
    certificates: string[];
    groupRoles?: GroupRoleAssignment[];
    /** Role ids of everyone who signs in through the connection. */
    connectionRoles?: string[];
    allowIdpInitiated?: boolean;
    /** Off: only its test sign-in works (on by default). */
    signInEnabled?: boolean;
    displayName?: string;
  },
): Promise<TestConnection> {
  const now = h.clock.now;
  const organizationId = input.organizationId ?? h.org.organization_id;
  const connectionId = `saml-connection-test-${process.pid}-${(counter += 1)}`;
  const settings: SamlSettings = {
    idp_entity_id: input.idpEntityId,
    idp_sso_url: input.idpSsoUrl,
    attribute_mapping: DEFAULT_SAML_ATTRIBUTE_MAPPING,
    group_roles: input.groupRoles ?? [],
    connection_roles: (input.connectionRoles ?? []).map((role_id) => ({ role_id })),
    allow_idp_initiated: input.allowIdpInitiated ?? false,
    sign_in_enabled: input.signInEnabled ?? true,
  };
  await insertConnection(h.db, {
    id: connectionId,
    project_id: h.project.project_id,
    organization_id: organizationId,
    kind: 'saml',
    display_name: input.displayName ?? 'Test IdP',
    identity_provider: 'generic',
    status: 'active',
    settings: JSON.stringify(settings),
    secret_encrypted: null,
    created_at: isoAt(now),
    updated_at: isoAt(now),
  });
  for (const [i, pem] of input.certificates.entries()) {
    await addCertificate(h, connectionId, pem, `${connectionId}-cert-${i}`);
  }
  await refreshOrganizationConnections(h.db, h.project.project_id, organizationId, now);
  const urls = ssoUrls(h.url);
  return {
    connectionId,
    entityId: urls.samlEntityId(connectionId),
    acsUrl: urls.samlAcsUrl(connectionId),
  };
}

/** Adds a verification certificate to a connection. */
export async function addCertificate(
  h: Harness,
  connectionId: string,
  pem: string,
  id: string,
): Promise<void> {
  const cert = parseCertificate(pem);
  if (!cert) throw new Error('not a certificate');
  await insertCertificate(h.db, {
    id,
    connection_id: connectionId,
    certificate: cert.pem,
    issuer: cert.issuer,
    expires_at: cert.expiresAt.toISOString(),
    created_at: isoAt(h.clock.now),
  });
}

/** Adds an active OIDC connection straight to the store, its secret sealed with the server key. */
export async function addOidcConnection(
  h: Harness,
  input: { settings: OidcSettings; clientSecret: string; organizationId?: string },
): Promise<string> {
  const now = h.clock.now;
  const organizationId = input.organizationId ?? h.org.organization_id;
  const connectionId = `oidc-connection-test-${process.pid}-${(counter += 1)}`;
  await insertConnection(h.db, {
    id: connectionId,
    project_id: h.project.project_id,
    organization_id: organizationId,
    kind: 'oidc',
    display_name: 'Test OIDC',
    identity_provider: 'generic',
    status: 'active',
    settings: JSON.stringify(input.settings),
    secret_encrypted: new SecretBox(parseServerKey(h.serverKey)).seal(input.clientSecret),
    created_at: isoAt(now),
    updated_at: isoAt(now),
  });
  await refreshOrganizationConnections(h.db, h.project.project_id, organizationId, now);
  return connectionId;
}

/**
 * Registers `client` at the OpenID provider with the server's callback, and adds an OIDC
 * connection to the seeded organization with the endpoints the provider's discovery document
 * names; answers the connection's id and the callback URL.
 */
export async function addDiscoveredOidcConnection(
  h: Harness,
  idp: OidcIdp,
  client: { clientId: string; clientSecret: string },
): Promise<{ connectionId: string; callbackUrl: string }> {
  const callbackUrl = ssoUrls(h.url).oidcRedirectUrl();
  idp.addClient({ ...client, redirectUris: [callbackUrl] });
  const config = await discoverProvider(idp.issuer, client.clientId, client.clientSecret);
  if (isFailure(config)) throw new Error(config.message);
  const metadata = config.serverMetadata();
  const connectionId = await addOidcConnection(h, {
    clientSecret: client.clientSecret,
    settings: {
      issuer: idp.issuer,
      client_id: client.clientId,
      authorization_url: metadata.authorization_endpoint ?? '',
      token_url: metadata.token_endpoint ?? '',
      userinfo_url: metadata.userinfo_endpoint ?? '',
      jwks_url: metadata.jwks_uri ?? '',
      custom_scopes: '',
      attribute_mapping: DEFAULT_OIDC_ATTRIBUTE_MAPPING,
      group_roles: [],
      sign_in_enabled: true,
    },
  });
  return { connectionId, callbackUrl };
}

/** The start URL of §8 for one of the harness project's connections. */
export function startUrl(
  h: Harness,
  connectionId: string,
  extra: Record<string, string> = {},
): string {
  const query = new URLSearchParams({
    public_token: h.project.public_token,
    connection_id: connectionId,
    ...extra,
  });
  return `${h.url}/v1/public/sso/start?${query.toString()}`;
}

/** Follows nothing: the status, Location and body of one navigation. */
export async function navigate(
  url: string,
  init: RequestInit = {},
): Promise<{ status: number; location: string | null; text: string; type: string }> {
  const res = await fetch(url, { redirect: 'manual', ...init });
  return {
    status: res.status,
    location: res.headers.get('location'),
    text: await res.text(),
    type: res.headers.get('content-type') ?? '',
  };
}

/** The ID of the AuthnRequest deflated into an HTTP-Redirect binding URL. */
export function authnRequestId(location: string): string {
  const encoded = new URL(location).searchParams.get('SAMLRequest');
  if (!encoded) throw new Error(`No SAMLRequest in ${location}`);
  const xml = inflateRawSync(Buffer.from(encoded, 'base64')).toString('utf8');
  const id = /\sID="([^"]+)"/.exec(xml)?.[1];
  if (!id) throw new Error(`No ID in ${xml}`);
  return id;
}

/** Posts a SAMLResponse to an ACS URL as an IdP's auto-submitting form would. */
export function postToAcs(acsUrl: string, samlResponse: string, relayState = '') {
  return navigate(acsUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ SAMLResponse: samlResponse, RelayState: relayState }).toString(),
  });
}

/** The `sso` token of a redirect back to the app. */
export function ssoTokenOf(location: string | null): string {
  if (!location) throw new Error('no redirect');
  const url = new URL(location);
  if (url.searchParams.get('stytch_token_type') !== 'sso')
    throw new Error(`not an sso redirect: ${location}`);
  const token = url.searchParams.get('token');
  if (!token) throw new Error(`no token in ${location}`);
  return token;
}

/** Cookies of one browser session, kept by hand across `fetch` calls. */
class CookieJar {
  readonly #cookies = new Map<string, string>();

  header(): string {
    return [...this.#cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  }

  keep(res: Response): void {
    for (const line of res.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const at = pair?.indexOf('=') ?? -1;
      if (pair && at > 0) this.#cookies.set(pair.slice(0, at).trim(), pair.slice(at + 1).trim());
    }
  }
}

/**
 * A browser's cookies for our server across navigations: sign-ins that start here must return to
 * the browser that started them.
 *
 * @example
 * const browser = new TestBrowser();
 * const start = await browser.navigate(startUrl);
 */
export class TestBrowser {
  readonly #jar = new CookieJar();

  async navigate(url: string, init: RequestInit = {}): ReturnType<typeof navigate> {
    const cookie = this.#jar.header();
    const res = await fetch(url, {
      redirect: 'manual',
      ...init,
      headers: { ...(cookie ? { cookie } : {}), ...(init.headers as Record<string, string>) },
    });
    this.#jar.keep(res);
    return {
      status: res.status,
      location: res.headers.get('location'),
      text: await res.text(),
      type: res.headers.get('content-type') ?? '',
    };
  }

  /** Posts a SAMLResponse to an ACS URL from this browser, as an IdP's auto-submitting form would. */
  postToAcs(acsUrl: string, samlResponse: string, relayState = ''): ReturnType<typeof navigate> {
    return this.navigate(acsUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ SAMLResponse: samlResponse, RelayState: relayState }).toString(),
    });
  }
}

/**
 * Goes through an identity provider's login like a browser without scripts: follows redirects,
 * fills the first form it meets with `email` and `password` and submits it, and stops at the
 * first redirect to `stopAt` (our callback), which it returns without requesting it. Returns the
 * last page instead when no such redirect comes (a refused login).
 */
export async function signInAtIdp(
  url: string,
  stopAt: string,
  credentials: { email: string; password: string },
): Promise<{ callback: string | null; page: string }> {
  const jar = new CookieJar();
  let next: { url: string; init: RequestInit } = { url, init: {} };
  let submitted = false;
  for (let hop = 0; hop < 20; hop += 1) {
    const res = await fetch(next.url, {
      ...next.init,
      redirect: 'manual',
      headers: { ...(next.init.headers as Record<string, string>), cookie: jar.header() },
    });
    jar.keep(res);
    const location = res.headers.get('location');
    if (location) {
      const target = new URL(location, next.url).href;
      if (target.startsWith(stopAt)) return { callback: target, page: '' };
      next = { url: target, init: {} };
      continue;
    }
    const page = await res.text();
    const action = /<form[^>]*action="([^"]*)"/i.exec(page)?.[1];
    if (submitted || action === undefined) return { callback: null, page };
    const fields = new URLSearchParams();
    for (const match of page.matchAll(/<input[^>]*name="([^"]+)"[^>]*>/gi)) {
      const name = match[1] ?? '';
      const value = /value="([^"]*)"/i.exec(match[0])?.[1] ?? '';
      fields.set(
        name,
        name === 'email' ? credentials.email : name === 'password' ? credentials.password : value,
      );
    }
    submitted = true;
    next = {
      url: new URL(action.replace(/&amp;/g, '&'), next.url).href,
      init: {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: fields.toString(),
      },
    };
  }
  throw new Error('Too many redirects at the identity provider');
}
