/**
 * An OpenID provider for tests, built on oidc-provider and started in-process on a loopback port:
 * the authorization-code flow (PKCE supported), ID tokens signed with its own RSA key, a login
 * form a browser fills in, and consent granted automatically. Clients can be added after start,
 * once the relying party knows its redirect URL.
 *
 * Claims: `email`, `email_verified`, `name`, `given_name`, `family_name` and `groups`; with the
 * scope `departments` (asked for by a relying party's custom scopes), `departments`, a user's own
 * claim of that name (given through its `claims`).
 *
 * With a `tenantId` it stands in for Microsoft's multi-tenant endpoints: tokens come from the
 * tenant issuer `{origin}/{tenantId}/v2.0` and carry `tid`, while the discovery document at
 * `{origin}/common/v2.0/.well-known/openid-configuration` names the issuer
 * `{origin}/{tenantid}/v2.0`, as Microsoft's `common` document does. A user with a `tenant` of
 * its own belongs to that other directory: its tokens come from that tenant's issuer. Microsoft's
 * `xms_edov` (the tenant verified the address's domain) is given through a user's `claims`.
 */
import { generateKeyPairSync } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { decodeJwt, SignJWT } from 'jose';
import Provider, { type Adapter, type AdapterPayload, type Configuration } from 'oidc-provider';

export interface OidcUser {
  password: string;
  name?: string;
  /** Defaults to true. */
  emailVerified?: boolean;
  groups?: string[];
  /** More claims for the ID token, e.g. Google's `hd` or Microsoft's `xms_edov`. */
  claims?: Record<string, unknown>;
  /**
   * With a `tenantId`: the user's home tenant when it is another one. Its ID tokens name that
   * tenant (`tid`) and come from that tenant's issuer, signed with the same keys, as Microsoft's
   * `common` endpoints do for a user of any directory.
   */
  tenant?: string;
}

export interface OidcIdp {
  /**
   * What a relying party is configured with: the issuer, or with a tenant the `common` discovery
   * document's URL.
   */
  issuer: string;
  /** The issuer its tokens name (the tenant's, with a tenant). */
  tokenIssuer: string;
  users: Map<string, OidcUser>;
  addClient(client: { clientId: string; clientSecret: string; redirectUris: string[] }): void;
  /**
   * Signs an ID token outside any flow, as the provider would hand one to One Tap: `iss`, `iat`
   * and `exp` (one hour, or `expiresIn` seconds, negative for one already expired) are filled in.
   * `withUnknownKey` signs with a key the provider does not publish.
   */
  signIdToken(
    claims: Record<string, unknown>,
    options?: { expiresIn?: number; withUnknownKey?: boolean },
  ): Promise<string>;
  close(): Promise<void>;
}

type Stored = { payload: AdapterPayload; expiresAt: number | null };

/**
 * Keeps oidc-provider's models in memory, one store per provider (its own memory adapter is
 * shared by every provider in the process); clients come from the `clients` map.
 */
