/**
 * Test harness: a real server on a temp database (SQLite, or PostgreSQL by TEST_DATABASE_URL),
 * seeded, answering in-process through Fastify's `inject`, or on a real port (`listen: true`).
 */
import { randomBytes } from 'node:crypto';
import { createServer as createNetServer } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ErrorBody, FullSessionResult, Member, Organization } from '@gatehouse/protocol';
import {
  ENDPOINTS,
  type Endpoint,
  type ParamsOf,
  type RequestOf,
  type ResponseOf,
} from '@gatehouse/protocol/endpoints';
import type { FastifyInstance } from 'fastify';
import { createServer } from '../http/app.js';
import type { ServerConfig } from '../config.js';
import type { Admin } from '../products/management/admin.js';
import { openStore } from '../store/db.js';
import { harnessDatabase, storeSigningKey, testDatabase } from './database.js';
import type { Database } from '../store/schema.js';
import type { Kysely } from 'kysely';

/** The seeded project's credentials. */
export interface SeededProject {
  project_id: string;
  public_token: string;
  secret: string;
  secret_id: string;
}

/** Options of one request. */
export interface RequestOptions {
  method?: string;
  /** JSON-encoded unless `rawBody` is given. */
  body?: unknown;
  rawBody?: string;
  contentType?: string | null;
  /** The secret half of `Authorization`: a session token; defaults to the public token (anonymous). */
  token?: string;
  /** The public token to send; defaults to the seeded project's. */
  publicToken?: string;
  /** A whole `Authorization` header, or null for none. */
  authorization?: string | null;
  /** `Origin` header; defaults to `http://localhost:3000`; null for none. */
  origin?: string | null;
  headers?: Record<string, string>;
  /** Another instance to send it to (a sibling's URL); this harness's server by default. */
  baseUrl?: string;
}

/**
 * A parsed response to an untyped request (`request`, `sdk`): paths outside the endpoint table,
 * and bodies the table's types refuse. Read failures through `error`; anything else is `unknown`
 * until the test says what it expects.
 */
export interface TestResponse {
  status: number;
  headers: Headers;
  /** The parsed JSON, or undefined when the answer is not JSON. */
  body: unknown;
  text: string;
  /** The flat error body when the answer is a JSON failure (not 2xx); undefined otherwise. */
  error: ErrorBody | undefined;
}

/** What every answer to `call` carries, success or not. */
interface CallResponseBase {
  status: number;
  headers: Headers;
  text: string;
  /** The whole parsed JSON body (undefined when the answer is not JSON), for envelope checks. */
  body: unknown;
}

/**
 * The answer to a call of one endpoint: `data` typed from the entry on a 2xx, the flat error body
 * otherwise. `ok` discriminates; the absent side is `undefined` so that `res.error?.error_type`
 * reads without narrowing first.
 */
export type CallResponse<T> =
  | (CallResponseBase & { ok: true; data: T; error?: undefined })
  | (CallResponseBase & { ok: false; error: ErrorBody; data?: undefined });

/** The options of a request that a call leaves to the test: credentials, origin, headers. */
export type CallRequestOptions = Omit<RequestOptions, 'method' | 'body' | 'rawBody'>;

/**
 * Options of a call to an endpoint of the table: those of a request, minus what the entry decides
 * (method, path), plus `body` typed as the entry's request, required when it has one, and
 * `params` for its `:name` path segments. A deliberately invalid body goes through `sdk` or
 * `request` instead.
 */
export type CallOptions<E extends Endpoint> = CallRequestOptions &
  (RequestOf<E> extends undefined ? { body?: undefined } : { body: RequestOf<E> }) &
  (keyof ParamsOf<E['path']> extends never
    ? { params?: undefined }
    : { params: ParamsOf<E['path']> });

/** The options argument of `call`: optional when the endpoint needs neither a body nor params. */
export type CallArgs<E extends Endpoint> =
  Record<never, never> extends CallOptions<E>
    ? [options?: CallOptions<E>]
    : [options: CallOptions<E>];

