// Property-based fuzzing of every endpoint of the table (SDK, management, navigations): malformed
// bodies, content types, credentials, methods, path parameters and query strings must never answer
// a 5xx, every 4xx must carry the error body (an HTML error page for navigations), the server must
// stay up, and the data seeded beforehand must be unchanged. FUZZ_RUNS raises the runs per endpoint
// (`npm run fuzz`); FUZZ_SEED replays a failure.
import { request as httpRequest } from 'node:http';
import { ENDPOINTS, projectSettingsFields, type Endpoint } from '@gatehouse/protocol/endpoints';
import fc from 'fast-check';
import { z } from 'zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { basic, expectOk, expectSession, startHarness, type Harness } from './test/harness.js';
import { magicLogin, mfaOrganization } from './test/mfa.js';

/** Runs per endpoint: few in CI, many under `npm run fuzz`, or as FUZZ_RUNS says. */
const RUNS = Number(
  process.env.FUZZ_RUNS ?? (process.env.npm_lifecycle_event === 'fuzz' ? 300 : 12),
);
const SEED = process.env.FUZZ_SEED === undefined ? undefined : Number(process.env.FUZZ_SEED);
const PASSWORD = 'Quartz-Lantern-Orbit-42';

/** Routes that answer browser navigations: their failures are HTML pages naming the error type. */
const PAGES: ReadonlySet<Endpoint> = new Set<Endpoint>([
  ENDPOINTS.ssoStart,
  ENDPOINTS.samlMetadata,
  ENDPOINTS.samlAcs,
  ENDPOINTS.oidcCallback,
  ENDPOINTS.oauthStart,
  ENDPOINTS.oauthDiscoveryStart,
  ENDPOINTS.oauthCallback,
  ENDPOINTS.oneTapStart,
  ENDPOINTS.errorReference,
]);

/** One request as sent on the wire. */
interface Case {
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: Buffer;
}

interface Answer {
  status: number;
  contentType: string;
  text: string;
}

let h: Harness;
/** The server's body limit: it may refuse a larger body by closing the connection mid-upload. */
const BODY_LIMIT = 256 * 1024;
const ANSWER_TIMEOUT_MS = 5_000;

/** Sends a request exactly as given (any method, body on any method, raw path). */
function send(c: Case): Promise<Answer> {
  return new Promise((resolve, reject) => {
    // An explicit length: Node would send a GET's or DELETE's body with no framing at all.
    const headers =
      c.body === undefined ? c.headers : { ...c.headers, 'content-length': String(c.body.length) };
    const req = httpRequest(
      `${h.url}${c.path}`,
      // A connection per request, so that one closed by the server never fails the next case.
      { method: c.method, headers, agent: false },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            contentType: String(res.headers['content-type'] ?? ''),
            text: Buffer.concat(chunks).toString('utf8'),
          }),
        );
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    // A request the server never answers is a failure too (a hang is a denial of service).
    req.setTimeout(ANSWER_TIMEOUT_MS, () =>
      req.destroy(new Error(`no answer within ${ANSWER_TIMEOUT_MS} ms`)),
    );
    req.end(c.body);
  });
}

/** What is wrong with an answer, or undefined when it is acceptable. */
function problem(endpoint: Endpoint, c: Case, res: Answer): string | undefined {
  if (res.status >= 500) return `HTTP ${res.status}: ${res.text.slice(0, 500)}`;
  if (res.status < 400 || c.method === 'HEAD') return undefined;
  if (res.contentType.includes('application/json')) {
    let body: unknown;
    try {
      body = JSON.parse(res.text);
    } catch {
      return `HTTP ${res.status} with invalid JSON: ${res.text.slice(0, 200)}`;
    }
    const error = body as { error_type?: unknown; error_message?: unknown };
    if (typeof error.error_type !== 'string' || error.error_type === '') {
      return `HTTP ${res.status} without error_type: ${res.text.slice(0, 200)}`;
    }
    if (typeof error.error_message !== 'string' || error.error_message === '') {
      return `HTTP ${res.status} without error_message: ${res.text.slice(0, 200)}`;
    }
    return undefined;
  }
  if (PAGES.has(endpoint) && res.contentType.includes('text/html')) {
    return res.text.includes('id="error-type"') ? undefined : 'HTML error page without a type';
  }
  return `HTTP ${res.status} as ${res.contentType || 'no content type'}: ${res.text.slice(0, 200)}`;
}

