// The log never holds a secret: real sign-in flows and management calls run with the logger on,
// and no password, token, JWT, code, secret key, Authorization header or cookie may appear in
// what it wrote; every request line carries the request id.
import { ENDPOINTS } from '@gatehouse/protocol/endpoints';
import Fastify, { LogController } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { basic, expectOk, expectSession, startHarness, type Harness } from '../test/harness.js';
import { lastSms, magicLogin, mfaOrganization } from '../test/mfa.js';
import { loggerOptions, redactUrl, requestLogger } from './logging.js';

const PASSWORD = 'Quartz-Lantern-Orbit-42';
const lines: string[] = [];
/** Every value that must never be logged, with where it came from (for the failure message). */
const secrets = new Map<string, string>();
const secret = (label: string, value: string) => {
  if (value.length >= 6) secrets.set(value, label);
  return value;
};

let h: Harness;
beforeAll(async () => {
  h = await startHarness({
    config: { logger: { write: (line: string) => lines.push(line) }, logRequests: true },
  });
  secret('secret key', h.project.secret);
  secret('secret key header', basic(h.project.project_id, h.project.secret));
  secret('secret key header (base64)', basic(h.project.project_id, h.project.secret).slice(6));
});
afterAll(async () => {
  await h.close();
});

/** Records a session's credentials as secrets, in every form they travel in. */
function sessionSecrets(label: string, data: { session_token: string; session_jwt: string }) {
  secret(`${label} session token`, data.session_token);
  secret(`${label} session JWT`, data.session_jwt);
  const header = basic(h.project.public_token, data.session_token);
  secret(`${label} session header (base64)`, header.slice(6));
}

describe('log redaction', () => {
  it('drives the sign-in flows and management calls with the logger on', async () => {
    const { project, org, member } = h;
    // Management API: a password set with the secret key.
    const set = await h.call(ENDPOINTS.setMemberPassword, {
      params: { organization_id: org.organization_id, member_id: member.member_id },
      body: { password: secret('password', PASSWORD) },
    });
    expectOk(set);
    expectOk(
      await h.call(ENDPOINTS.getOrganization, { params: { organization_id: org.organization_id } }),
    );

    // Password sign-in, and a wrong password.
    const signedIn = expectSession(
      await h.call(ENDPOINTS.passwordsAuthenticate, {
        body: {
          organization_id: org.organization_id,
          email_address: member.email_address,
          password: PASSWORD,
          session_duration_minutes: 60,
        },
      }),
    );
    sessionSecrets('password', signedIn);
    await h.call(ENDPOINTS.passwordsAuthenticate, {
      body: {
        organization_id: org.organization_id,
        email_address: member.email_address,
        password: secret('wrong password', 'Wrong-Password-Guess-99'),
      },
    });

    // Magic link: send, then authenticate with the token from the e-mail.
    expectOk(
      await h.call(ENDPOINTS.magicLinksLoginOrSignup, {
        body: { email_address: member.email_address, organization_id: org.organization_id },
      }),
    );
    const token = secret('magic link token', await h.lastToken(member.email_address));
    const magic = expectSession(
      await h.call(ENDPOINTS.magicLinksAuthenticate, {
        body: { magic_links_token: token, session_duration_minutes: 60 },
      }),
    );
    sessionSecrets('magic link', magic);

    // Sessions: the SDK refresh with the token in Authorization; the backend check by token and
    // by JWT; a cookie a browser might send along.
    expectOk(
      await h.call(ENDPOINTS.sessionsAuthenticate, {
        token: magic.session_token,
        body: {},
        headers: { cookie: `gatehouse_session=${secret('cookie', 'cookie-value-4f9a1c2e')}` },
      }),
    );
    expectOk(
      await h.call(ENDPOINTS.authenticateSession, {
        body: { session_token: magic.session_token },
      }),
    );
    expectOk(
      await h.call(ENDPOINTS.authenticateSession, { body: { session_jwt: magic.session_jwt } }),
    );

    // SMS one-time code as a second factor.
    const mfa = await mfaOrganization(h, 'logged-mfa');
    const pending = await magicLogin(h, mfa.email, mfa.org.organization_id);
    const ist = secret('intermediate session token', pending.intermediate_session_token);
    const ids = { organization_id: mfa.org.organization_id, member_id: mfa.member.member_id };
    expectOk(
      await h.call(ENDPOINTS.smsSend, {
        body: { ...ids, intermediate_session_token: ist, mfa_phone_number: '+14155550101' },
      }),
    );
    const { code } = await lastSms(h, '+14155550101');
    const sms = expectSession(
      await h.call(ENDPOINTS.smsAuthenticate, {
        body: {
          ...ids,
          intermediate_session_token: ist,
          code: secret('SMS code', code),
          session_duration_minutes: 60,
        },
      }),
    );
    sessionSecrets('SMS', sms);

    // Navigations carry one-time codes and state in the query string.
    await h.request(
      `/v1/b2b/public/oauth/google/callback?code=${secret('OAuth code', 'oauth-code-7d2e9b41')}&state=${secret('OAuth state', 'oauth-state-c81f03aa')}`,
      { authorization: null },
    );
    await h.request(
      `/v1/sso/oidc/callback?code=${secret('OIDC code', 'oidc-code-55e1b7d0')}&state=${secret('OIDC state', 'oidc-state-0a9c6e12')}`,
      { authorization: null },
    );

    // A bad secret key and revocation by the management API.
    await h.call(ENDPOINTS.getOrganization, {
      params: { organization_id: org.organization_id },
      authorization: basic(
        project.project_id,
        secret('wrong secret key', 'secret-test-guess-0001'),
      ),
    });
    expectOk(await h.call(ENDPOINTS.revokeSessions, { body: { member_id: member.member_id } }));
    expect(lines.length).toBeGreaterThan(20);
  });

  it('wrote none of the secrets', () => {
    const log = lines.join('');
    const leaked = [...secrets].filter(([value]) => log.includes(value)).map(([, label]) => label);
    expect(leaked).toEqual([]);
    expect(log).not.toMatch(/"authorization"/i);
    expect(log).not.toMatch(/"cookie"/i);
  });

  it('gives every request line its request id', () => {
    const requestLines = lines
      .map((line) => JSON.parse(line) as { req?: unknown; res?: unknown; reqId?: unknown })
      .filter((entry) => entry.req !== undefined || entry.res !== undefined);
    expect(requestLines.length).toBeGreaterThan(20);
    for (const entry of requestLines)
      expect(entry.reqId).toMatch(/^request-id-test-[0-9a-f-]{36}$/);
  });
});