function memoryAdapter(clients: Map<string, AdapterPayload>) {
  const store = new Map<string, Stored>();
  const live = (key: string) => {
    const entry = store.get(key);
    if (!entry) return undefined;
    if (entry.expiresAt !== null && entry.expiresAt < Date.now()) {
      store.delete(key);
      return undefined;
    }
    return entry.payload;
  };
  return class MemoryAdapter implements Adapter {
    constructor(readonly name: string) {}

    #key(id: string) {
      return `${this.name}:${id}`;
    }

    async upsert(id: string, payload: AdapterPayload, expiresIn: number): Promise<void> {
      store.set(this.#key(id), {
        payload,
        expiresAt: expiresIn ? Date.now() + expiresIn * 1000 : null,
      });
    }

    async find(id: string): Promise<AdapterPayload | undefined> {
      if (this.name === 'Client') return clients.get(id);
      return live(this.#key(id));
    }

    async findByUserCode(userCode: string): Promise<AdapterPayload | undefined> {
      for (const [key, entry] of store) {
        if (key.startsWith(`${this.name}:`) && entry.payload.userCode === userCode) {
          return entry.payload;
        }
      }
      return undefined;
    }

    async findByUid(uid: string): Promise<AdapterPayload | undefined> {
      for (const [key, entry] of store) {
        if (key.startsWith(`${this.name}:`) && entry.payload.uid === uid) return entry.payload;
      }
      return undefined;
    }

    async consume(id: string): Promise<void> {
      const payload = live(this.#key(id));
      if (payload) payload.consumed = Math.floor(Date.now() / 1000);
    }

    async destroy(id: string): Promise<void> {
      store.delete(this.#key(id));
    }

    async revokeByGrantId(grantId: string): Promise<void> {
      for (const [key, entry] of store) {
        if (entry.payload.grantId === grantId) store.delete(key);
      }
    }
  };
}

function escapeHtml(text: string): string {
  return text.replace(/[<>&"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

function loginPage(uid: string, error = ''): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Test OpenID provider</title></head><body>
<h1>Test OpenID provider</h1>
${error ? `<p role="alert">${escapeHtml(error)}</p>` : ''}
<form method="post" action="/interaction/${escapeHtml(uid)}/login">
<label>Email <input name="email" type="email" autocomplete="username"></label>
<label>Password <input name="password" type="password" autocomplete="current-password"></label>
<button type="submit">Sign in</button>
</form></body></html>`;
}

async function readForm(request: IncomingMessage): Promise<URLSearchParams> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
}

function sendHtml(response: ServerResponse, html: string): void {
  response.writeHead(200, {
    'content-type': 'text/html; charset=utf-8',
    'cache-control': 'no-store',
  });
  response.end(html);
}

/**
 * Starts the provider on 127.0.0.1 with a port chosen by the OS; its issuer is that origin.
 *
 * @example
 * const idp = await startOidcIdp();
 * idp.addClient({ clientId: 'app', clientSecret: 's3cret', redirectUris: [callbackUrl] });
 * idp.users.set('ada@acme.test', { password: 'pw', name: 'Ada' });
 */
export async function startOidcIdp(options: { tenantId?: string } = {}): Promise<OidcIdp> {
  const users = new Map<string, OidcUser>();
  const clients = new Map<string, AdapterPayload>();
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const { tenantId } = options;
  // With a tenant, the provider lives under the tenant's path, as Microsoft's do.
  const mountPath = tenantId ? `/${tenantId}/v2.0` : '';
  const issuer = `${origin}${mountPath}`;
  const commonDiscovery = `${origin}/common/v2.0/.well-known/openid-configuration`;

  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const jwk = {
    ...privateKey.export({ format: 'jwk' }),
    kid: 'test-signing-key',
    use: 'sig',
    alg: 'RS256',
  };

  const configuration: Configuration = {
    adapter: memoryAdapter(clients),
    jwks: { keys: [jwk] },
    cookies: { keys: ['test-provider-cookie-key'] },
    claims: {
      openid: ['sub', 'tid'],
      email: ['email', 'email_verified', 'hd', 'xms_edov'],
      profile: ['name', 'given_name', 'family_name', 'groups', 'picture', 'locale'],
      departments: ['departments'],
    },
    // Like Google, put the profile claims in the ID token itself (not only at userinfo).
    conformIdTokenClaims: false,
    features: { devInteractions: { enabled: false } },
    interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
    pkce: { required: () => false },
    ttl: {
      Interaction: 600,
      Session: 600,
      Grant: 600,
      AccessToken: 600,
      IdToken: 600,
      AuthorizationCode: 60,
    },
    // Consent is given by the organization, not by each person: every scope asked for is granted.
    async loadExistingGrant(ctx) {
      const accountId = ctx.oidc.session?.accountId;
      const clientId = ctx.oidc.client?.clientId;
      if (!accountId || !clientId) return undefined;
      const grant = new ctx.oidc.provider.Grant({ accountId, clientId });
      const scope = ctx.oidc.params?.scope;
      const asked = typeof scope === 'string' ? scope.split(' ') : [];
      grant.addOIDCScope(
        [
          'openid',
          'email',
          'profile',
          ...(asked.includes('departments') ? ['departments'] : []),
        ].join(' '),
      );
      grant.addOIDCClaims([
        'tid',
        'email',
        'email_verified',
        'hd',
        'xms_edov',
        'name',
        'given_name',
        'family_name',
        'groups',
        'departments',
      ]);
      await grant.save();
      return grant;
    },
    async findAccount(_ctx, id) {
      const user = users.get(id);
      if (!user) return undefined;
      const [given, ...family] = (user.name ?? '').split(' ');
      return {
        accountId: id,
        async claims() {
          return {
            sub: id,
            email: id,
            email_verified: user.emailVerified ?? true,
            name: user.name ?? '',
            given_name: given ?? '',
            family_name: family.join(' '),
            groups: user.groups ?? [],
            ...(tenantId ? { tid: tenantId } : {}),
            ...user.claims,
          };
        },
      };
    },
  };
  const provider = new Provider(issuer, configuration);
  const handle = provider.callback();

  /** The `common` document: the tenant's, naming the issuer with the tenant as a placeholder. */
  const serveCommonDiscovery = async (response: ServerResponse) => {
    const document = (await (
      await fetch(`${issuer}/.well-known/openid-configuration`)
    ).json()) as Record<string, unknown>;
    document.issuer = `${origin}/{tenantid}/v2.0`;
    // Microsoft names no issuer in its authorization responses (RFC 9207): the ID token does.
    delete document.authorization_response_iss_parameter_supported;
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end(JSON.stringify(document));
  };

  /**
   * The token response of a user from another tenant: its ID token re-issued by that tenant's
   * issuer (same keys, same claims otherwise), as the `common` endpoint answers for any directory.
   */
  const asHomeTenant = async (body: string): Promise<string> => {
    const parsed = JSON.parse(body) as Record<string, unknown>;
    if (typeof parsed.id_token !== 'string') return body;
    const payload = decodeJwt(parsed.id_token);
    const home = users.get(String(payload.sub))?.tenant;
    if (!home || home === tenantId) return body;
    parsed.id_token = await new SignJWT({ ...payload, iss: `${origin}/${home}/v2.0`, tid: home })
      .setProtectedHeader({ alg: 'RS256', kid: jwk.kid, typ: 'JWT' })
      .sign(privateKey);
    return JSON.stringify(parsed);
  };
  const answerAsHomeTenant = (response: ServerResponse) => {
    const end = response.end.bind(response) as (body?: string | Buffer) => ServerResponse;
    response.end = ((chunk?: unknown) => {
      if (typeof chunk !== 'string' && !Buffer.isBuffer(chunk)) return end();
      void asHomeTenant(Buffer.from(chunk).toString('utf8'))
        .catch(() => Buffer.from(chunk).toString('utf8'))
        .then((body) => {
          if (!response.headersSent) response.setHeader('content-length', Buffer.byteLength(body));
          end(body);
        });
      return response;
    }) as ServerResponse['end'];
  };

  /** Leaves `iss` out of the redirects back to the client, as Microsoft's endpoints do. */
  const withoutResponseIssuer = (response: ServerResponse) => {
    const setHeader = response.setHeader.bind(response);
    response.setHeader = (name: string, value: number | string | readonly string[]) => {
      if (name.toLowerCase() === 'location' && typeof value === 'string') {
        const target = new URL(value, origin);
        if (target.searchParams.has('code')) {
          target.searchParams.delete('iss');
          return setHeader(name, target.href);
        }
      }
      return setHeader(name, value);
    };
  };

  server.on('request', (request: IncomingMessage, response: ServerResponse) => {
    const url = new URL(request.url ?? '/', origin);
    if (tenantId && request.method === 'POST' && url.pathname === `${mountPath}/token`) {
      answerAsHomeTenant(response);
    }
    if (tenantId) withoutResponseIssuer(response);
    if (tenantId && url.href === commonDiscovery) {
      void serveCommonDiscovery(response);
      return;
    }
    const match = /^\/interaction\/([^/]+)(\/login)?$/.exec(url.pathname);
    if (!match) {
      if (mountPath && !url.pathname.startsWith(`${mountPath}/`)) {
        response.writeHead(404).end();
        return;
      }
      // Mounted under a path, as a framework would: the provider sees the rest of the URL.
      if (mountPath) {
        Object.assign(request, { originalUrl: request.url });
        request.url = (request.url ?? '/').slice(mountPath.length);
      }
      void handle(request, response);
      return;
    }
    void (async () => {
      const uid = match[1] ?? '';
      await provider.interactionDetails(request, response);
      if (request.method === 'GET' && !match[2]) return sendHtml(response, loginPage(uid));
      if (request.method !== 'POST' || !match[2]) {
        response.writeHead(405).end();
        return;
      }
      const form = await readForm(request);
      const email = (form.get('email') ?? '').trim().toLowerCase();
      const user = users.get(email);
      if (!user || user.password !== form.get('password')) {
        return sendHtml(response, loginPage(uid, 'Wrong email or password'));
      }
      await provider.interactionFinished(
        request,
        response,
        { login: { accountId: email } },
        { mergeWithLastSubmission: false },
      );
    })().catch((error: unknown) => {
      response.writeHead(400, { 'content-type': 'text/plain' });
      response.end(error instanceof Error ? error.message : 'Bad request');
    });
  });

  return {
    issuer: tenantId ? commonDiscovery : issuer,
    tokenIssuer: issuer,
    users,
    addClient({ clientId, clientSecret, redirectUris }) {
      clients.set(clientId, {
        client_id: clientId,
        client_secret: clientSecret,
        redirect_uris: redirectUris,
        grant_types: ['authorization_code'],
        response_types: ['code'],
        token_endpoint_auth_method: 'client_secret_basic',
      });
    },
    async signIdToken(claims, { expiresIn = 3600, withUnknownKey = false } = {}) {
      const now = Math.floor(Date.now() / 1000);
      const key = withUnknownKey
        ? generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey
        : privateKey;
      return new SignJWT({ iss: issuer, iat: now, exp: now + expiresIn, ...claims })
        .setProtectedHeader({ alg: 'RS256', kid: jwk.kid, typ: 'JWT' })
        .sign(key);
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