async function expectAcceptable(endpoint: Endpoint, c: Case): Promise<void> {
  let res: Answer;
  try {
    res = await send(c);
  } catch (error) {
    const code = (error as { code?: string }).code;
    const tooLarge = (c.body?.length ?? 0) > BODY_LIMIT;
    // A GET or HEAD is answered without reading its body: the connection may close while a
    // large one is still being sent. The server answering /healthz at the end is what counts.
    const unread = (c.method === 'GET' || c.method === 'HEAD') && (c.body?.length ?? 0) > 0;
    if ((tooLarge || unread) && (code === 'ECONNRESET' || code === 'EPIPE')) return;
    throw error;
  }
  const found = problem(endpoint, c, res);
  if (found !== undefined) {
    const body = c.body === undefined ? '' : c.body.subarray(0, 300).toString('utf8');
    throw new Error(`${c.method} ${c.path.slice(0, 300)} [${body}] → ${found}`);
  }
}

// ---- Values ----------------------------------------------------------------------------------

/** Real ids and tokens of the scratch data (never of the sentinel data), filled in beforeAll. */
const pool = {
  ids: [] as string[],
  /** The real value of each path parameter, by name. */
  params: {} as Record<string, string>,
  sessionTokens: [] as string[],
  jwts: [] as string[],
  ists: [] as string[],
};

const nastyStrings = [
  '',
  ' ',
  '\u0000',
  'a\u0000b',
  '\ud800',
  '\udfff',
  'x\ud83dy',
  '\ufeff',
  '\u202e',
  '💥',
  '%',
  '%00',
  '%E0%A4%A',
  '../../etc/passwd',
  '__proto__',
  'constructor',
  '<script>alert(1)</script>',
  "' OR 1=1 --",
  'null',
  'http://127.0.0.1:1/',
  'https://[::1',
  'mailto:a@b',
  'a@b',
  // Well formed and in the sentinel's domain, but not the sentinel's own address: with the secret
  // key the management API may rightly change whoever an address names (a required password reset).
  'nobody@acme.test',
  'A'.repeat(257),
];

const text = fc.oneof(
  fc.string(),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.constantFrom(...nastyStrings),
  fc.integer({ min: 1, max: 300_000 }).map((n) => 'x'.repeat(n)),
);

/** A string that may be a real id or token, so some calls get past the first check. */
const realish = fc.oneof(
  { weight: 3, arbitrary: text },
  { weight: 2, arbitrary: fc.constant(null).map(() => pick(pool.ids)) },
  { weight: 1, arbitrary: fc.constant(null).map(() => pick(pool.sessionTokens)) },
  { weight: 1, arbitrary: fc.constant(null).map(() => pick(pool.jwts)) },
  { weight: 1, arbitrary: fc.constant(null).map(() => pick(pool.ists)) },
);

let picks = 0;
function pick(values: string[]): string {
  picks += 1;
  return values[picks % values.length] ?? '';
}

const value: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 4, arbitrary: realish },
  { weight: 2, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
  { weight: 1, arbitrary: fc.constantFrom(true, false, 0, -1, 1e308, 2 ** 53 + 1, 0.5, null) },
  { weight: 1, arbitrary: fc.array(realish, { maxLength: 5 }) },
  { weight: 1, arbitrary: fc.dictionary(fc.string({ maxLength: 8 }), realish, { maxKeys: 3 }) },
);

/** The top-level field names of an entry's body schema. */
function fieldsOf(endpoint: Endpoint): string[] {
  const schema = endpoint.body;
  if (schema instanceof z.ZodObject) return Object.keys(schema.shape);
  return [];
}