/** Endpoints answering their result bare rather than in the `{data}` envelope (`rawRoute`). */
const BARE: ReadonlySet<Endpoint> = new Set<Endpoint>([
  ENDPOINTS.jwks,
  ENDPOINTS.jwksByProject,
  ENDPOINTS.openApi,
]);

/**
 * The data of a successful call; otherwise throws with the status and the answer's text, so a
 * failing test says what the server said.
 *
 * @example
 * const body = { organization_slug: 'acme' };
 * const data = expectOk(await h.call(ENDPOINTS.organizationsSearch, { body }));
 * expect(data.organization?.organization_name).toBe('Acme');
 */
export function expectOk<T>(res: CallResponse<T>): T {
  if (!res.ok) throw new Error(`expected success, got HTTP ${res.status}: ${res.text}`);
  return res.data;
}

/**
 * The data of a call that should have finished a sign-in (result F); throws on an error and on an
 * MFA-pending result (AM variant B), so the session's fields read without narrowing.
 *
 * @example
 * const session = expectSession(await h.call(ENDPOINTS.passwordsAuthenticate, { body }));
 * expect(session.member_session.roles).toContain('member');
 */
export function expectSession<T extends { member_authenticated: boolean }>(
  res: CallResponse<T>,
): Extract<T, { member_authenticated: true }> {
  const data = expectOk(res);
  if (!data.member_authenticated) throw new Error(`expected a session, got MFA: ${res.text}`);
  return data as Extract<T, { member_authenticated: true }>;
}

/**
 * The error body of a failed call; otherwise throws with the answer's text.
 *
 * @example
 * const error = expectError(await h.call(ENDPOINTS.sessionsRevoke));
 * expect(error.error_type).toBe('unauthorized_credentials');
 */
export function expectError(res: CallResponse<unknown>): ErrorBody {
  if (res.ok) throw new Error(`expected an error, got HTTP ${res.status}: ${res.text}`);
  return res.error;
}

/** Options of {@link startHarness}. */
export interface HarnessOptions {
  config?: ServerConfig;
  /**
   * Listen on a real loopback port, for tests whose requests must travel over a socket: `fetch`
   * or a browser client aimed at `url`, identity-provider stand-ins redirecting back to the
   * server, connection limits and timeouts, proxies, shutdown. Default false: requests of
   * `request`, `sdk` and `call` are answered in-process (`inject`), with the same headers.
   */
  listen?: boolean;
}

/** A running server for one test file. */
export interface Harness {
  app: FastifyInstance;
  /**
   * The server's public URL (`http://127.0.0.1:{port}`): what it puts in the links and URLs it
   * hands out. Only a harness started with `listen: true` answers on it from outside.
   */
  url: string;
  admin: Admin;
  dir: string;
  /** A second connection to the same database file, for assertions on stored state. */
  db: Kysely<Database>;
  project: SeededProject;
  org: Organization;
  member: Member;
  /** The test clock; `advance` moves it. */
  clock: { now: number; advance(ms: number): void };
  /** A request to any path of the server. */
  request(path: string, options?: RequestOptions): Promise<TestResponse>;
  /** A request to `/sdk/v1{path}`, POST by default. */
  sdk(path: string, options?: RequestOptions): Promise<TestResponse>;
  /**
   * A call of one endpoint of the table with its method and path (path parameters from
   * `params`), its credential by default (the secret key for the management API, nothing for
   * `none`, the public token otherwise; `token` for a session), a body of the entry's request
   * type, and an answer of its response type.
   */
  call<E extends Endpoint>(
    endpoint: E,
    ...options: CallArgs<E>
  ): Promise<CallResponse<ResponseOf<E>>>;
  /** The token in the newest e-mail to `to`. */
  lastToken(to: string): Promise<string>;
  /**
   * Starts another instance over the same database and configuration (public URL included), as a
   * second server behind the same load balancer; closed with the harness.
   */
  sibling(): Promise<{ app: FastifyInstance; url: string }>;
  /** The server key (hex) everything sealed at rest is sealed with. */
  serverKey: string;
  /** The `DATABASE_URL` of this harness's database (for the CLI). */
  databaseUrl: string;
  /** Signs `email` in to the seeded organization by magic link; returns result F's data. */
  login(email?: string): Promise<LoginResult>;
  /** Adds a member with `roles` to the seeded organization, or to `organizationId`. */
  addMember(email: string, roles?: string[], organizationId?: string): Promise<Member>;
  close(): Promise<void>;
}