describe('the log without request lines (the default)', () => {
  /** What a server with the logger on and `logRequests` unset wrote, parsed. */
  let entries: Record<string, unknown>[];
  const written: string[] = [];

  beforeAll(async () => {
    const server = await startHarness({
      config: { logger: { write: (line: string) => written.push(line) } },
    });
    try {
      const { org, member } = server;
      const ids = { organization_id: org.organization_id, member_id: member.member_id };
      expectOk(
        await server.call(ENDPOINTS.setMemberPassword, {
          params: ids,
          body: { password: PASSWORD },
        }),
      );
      const signIn = (password: string) =>
        server.call(ENDPOINTS.passwordsAuthenticate, {
          body: {
            organization_id: org.organization_id,
            email_address: member.email_address,
            password,
            session_duration_minutes: 60,
          },
        });
      const session = expectSession(await signIn(PASSWORD));
      written.push('--- answered ---\n');
      expectOk(
        await server.call(ENDPOINTS.sessionsAuthenticate, {
          token: session.session_token,
          body: {},
        }),
      );
      expectOk(
        await server.call(ENDPOINTS.getOrganization, {
          params: { organization_id: org.organization_id },
        }),
      );
      await server.request('/sdk/v1/b2b/no-such-endpoint', { authorization: null });
      written.push('--- refused ---\n');
      await signIn('Wrong-Password-Guess-99');
      await server.call(ENDPOINTS.sessionsAuthenticate, {
        authorization: basic(server.project.public_token, 'session-token-test-unknown'),
        body: {},
      });
    } finally {
      await server.close();
    }
    entries = written.map((line) =>
      line.startsWith('---')
        ? { marker: line.trim() }
        : (JSON.parse(line) as Record<string, unknown>),
    );
  });

  /** The entries between two markers. */
  const between = (from: string, to?: string) => {
    const start = entries.findIndex((entry) => entry.marker === from);
    const end = to ? entries.findIndex((entry) => entry.marker === to) : entries.length;
    return entries.slice(start + 1, end);
  };

  it('logs each sign-in decision with its member, and nothing typed', () => {
    const signIn = entries.find((entry) => entry.msg === 'sign-in');
    expect(signIn).toMatchObject({
      level: 30,
      sign_in: { method: 'password', outcome: 'success' },
    });
    expect(signIn?.member_id).toMatch(/^member-test-/);
    expect(signIn?.organization_id).toMatch(/^organization-test-/);
    expect(signIn?.reqId).toMatch(/^request-id-test-/);
    const refused = between('--- refused ---').find((entry) => entry.msg === 'sign-in refused');
    expect(refused).toMatchObject({
      level: 40,
      sign_in: { method: 'password', outcome: 'failure' },
    });
    expect(written.join('')).not.toContain('Wrong-Password-Guess-99');
    expect(written.join('')).not.toContain(PASSWORD);
  });

  it('writes no line for requests answered, found or not', () => {
    expect(between('--- answered ---', '--- refused ---')).toEqual([]);
  });

  it('writes one line for each refused call, with its request and error type', () => {
    const refused = between('--- refused ---').filter((entry) => entry.msg === 'request refused');
    const summary = refused.map((entry) => ({
      level: entry.level,
      status: entry.status_code,
      type: entry.error_type,
      req: entry.req,
    }));
    expect(summary).toMatchObject([
      {
        level: 40,
        status: 401,
        type: 'unauthorized_credentials',
        req: { method: 'POST', url: '/sdk/v1/b2b/passwords/authenticate' },
      },
      {
        level: 30,
        status: 404,
        type: 'session_not_found',
        req: { method: 'POST', url: '/sdk/v1/b2b/sessions/authenticate' },
      },
    ]);
    for (const entry of refused) expect(entry.reqId).toMatch(/^request-id-test-/);
    expect(entries.some((entry) => entry.msg === 'incoming request')).toBe(false);
  });

  it('still writes the server’s own lines', () => {
    expect(written.join('')).toContain('database closed');
  });
});