/** Strings that look right for a field, by its name, often with something odd inside. */
function stringFor(key: string): fc.Arbitrary<string> {
  const odd = fc.constantFrom('\ud800', '\u0000', '\udfff', '💥', '\u202e', '%00', '');
  const plausible = (values: string[]) =>
    fc.oneof(
      { weight: 2, arbitrary: fc.constantFrom(...values) },
      {
        weight: 1,
        arbitrary: fc.tuple(fc.constantFrom(...values), odd).map(([v, o]) => v + o),
      },
      { weight: 1, arbitrary: fc.tuple(odd, fc.constantFrom(...values)).map(([o, v]) => o + v) },
    );
  const name = key.toLowerCase();
  const real = (values: () => string[]) => fc.constant(null).map(() => pick(values()));
  let hinted: fc.Arbitrary<string> | undefined;
  if (name === 'intermediate_session_token') {
    hinted = real(() => pool.ists);
  } else if (name === 'session_token') {
    hinted = real(() => pool.sessionTokens);
  } else if (name === 'session_jwt') {
    hinted = real(() => pool.jwts);
  } else if (name.endsWith('_id')) {
    hinted = fc.oneof(
      real(() => [pool.params[name] ?? '']),
      real(() => pool.ids),
    );
  } else if (name.includes('email')) {
    hinted = plausible(['sam@scratch.test', 'new@scratch.test', 'a@b', '@', 'x@[::1]']);
  } else if (name.includes('url') || name === 'issuer') {
    hinted = plausible([
      'http://localhost:3000/authenticate',
      'http://127.0.0.1:1/',
      'javascript:alert(1)',
      'http://[::1',
    ]);
  } else if (name.includes('phone')) {
    hinted = plausible(['+14155550101', '(415) 555-0101', '+1', '+999999999999999999']);
  } else if (name.includes('slug') || name.includes('domain')) {
    hinted = plausible(['scratch', 'new-org', 'scratch.test', 'xn--', '-']);
  } else if (name.includes('code') || name.includes('password')) {
    hinted = plausible(['123456', PASSWORD, 'code_verifier_'.repeat(4)]);
  }
  return hinted === undefined
    ? realish
    : fc.oneof({ weight: 2, arbitrary: hinted }, { weight: 1, arbitrary: realish });
}

/** Values the schema accepts (mostly), with odd strings inside: they reach the services. */
function fromSchema(schema: z.ZodType, key = ''): fc.Arbitrary<unknown> {
  const def = schema.def as unknown as {
    type: string;
    innerType?: z.ZodType;
    element?: z.ZodType;
    shape?: Record<string, z.ZodType>;
    entries?: Record<string, string>;
  };
  switch (def.type) {
    case 'object': {
      const shape = def.shape ?? {};
      const record: Record<string, fc.Arbitrary<unknown>> = {};
      const required: string[] = [];
      for (const [name, field] of Object.entries(shape)) {
        record[name] = fromSchema(field, name);
        const kind = (field.def as { type: string }).type;
        if (kind !== 'optional' && kind !== 'default') required.push(name);
      }
      return fc.record(record, { requiredKeys: required });
    }
    case 'string':
      return stringFor(key);
    case 'number':
      return fc.oneof(
        fc.integer({ min: -10, max: 600_000 }),
        fc.constantFrom(5, 60, 525_600, 0.5, -0, 1e21),
      );
    case 'boolean':
      return fc.boolean();
    case 'enum':
      return fc.constantFrom(...Object.values(def.entries ?? { none: 'none' }));
    case 'array':
      return def.element ? fc.array(fromSchema(def.element, key), { maxLength: 4 }) : value;
    case 'nullable':
      return def.innerType ? fc.option(fromSchema(def.innerType, key)) : value;
    case 'optional':
    case 'default':
      return def.innerType ? fromSchema(def.innerType, key) : value;
    default:
      return fc.jsonValue({ maxDepth: 2 });
  }
}

/** A JSON body: the entry's fields with any values, some missing, some extra; or any JSON. */
function jsonBody(endpoint: Endpoint): fc.Arbitrary<unknown> {
  const fields = fieldsOf(endpoint);
  const record =
    fields.length === 0
      ? fc.dictionary(fc.string({ maxLength: 10 }), value, { maxKeys: 4 })
      : fc
          .tuple(
            fc.subarray(fields),
            fc.array(value, { minLength: fields.length, maxLength: fields.length }),
            fc.dictionary(fc.constantFrom('__proto__', 'constructor', 'extra', ''), value),
          )
          .map(([chosen, values, extra]) => {
            const out: Record<string, unknown> = { ...extra };
            chosen.forEach((name, i) => (out[name] = values[i]));
            return out;
          });
  const valid = endpoint.body === null ? record : fromSchema(endpoint.body);
  return fc.oneof(
    { weight: 8, arbitrary: valid },
    { weight: 3, arbitrary: record },
    { weight: 1, arbitrary: fc.jsonValue() },
  );
}

