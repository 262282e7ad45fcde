// Password policies over HTTP: strength_check under none, zxcvbn and LUDS, breach checks (offline and range API), bootstrap.
import { createHash } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ENDPOINTS } from '@gatehouse/protocol/endpoints';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AdminError } from '../management/admin.js';
import { expectOk, startHarness, type Harness } from '../../test/harness.js';

const STRONG = 'Quartz-Lantern-Orbit-42';
const BREACHED_TEXT =
  'This password may have been used on a different site that experienced a security issue. Please choose another password.';
/** Strong by every policy, and "leaked" according to the range server below. */
const LEAKED_ONLY_ONLINE = 'Saffron-Meadow-Kettle-913';

/** A k-anonymity range server that knows one leaked password, and records what it was asked. */
function startRangeServer(): Promise<{
  server: Server;
  url: string;
  requests: string[];
  paddings: (string | undefined)[];
}> {
  const digest = createHash('sha1').update(LEAKED_ONLY_ONLINE).digest('hex').toUpperCase();
  const requests: string[] = [];
  const paddings: (string | undefined)[] = [];
  const server = createServer((request, response) => {
    requests.push(request.url ?? '');
    const padding = request.headers['add-padding'];
    paddings.push(typeof padding === 'string' ? padding : undefined);
    const prefix = /^\/range\/([0-9A-F]{5})$/.exec(request.url ?? '')?.[1];
    if (!prefix) {
      response.writeHead(404).end();
      return;
    }
    const lines = ['0018A45C4D1DEF81644B54AB7F969B88D65:0'];
    if (prefix === digest.slice(0, 5)) lines.push(`${digest.slice(5)}:52`);
    response.writeHead(200, { 'content-type': 'text/plain' }).end(lines.join('\r\n'));
  });
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      resolve({ server, url: `http://127.0.0.1:${port}`, requests, paddings });
    });
  });
}

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h.close();
});

const strength = (password: string, email?: string) =>
  h.call(ENDPOINTS.passwordsStrengthCheck, {
    body: { password, ...(email ? { email_address: email } : {}) },
  });
const setPolicy = (policy: {
  strength_policy: 'none' | 'zxcvbn' | 'luds';
  luds_complexity?: number;
  luds_minimum_count?: number;
}) => h.admin.updateProject(h.project.project_id, { passwordPolicy: policy });
/** The password settings bootstrap publishes. */
const passwordConfig = async () =>
  expectOk(await h.call(ENDPOINTS.bootstrap, { params: { public_token: h.project.public_token } }))
    .password_config;
/** Sets a password for the session's member, the way the reset page does. */
async function sessionReset(password: string) {
  const session = await h.login();
  return h.call(ENDPOINTS.passwordsResetSession, {
    body: { password },
    token: session.session_token,
  });
}

describe('strength_check', () => {
  it('always returns every field; zxcvbn by default', async () => {
    const res = await strength('abc');
    expect(res.status).toBe(200);
    const data = expectOk(res);
    expect(Object.keys(data).sort()).toEqual([
      'breach_detection_on_create',
      'breached_password',
      'luds_feedback',
      'request_id',
      'score',
      'status_code',
      'strength_policy',
      'valid_password',
      'zxcvbn_feedback',
    ]);
    expect(data).toMatchObject({
      valid_password: false,
      strength_policy: 'zxcvbn',
      breached_password: false,
      breach_detection_on_create: true,
    });
    expect(Object.keys(data.luds_feedback).sort()).toEqual([
      'has_digit',
      'has_lower_case',
      'has_symbol',
      'has_upper_case',
      'missing_characters',
      'missing_complexity',
    ]);
    expect(data.zxcvbn_feedback).toEqual({
      warning: expect.any(String) as unknown,
      suggestions: expect.any(Array) as unknown,
    });
    const strong = await strength(STRONG);
    expect(expectOk(strong)).toMatchObject({ valid_password: true, score: 4 });
  });

  it("counts the e-mail's words as guessable", async () => {
    const plain = await strength('ada.lovelace1815');
    const withEmail = await strength('ada.lovelace1815', 'ada.lovelace@acme.test');
    expect(expectOk(withEmail).score).toBeLessThan(expectOk(plain).score);
  });

  it('flags offline-known breached passwords under every policy', async () => {
    for (const strength_policy of ['none', 'zxcvbn', 'luds'] as const) {
      await setPolicy({ strength_policy, luds_complexity: 3, luds_minimum_count: 8 });
      const res = await strength('P@ssw0rd');
      expect(expectOk(res).breached_password).toBe(true);
      expect(expectOk(res).valid_password).toBe(false);
    }
    await setPolicy({ strength_policy: 'zxcvbn' });
  });

  it('refuses bad input', async () => {
    // Untyped: the body lacks the password.
    const res = await h.sdk('/b2b/passwords/strength_check', { body: { email_address: 'a@b.co' } });
    expect([res.status, res.error?.body?.[0]?.dataPath]).toEqual([400, '.password']);
  });
});