/** What `login` returns: result F of a magic link (the seeded organization needs no MFA). */
export type LoginResult = FullSessionResult & { method_id: string };

/** Basic credentials as the SDK sends them. */
export function basic(user: string, secret: string): string {
  return `Basic ${Buffer.from(`${user}:${secret}`).toString('base64')}`;
}

/** The headers `fetch` sends unless told otherwise, sent by in-process requests too. */
const FETCH_HEADERS: Readonly<Record<string, string>> = {
  accept: '*/*',
  'accept-language': '*',
  'sec-fetch-mode': 'cors',
  'user-agent': 'node',
  'accept-encoding': 'gzip, deflate',
};

/** The statuses `fetch` follows. */
const REDIRECTS: ReadonlySet<number> = new Set([301, 302, 303, 307, 308]);

/** A port on 127.0.0.1 that the OS says is free now. */
async function freePort(): Promise<number> {
  const probe = createNetServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const address = probe.address();
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  if (address === null || typeof address === 'string') throw new Error('No free port');
  return address.port;
}

/**
 * Starts a server whose public URL is 127.0.0.1 with a port chosen at run time. With `listen`,
 * it listens there, so the URLs it hands out (SSO ACS and callback URLs) reach it; without, the
 * harness's requests are answered in-process and nothing else can reach it.
 *
 * @example
 * const h = await startHarness();
 * const res = await h.call(ENDPOINTS.organizationsSearch, { body: { organization_slug: 'acme' } });
 */