const nested = (depth: number, open: string, close: string) =>
  open.repeat(depth) + close.repeat(depth);

/** Bodies that are not JSON of any shape: broken syntax, bad bytes, depth, size. */
const rawBodies: Buffer[] = [
  Buffer.from('{'),
  Buffer.from('{"a":'),
  Buffer.from("{'a': 1}"),
  Buffer.from('[1,]'),
  Buffer.from('NaN'),
  Buffer.from('"\\ud800"'),
  Buffer.from('{"email_address":"\\udfff\\u0000"}'),
  Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xc0, 0xaf, 0x22, 0x7d]), // overlong '/'
  Buffer.from([0xff, 0xfe, 0x7b, 0x00, 0x7d, 0x00]), // UTF-16 with a BOM
  Buffer.from([0xef, 0xbb, 0xbf, 0x7b, 0x7d]), // UTF-8 BOM
  Buffer.from(nested(10_000, '[', ']')),
  Buffer.from(`${'{"a":'.repeat(10_000)}1${'}'.repeat(10_000)}`),
  Buffer.from(nested(100_000, '[', ']')),
  Buffer.from(JSON.stringify({ email_address: 'x'.repeat(200_000) })),
  Buffer.from(JSON.stringify({ SAMLResponse: 'x'.repeat(1_000_000) })),
  Buffer.from(JSON.stringify({ metadata_xml: 'x'.repeat(1_000_000) })),
  Buffer.alloc(1_100_000, 0x20),
  Buffer.from('a'.repeat(3_000_000)),
];

const contentTypes = [
  'application/json',
  'application/json; charset=utf-8',
  'application/json; charset=utf-16',
  'application/json;;;',
  'APPLICATION/JSON',
  'text/plain',
  'text/html',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=x',
  'application/octet-stream',
  '*/*',
  'garbage',
];

/** The Authorization header an entry expects, as the harness's `call` sends it. */
function goodAuthorization(endpoint: Endpoint): string | undefined {
  const p = h.project;
  switch (endpoint.credential) {
    case 'secret':
      return basic(p.project_id, p.secret);
    case 'none':
      return undefined;
    case 'S':
      return basic(p.public_token, pick(pool.sessionTokens));
    default:
      return basic(p.public_token, p.public_token);
  }
}

function authorizations(endpoint: Endpoint): fc.Arbitrary<string | undefined> {
  return fc.oneof(
    { weight: 16, arbitrary: fc.constant(null).map(() => goodAuthorization(endpoint)) },
    {
      weight: 4,
      arbitrary: fc.oneof(
        fc.constant(undefined),
        fc.constantFrom(
          'Basic',
          'Basic ',
          'Basic !!!!',
          'Basic ====',
          'Basic @@@:::',
          `Basic ${Buffer.from('no-colon-here').toString('base64')}`,
          `Basic ${Buffer.from(':').toString('base64')}`,
          `Basic ${Buffer.from(':secret').toString('base64')}`,
          `Basic ${Buffer.from([0xc0, 0xaf, 0x3a, 0xff]).toString('base64')}`,
          `Basic ${'A'.repeat(12_000)}`,
          'Bearer abc',
          'basic',
          'Digest username="x"',
        ),
        realish.map((secret) => basic(h.project.public_token, secret)),
        realish.map((secret) => basic(h.project.project_id, secret)),
        fc.tuple(realish, realish).map(([user, secret]) => basic(user, secret)),
      ),
    },
  );
}

/** Header values must be latin-1 on the wire; anything else is sent as its UTF-8 bytes. */
function latin1(value: string): string {
  return Buffer.from(value, 'utf8')
    .toString('latin1')
    .replace(/[\r\n\0]/g, '');
}