describe('policies applied to new passwords', () => {
  it('zxcvbn: refuses a guessable password with its warning, accepts a strong one', async () => {
    await setPolicy({ strength_policy: 'zxcvbn' });
    const weak = await sessionReset('ada-lovelace');
    expect([weak.status, weak.error?.error_type]).toEqual([400, 'weak_password']);
    expect(weak.error?.error_message).toContain('too easy to guess');
    expect(weak.error?.error_message).toContain('Common names and surnames are easy to guess.');
    expect((await sessionReset(STRONG)).status).toBe(200);
  });

  it('luds: reports the shortfall against the project numbers, in bootstrap too', async () => {
    await setPolicy({ strength_policy: 'luds', luds_complexity: 4, luds_minimum_count: 12 });
    expect(await passwordConfig()).toEqual({
      luds_complexity: 4,
      luds_minimum_count: 12,
    });
    const check = await strength('xqzTRW72');
    expect(expectOk(check)).toMatchObject({
      strength_policy: 'luds',
      valid_password: false,
      luds_feedback: { missing_characters: 4, missing_complexity: 1, has_symbol: false },
    });
    const weak = await sessionReset('xqzTRW72');
    expect([weak.status, weak.error?.error_type]).toEqual([400, 'weak_password']);
    expect(weak.error?.error_message).toBe(
      'The password must be at least 12 characters long and contain 4 of the following: uppercase letter, lowercase letter, number, symbol. It needs 4 more characters and 1 more of these kinds of character: uppercase letter, lowercase letter, number, symbol.',
    );
    // LUDS does not care how guessable it is, only about length and kinds of character.
    expect((await sessionReset('aaaaBBBB111!')).status).toBe(200);
    await setPolicy({ strength_policy: 'zxcvbn' });
    expect(await passwordConfig()).toBeNull();
  });

  it('none: accepts anything not breached', async () => {
    await setPolicy({ strength_policy: 'none' });
    expect((await sessionReset('abc')).status).toBe(200);
    const breached = await sessionReset('iloveyou');
    expect([breached.status, breached.error?.error_message]).toEqual([400, BREACHED_TEXT]);
    await setPolicy({ strength_policy: 'zxcvbn' });
  });

  it('refuses impossible LUDS settings, as PUT /v1/b2b/project does', async () => {
    const refusal = async (policy: Parameters<typeof setPolicy>[0]) => {
      const error: unknown = await setPolicy(policy).then(
        () => null,
        (thrown: unknown) => thrown,
      );
      return error instanceof AdminError ? error.errorType : `not an AdminError: ${String(error)}`;
    };
    expect(await refusal({ strength_policy: 'luds', luds_complexity: 5 })).toBe('invalid_request');
    expect(await refusal({ strength_policy: 'luds', luds_minimum_count: 0 })).toBe(
      'invalid_request',
    );
  });
});

describe('breach range API', () => {
  it('refuses a password the range API knows, sending only a five-digit prefix', async () => {
    const range = await startRangeServer();
    const online = await startHarness({ config: { passwordBreachRangeUrl: range.url } });
    try {
      const check = await online.call(ENDPOINTS.passwordsStrengthCheck, {
        body: { password: LEAKED_ONLY_ONLINE },
      });
      expect(expectOk(check)).toMatchObject({ breached_password: true, valid_password: false });
      const prefix = createHash('sha1')
        .update(LEAKED_ONLY_ONLINE)
        .digest('hex')
        .toUpperCase()
        .slice(0, 5);
      expect(range.requests).toEqual([`/range/${prefix}`]);
      expect(range.paddings).toEqual(['true']);

      const session = await online.login();
      const refused = await online.call(ENDPOINTS.passwordsResetSession, {
        body: { password: LEAKED_ONLY_ONLINE },
        token: session.session_token,
      });
      expect([refused.status, refused.error?.error_message]).toEqual([400, BREACHED_TEXT]);
      const accepted = await online.call(ENDPOINTS.passwordsResetSession, {
        body: { password: STRONG },
        token: session.session_token,
      });
      expect(accepted.status).toBe(200);

      // Without the range API the same password is fine: only the API knew it.
      const offline = await strength(LEAKED_ONLY_ONLINE);
      expect(expectOk(offline)).toMatchObject({ breached_password: false, valid_password: true });
    } finally {
      await online.close();
      await new Promise((resolve) => range.server.close(resolve));
    }
  });
});