describe('requestLogger', () => {
  /** A parent logger whose `child` is recorded, and the child it hands out. */
  function parentLogger() {
    const child = {
      level: 'info',
      info: vi.fn(),
      error: vi.fn(),
      warn: vi.fn(),
      debug: vi.fn(),
      fatal: vi.fn(),
      trace: vi.fn(),
      silent: vi.fn(),
      child: vi.fn(),
    };
    const parent = { ...child, level: 'warn', child: vi.fn(() => child) };
    return { parent, child };
  }

  it('makes the child logger on the first line only, once, with the bindings', () => {
    const { parent, child } = parentLogger();
    const log = requestLogger(parent, { reqId: 'request-id-test-1' }, {});
    expect(log.level).toBe('warn');
    expect(parent.child).not.toHaveBeenCalled();
    log.warn({ member_id: 'm' }, 'first');
    log.error({ err: new Error('x') }, 'second');
    expect(parent.child).toHaveBeenCalledTimes(1);
    expect(parent.child).toHaveBeenCalledWith({ reqId: 'request-id-test-1' }, {});
    expect(child.warn).toHaveBeenCalledWith({ member_id: 'm' }, 'first');
    expect(child.error).toHaveBeenCalledTimes(1);
    expect(log.level).toBe('info');
  });

  it('binds the request id to what a handler logs, and writes nothing for a quiet request', async () => {
    const written: string[] = [];
    const app = Fastify({
      logger: loggerOptions({ write: (line) => written.push(line) }),
      logController: new LogController({ disableRequestLogging: true }),
      childLoggerFactory: requestLogger,
    });
    app.get('/quiet', async () => ({}));
    app.get('/loud', async (request) => {
      request.log.warn({ organization_id: 'organization-test-1' }, 'something to see');
      return { id: request.id };
    });
    expect((await app.inject('/quiet')).statusCode).toBe(200);
    expect(written).toEqual([]);
    const loud = await app.inject('/loud');
    await app.close();
    const [line, ...rest] = written.map((entry) => JSON.parse(entry) as Record<string, unknown>);
    expect(rest).toEqual([]);
    expect(line).toMatchObject({
      reqId: loud.json<{ id: string }>().id,
      organization_id: 'organization-test-1',
      msg: 'something to see',
    });
  });
});

describe('redactUrl', () => {
  it('keeps the path and parameter names, never the values', () => {
    expect(redactUrl('/v1/sso/oidc/callback?code=abc&state=x%20y&flag')).toBe(
      '/v1/sso/oidc/callback?code=[Redacted]&state=[Redacted]&flag',
    );
    expect(redactUrl('/healthz')).toBe('/healthz');
  });
});

describe('loggerOptions', () => {
  it('redacts headers, bodies and secret fields that code logs by mistake, not error codes', async () => {
    const written: string[] = [];
    const app = Fastify({ logger: loggerOptions({ write: (line) => written.push(line) }) });
    app.post('/echo', async (request) => {
      request.log.info({ headers: request.headers, body: request.body }, 'whole request');
      request.log.info({ password: 'p4ssw0rd-logged', member: { session_token: 'tok-logged' } });
      request.log.warn({ err: Object.assign(new Error('refused'), { code: 'ECONNREFUSED' }) });
      return {};
    });
    await app.inject({
      method: 'POST',
      url: '/echo?code=query-code-logged',
      headers: { authorization: 'Basic c2VjcmV0LWxvZ2dlZA==', cookie: 'sid=cookie-logged' },
      payload: { password: 'body-password-logged' },
    });
    await app.close();
    const log = written.join('');
    for (const value of [
      'c2VjcmV0LWxvZ2dlZA==',
      'cookie-logged',
      'body-password-logged',
      'p4ssw0rd-logged',
      'tok-logged',
      'query-code-logged',
    ]) {
      expect(log).not.toContain(value);
    }
    expect(log).toContain('ECONNREFUSED');
    expect(log).toContain('[Redacted]');
    const incoming = written
      .map((line) => JSON.parse(line) as { msg: string; req?: Record<string, unknown> })
      .find((entry) => entry.msg === 'incoming request');
    expect(incoming?.req).toMatchObject({
      method: 'POST',
      url: '/echo?code=[Redacted]',
      remoteAddress: '127.0.0.1',
    });
  });
});