/** Percent-encodes the UTF-8 of any string (a lone surrogate as U+FFFD, as a browser would). */
function percentEncode(value: string): string {
  let out = '';
  for (const byte of Buffer.from(value, 'utf8')) {
    const c = String.fromCharCode(byte);
    out += /[A-Za-z0-9._~-]/.test(c) ? c : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}

/** A path parameter: mostly the real one of its name, else anything, percent-encoded or raw. */
const param = (name: string) =>
  fc.oneof(
    { weight: 6, arbitrary: fc.constant(null).map(() => percentEncode(pool.params[name] ?? '')) },
    { weight: 3, arbitrary: realish.map((v) => percentEncode(v.slice(0, 5000))) },
    { weight: 1, arbitrary: fc.constantFrom('%', '%E0%A4%A', '%00', '%2F..%2F', '..', '%ZZ', '') },
  );

const query = fc.oneof(
  { weight: 8, arbitrary: fc.constant('') },
  {
    weight: 2,
    arbitrary: fc
      .array(fc.tuple(realish, realish), { maxLength: 4 })
      .map((pairs) => `?${new URLSearchParams(pairs.map(([k, v]) => [k, v.slice(0, 4000)]))}`),
  },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      '?',
      '?&&&',
      '?a=1&a=2&a=3',
      '?%',
      '?%E0%A4%A=1',
      '?__proto__[x]=1',
      '?constructor[prototype][x]=1',
      '?public_token=&connection_id=',
      '?code=x&state=y',
      '?error=access_denied&state=x',
      `?x=${'y'.repeat(8000)}`,
    ),
  },
);

const METHODS = ['GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS', 'HEAD'];

/** One request to an entry: usually its own method and credential, with malformed parts. */
function caseOf(endpoint: Endpoint): fc.Arbitrary<Case> {
  const names = [...endpoint.path.matchAll(/:([A-Za-z_]+)/g)].map((m) => m[1] ?? '');
  const body = fc.oneof(
    { weight: 12, arbitrary: jsonBody(endpoint).map((b) => Buffer.from(JSON.stringify(b))) },
    { weight: 2, arbitrary: fc.constantFrom(...rawBodies) },
    { weight: 1, arbitrary: fc.constant(undefined) },
  );
  return fc
    .record({
      method: fc.oneof(
        { weight: 20, arbitrary: fc.constant(endpoint.method) },
        { weight: 1, arbitrary: fc.constantFrom(...METHODS) },
      ),
      params: fc.tuple(...names.map(param)),
      query,
      body,
      contentType: fc.oneof(
        { weight: 20, arbitrary: fc.constant('application/json') },
        { weight: 2, arbitrary: fc.constantFrom(...contentTypes) },
        { weight: 1, arbitrary: fc.constant(undefined) },
      ),
      authorization: authorizations(endpoint),
      origin: fc.oneof(
        { weight: 12, arbitrary: fc.constant('http://localhost:3000') },
        { weight: 1, arbitrary: fc.constantFrom(undefined, 'null', 'http://evil.example') },
      ),
    })
    .map(({ method, params, query: q, body: b, contentType, authorization, origin }) => {
      let i = 0;
      const path = endpoint.path.replace(/:([A-Za-z_]+)/g, () => params[i++] ?? '');
      const headers: Record<string, string> = {};
      if (contentType !== undefined) headers['content-type'] = contentType;
      if (authorization !== undefined) headers.authorization = latin1(authorization);
      if (origin !== undefined && endpoint.credential !== 'secret') headers.origin = origin;
      const sendsBody = method !== 'HEAD' && b !== undefined;
      return { method, path: path + q, headers, ...(sendsBody ? { body: b } : {}) };
    });
}

// ---- The suite --------------------------------------------------------------------------------

/** The stored rows of the seeded organization and member, to compare after fuzzing. */
async function sentinel() {
  const org = await h.db
    .selectFrom('organizations')
    .selectAll()
    .where('id', '=', h.org.organization_id)
    .executeTakeFirstOrThrow();
  const member = await h.db
    .selectFrom('members')
    .selectAll()
    .where('id', '=', h.member.member_id)
    .executeTakeFirstOrThrow();
  return { org, member };
}

let before: Awaited<ReturnType<typeof sentinel>>;
let refreshScratch: () => Promise<void>;
let sentinelSession: { session_token: string; session_jwt: string };