export async function startHarness(options: HarnessOptions = {}): Promise<Harness> {
  const dir = mkdtempSync(join(tmpdir(), 'gatehouse-test-'));
  // A test that names its own database gets a first start of its own, and no copy of a template.
  const database = options.config?.databaseUrl
    ? await testDatabase(dir)
    : await harnessDatabase(dir);
  const clock = {
    now: Date.now(),
    advance(ms: number) {
      clock.now += ms;
    },
  };
  const port = await freePort();
  const config: ServerConfig = {
    databaseUrl: database.url,
    publicUrl: `http://127.0.0.1:${port}`,
    serverKey: database.serverKey ?? randomBytes(32).toString('hex'),
    now: () => clock.now,
    // Tests read SMS codes from the dev inbox over HTTP; suites that test SMTP delivery pass
    // their own SMTP settings and get no inbox unless they ask.
    devInbox: !options.config?.smtp,
    // Generous limits so suites can sign in often; rate-limit tests pass their own.
    rateLimits: {
      sendsPerEmailPerHour: 1000,
      sendsPerIpPerHour: 10_000,
      searchesPerIpPerMinute: 10_000,
    },
    ...options.config,
  };
  // The test's own connection, opened first to store the signing key: one connection less.
  const inspector = openStore(database.url);
  if (config.databaseUrl === database.url && config.serverKey !== undefined) {
    await storeSigningKey(inspector.db, config.serverKey, clock.now);
  }
  const app = await createServer(config);
  let url = `http://127.0.0.1:${port}`;
  if (options.listen) url = await app.listen({ host: '127.0.0.1', port });
  else await app.ready();
  const siblings: FastifyInstance[] = [];
  /** The in-process servers by the origin they stand for: this one and its siblings. */
  const inProcess = new Map<string, FastifyInstance>();
  if (!options.listen) inProcess.set(url, app);
  const admin = app.gatehouse;
  const project = await admin.createProject({
    name: 'Acme Cloud',
    createOrganizationEnabled: true,
    redirectUrls: {
      login: ['http://localhost:3000/authenticate'],
      signup: ['http://localhost:3000/authenticate'],
      discovery: ['http://localhost:3000/discovery'],
      reset_password: ['http://localhost:3000/reset'],
    },
  });
  const org = await admin.createOrganization(project.project_id, {
    organization_name: 'Acme',
    organization_slug: 'acme',
    email_allowed_domains: ['acme.test'],
  });
  const member = await admin.createMember(project.project_id, org.organization_id, {
    email_address: 'ada@acme.test',
    name: 'Ada',
  });

  async function request(path: string, o: RequestOptions = {}): Promise<TestResponse> {
    const headers: Record<string, string> = { ...o.headers };
    const authorization =
      o.authorization === undefined
        ? basic(
            o.publicToken ?? project.public_token,
            o.token ?? o.publicToken ?? project.public_token,
          )
        : o.authorization;
    if (authorization !== null) headers.authorization = authorization;
    const origin = o.origin === undefined ? 'http://localhost:3000' : o.origin;
    if (origin !== null) headers.origin = origin;
    const contentType = o.contentType === undefined ? 'application/json' : o.contentType;
    if (contentType !== null) headers['content-type'] = contentType;
    const method = o.method ?? (o.body !== undefined || o.rawBody !== undefined ? 'POST' : 'GET');
    const body = o.rawBody ?? (o.body === undefined ? undefined : JSON.stringify(o.body));
    const res = await send(`${o.baseUrl ?? url}${path}`, method, headers, body);
    const text = await res.text();
    let parsed: unknown = undefined;
    if (res.headers.get('content-type')?.includes('application/json')) parsed = JSON.parse(text);
    const error = res.ok ? undefined : (parsed as ErrorBody | undefined);
    return { status: res.status, headers: res.headers, body: parsed, text, error };
  }

  /**
   * `fetch`, or for the in-process servers the same request through `inject`, with the headers
   * `fetch` adds, redirects followed as `fetch` follows them.
   */
  async function send(
    target: string,
    method: string,
    headers: Record<string, string>,
    body: string | undefined,
    redirects = 0,
  ): Promise<Response> {
    const parsed = new URL(target);
    const server = inProcess.get(parsed.origin);
    if (!server) {
      return fetch(target, { method, headers, ...(body === undefined ? {} : { body }) });
    }
    const res = await server.inject({
      method: method as 'GET',
      url: `${parsed.pathname}${parsed.search}`,
      headers: { ...FETCH_HEADERS, ...headers, host: parsed.host },
      remoteAddress: '127.0.0.1',
      ...(body === undefined ? {} : { payload: body }),
    });
    const answer = new Headers();
    for (const [name, value] of Object.entries(res.headers)) {
      if (value === undefined) continue;
      for (const one of [value].flat()) answer.append(name, String(one));
    }
    const location = answer.get('location');
    if (REDIRECTS.has(res.statusCode) && location !== null) {
      if (redirects >= 20) throw new TypeError('fetch failed: redirect count exceeded');
      const next = new URL(location, target);
      // As fetch does: 303, and 301/302 after a POST, go on as a GET without a body.
      const asGet =
        res.statusCode === 303 ||
        ((res.statusCode === 301 || res.statusCode === 302) && method === 'POST');
      const nextHeaders = { ...headers };
      if (asGet) delete nextHeaders['content-type'];
      if (next.origin !== parsed.origin) delete nextHeaders.authorization;
      return send(
        next.toString(),
        asGet ? 'GET' : method,
        nextHeaders,
        asGet ? undefined : body,
        redirects + 1,
      );
    }
    const bodyless = res.statusCode === 204 || res.statusCode === 304 || method === 'HEAD';
    return new Response(bodyless ? null : new Uint8Array(res.rawPayload), {
      status: res.statusCode,
      statusText: res.statusMessage,
      headers: answer,
    });
  }

  async function call<E extends Endpoint>(
    endpoint: E,
    ...[options]: CallArgs<E>
  ): Promise<CallResponse<ResponseOf<E>>> {
    // The conditional option types do not narrow inside a generic body; read them as a request's.
    const { params, ...o } = (options ?? {}) as RequestOptions & {
      params?: Record<string, string>;
    };
    const path = endpoint.path.replace(/:([A-Za-z_]+)/g, (_, name: string) => {
      const value = params?.[name];
      if (value === undefined) throw new Error(`${endpoint.path}: no value for :${name}`);
      return encodeURIComponent(value);
    });
    const credential: RequestOptions =
      endpoint.credential === 'secret'
        ? // Host backends call the management API server to server: no Origin.
          { authorization: basic(project.project_id, project.secret), origin: null }
        : endpoint.credential === 'none'
          ? { authorization: null }
          : {};
    const res = await request(path, { ...credential, ...o, method: endpoint.method });
    const base = {
      status: res.status,
      headers: res.headers,
      text: res.text,
      body: res.body,
    };
    if (res.status >= 200 && res.status < 300) {
      // The management API answers flat; the browser API inside `{data}`.
      const flat = BARE.has(endpoint) || endpoint.credential === 'secret';
      const data = (flat ? res.body : (res.body as { data: unknown }).data) as ResponseOf<E>;
      return { ...base, ok: true, data };
    }
    if (res.error === undefined) {
      throw new Error(`${endpoint.path}: HTTP ${res.status} without a JSON body: ${res.text}`);
    }
    return { ...base, ok: false, error: res.error };
  }

  const harness: Harness = {
    app,
    url,
    admin,
    dir,
    db: inspector.db,
    project,
    org,
    member,
    clock,
    request,
    sdk: (path, o = {}) => request(`/sdk/v1${path}`, { method: 'POST', ...o }),
    call,
    async lastToken(to) {
      const message = (await admin.listOutbox({ limit: 50 })).find((m) => m.to === to);
      const link = message?.links[0];
      if (!link) throw new Error(`No e-mail to ${to}`);
      const token = new URL(link).searchParams.get('token');
      if (!token) throw new Error(`No token in ${link}`);
      return token;
    },
    async login(email = 'ada@acme.test') {
      const sent = await call(ENDPOINTS.magicLinksLoginOrSignup, {
        body: { email_address: email, organization_id: org.organization_id },
      });
      if (sent.status !== 200) throw new Error(`send failed: ${sent.text}`);
      const res = await call(ENDPOINTS.magicLinksAuthenticate, {
        body: { magic_links_token: await harness.lastToken(email), session_duration_minutes: 60 },
      });
      if (res.status !== 200 || !res.ok) throw new Error(`authenticate failed: ${res.text}`);
      if (!res.data.member_authenticated) throw new Error(`MFA required: ${res.text}`);
      return res.data;
    },
    async addMember(email, roles, organizationId = org.organization_id) {
      return admin.createMember(project.project_id, organizationId, {
        email_address: email,
        ...(roles ? { roles } : {}),
      });
    },
    serverKey: config.serverKey ?? '',
    databaseUrl: database.url,
    async sibling() {
      const other = await createServer(config);
      siblings.push(other);
      if (options.listen) {
        return { app: other, url: await other.listen({ host: '127.0.0.1', port: 0 }) };
      }
      await other.ready();
      const otherUrl = `http://127.0.0.1:${await freePort()}`;
      inProcess.set(otherUrl, other);
      return { app: other, url: otherUrl };
    },
    async close() {
      await inspector.close();
      for (const other of siblings) await other.close();
      await app.close();
      await database.drop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
  return harness;
}