beforeAll(async () => {
  h = await startHarness({ listen: true });
  // The sentinel: the seeded organization and member, with a password and a live session. The
  // fuzzer never learns their ids or tokens.
  await h.admin.setMemberPassword(h.project.project_id, h.member.member_id, { password: PASSWORD });
  sentinelSession = await h.login();
  // Scratch data the fuzzer may use and change: an organization, members, sessions, an IST and SSO
  // connections.
  // The project's settings as the harness made them, every one `PUT /v1/b2b/project` may change.
  const { project } = expectOk(await h.call(ENDPOINTS.getProject));
  const settings = Object.fromEntries(
    Object.entries(project).filter(([key]) => key in projectSettingsFields.shape),
  );
  // Fresh scratch data for each endpoint: an earlier one may have changed its MFA policy, revoked
  // its sessions or spent its tokens.
  let round = 0;
  refreshScratch = async () => {
    round += 1;
    // The fuzzer may have changed the project (requiring PKCE for magic links, say) or turned
    // captcha on (PUT /v1/b2b/captcha): scratch sign-ins need both as they were.
    expectOk(await h.call(ENDPOINTS.updateProject, { body: settings }));
    expectOk(await h.call(ENDPOINTS.setCaptcha, { body: { enabled: false } }));
    const slug = `scratch-${round}`;
    const scratch = await h.admin.createOrganization(h.project.project_id, {
      organization_name: slug,
      organization_slug: slug,
      email_allowed_domains: [`${slug}.test`],
    });
    const email = `sam@${slug}.test`;
    const member = await h.admin.createMember(h.project.project_id, scratch.organization_id, {
      email_address: email,
      roles: ['admin'],
    });
    const mfa = await mfaOrganization(h, `${slug}-mfa`);
    const login = await magicLogin(h, email, scratch.organization_id);
    if (!login.member_authenticated) throw new Error('scratch login needs MFA');
    const pending = await magicLogin(h, mfa.email, mfa.org.organization_id);
    const saml = expectOk(
      await h.call(ENDPOINTS.ssoCreateSaml, {
        params: { organization_id: scratch.organization_id },
        body: { display_name: 'Scratch SAML' },
      }),
    ).connection;
    pool.sessionTokens = [login.session_token];
    pool.jwts = [login.session_jwt];
    pool.ists = [pending.intermediate_session_token];
    pool.ids = [
      scratch.organization_id,
      member.member_id,
      mfa.org.organization_id,
      mfa.member.member_id,
      saml.connection_id,
      h.project.project_id,
      h.project.public_token,
      'google',
      'microsoft',
    ];
    pool.params = {
      organization_id: scratch.organization_id,
      member_id: member.member_id,
      connection_id: saml.connection_id,
      certificate_id: 'certificate-test-unknown',
      provider: 'google',
      public_token: h.project.public_token,
      project_id: h.project.project_id,
      role_id: 'fuzz-role',
      resource_id: 'fuzz-resource',
    };
  };
  await refreshScratch();
  before = await sentinel();
});

afterAll(async () => {
  await h?.close();
});

const entries = Object.entries(ENDPOINTS) as [string, Endpoint][];

describe('fuzzing every endpoint', () => {
  it.each(entries)(
    '%s never answers 5xx or a bare error',
    async (_name, endpoint) => {
      await refreshScratch();
      // Every raw body once, with the entry's own method and credential.
      for (const body of rawBodies) {
        const authorization = goodAuthorization(endpoint);
        const method = endpoint.method === 'GET' ? 'POST' : endpoint.method;
        const path = endpoint.path.replace(/:([A-Za-z_]+)/g, () =>
          percentEncode(pool.ids[0] ?? ''),
        );
        await expectAcceptable(endpoint, {
          method,
          path,
          body,
          headers: {
            'content-type': 'application/json',
            ...(authorization === undefined ? {} : { authorization }),
          },
        });
      }
      await fc.assert(
        fc.asyncProperty(caseOf(endpoint), (c) => expectAcceptable(endpoint, c)),
        { numRuns: RUNS, ...(SEED === undefined ? {} : { seed: SEED }) },
      );
    },
    30_000 + RUNS * 1000,
  );

  it('still answers, and the seeded data is unchanged', async () => {
    const health = await h.request('/healthz', { authorization: null });
    expect([health.status, health.body]).toEqual([200, { status: 'ok' }]);
    expect(await sentinel()).toEqual(before);
    const session = await h.call(ENDPOINTS.authenticateSession, {
      body: { session_token: sentinelSession.session_token },
    });
    expect(expectOk(session).member.member_id).toBe(h.member.member_id);
    const password = await h.call(ENDPOINTS.passwordsAuthenticate, {
      body: {
        organization_id: h.org.organization_id,
        email_address: h.member.email_address,
        password: PASSWORD,
        session_duration_minutes: 60,
      },
    });
    expect(expectSession(password).member.member_id).toBe(h.member.member_id);
  });
});
