// Password sign-in (§7.2): right and wrong passwords, look-alike failures, lockout, imported hashes, IST and MFA.
/* eslint-disable @typescript-eslint/no-unsafe-assignment, @typescript-eslint/no-unsafe-member-access, @typescript-eslint/no-unsafe-argument, @typescript-eslint/no-unsafe-call -- tests assert on untyped JSON response bodies */
import { createHash, randomBytes, scryptSync } from 'node:crypto';
import { hash as bcryptHash } from '@node-rs/bcrypt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { basic, startHarness, type Harness } from '../../test/harness.js';

const PASSWORD = 'Quartz-Lantern-Orbit-42';
const FAILURES = 'Invalid email or password.';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
  await h.admin.setMemberPassword(h.project.project_id, h.member.member_id, { password: PASSWORD });
});
afterAll(async () => {
  await h.close();
});

const authenticate = (body: Record<string, unknown>, options = {}) =>
  h.sdk('/b2b/passwords/authenticate', {
    body: { organization_id: h.org.organization_id, session_duration_minutes: 60, ...body },
    ...options,
  });

/** A fresh active member of the seeded organization with a password. */
async function memberWithPassword(email: string, password = PASSWORD) {
  const member = await h.admin.createMember(h.project.project_id, h.org.organization_id, {
    email_address: email,
  });
  await h.admin.setMemberPassword(h.project.project_id, member.member_id, { password });
  return member;
}

describe('passwords/authenticate', () => {
  it('signs a member in with the right password: result F with a password factor', async () => {
    const res = await authenticate({ email_address: 'Ada@Acme.test', password: PASSWORD });
    expect(res.status).toBe(200);
    const data = res.body.data;
    expect(data.member_authenticated).toBe(true);
    expect(data.session_token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(data.session_jwt).not.toBe('');
    expect(data.intermediate_session_token).toBe('');
    expect(data.mfa_required).toBeNull();
    expect(data.member.member_password_id).toMatch(/^member-password-test-/);
    expect(data.member_session.authentication_factors).toEqual([
      expect.objectContaining({
        type: 'password',
        delivery_method: 'knowledge',
        sequence_order: 'PRIMARY',
      }),
    ]);
    const started = Date.parse(data.member_session.started_at);
    expect(Date.parse(data.member_session.expires_at) - started).toBe(60 * 60_000);
  });

  it('falls back to 30 minutes when no session duration is sent', async () => {
    const res = await h.sdk('/b2b/passwords/authenticate', {
      body: {
        organization_id: h.org.organization_id,
        email_address: 'ada@acme.test',
        password: PASSWORD,
        code_verifier: 'ignored-by-password-login',
      },
    });
    expect(res.status).toBe(200);
    const session = res.body.data.member_session;
    expect(Date.parse(session.expires_at) - Date.parse(session.started_at)).toBe(30 * 60_000);
  });

  it('answers a wrong password, an unknown e-mail and a member without a password alike', async () => {
    await h.admin.createMember(h.project.project_id, h.org.organization_id, {
      email_address: 'nopass@acme.test',
    });
    const answers = [
      await authenticate({ email_address: 'ada@acme.test', password: `${PASSWORD}!` }),
      await authenticate({ email_address: 'nobody@acme.test', password: PASSWORD }),
      await authenticate({ email_address: 'nopass@acme.test', password: PASSWORD }),
    ];
    for (const res of answers) {
      expect(res.status).toBe(401);
      expect(res.body.error_type).toBe('unauthorized_credentials');
      expect(res.body.error_message).toBe(FAILURES);
    }
    const lengths = answers.map((res) => res.text.length);
    // Only the request id differs, and it has the same length.
    expect(new Set(lengths).size).toBe(1);
    await h.db.deleteFrom('password_failures').execute();
  });

  it('spends about the same time on an unknown e-mail as on a wrong password', async () => {
    const timed = async (email: string) => {
      const started = performance.now();
      const res = await authenticate({ email_address: email, password: 'not-the-password' });
      expect(res.status).toBe(401);
      return performance.now() - started;
    };
    const median = (values: number[]) =>
      values.sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;
    const known: number[] = [];
    const unknown: number[] = [];
    for (let i = 0; i < 5; i += 1) {
      known.push(await timed('ada@acme.test'));
      unknown.push(await timed(`ghost${i}@acme.test`));
    }
    await h.db.deleteFrom('password_failures').execute();
    // Without the dummy verification an unknown e-mail would answer many times faster.
    expect(median(unknown)).toBeGreaterThan(median(known) * 0.5);
    expect(median(unknown)).toBeLessThan(median(known) * 2);
  });

  it('refuses bad input with schema or semantic errors', async () => {
    const missing = await h.sdk('/b2b/passwords/authenticate', { body: {} });
    expect(missing.status).toBe(400);
    expect(missing.body.error_type).toBe('invalid_request');
    expect(missing.body.body.map((i: { dataPath: string }) => i.dataPath).sort()).toEqual([
      '.email_address',
      '.organization_id',
      '.password',
    ]);
    const wrongType = await authenticate({ email_address: 'ada@acme.test', password: 42 });
    expect([wrongType.status, wrongType.body.body[0].dataPath]).toEqual([400, '.password']);
    const badDuration = await authenticate({
      email_address: 'ada@acme.test',
      password: PASSWORD,
      session_duration_minutes: 1,
    });
    expect(badDuration.body.body[0].dataPath).toBe('.session_duration_minutes');
    const badEmail = await authenticate({ email_address: 'not-an-email', password: PASSWORD });
    expect([badEmail.status, badEmail.body.error_type]).toEqual([400, 'invalid_email']);
    const noOrg = await authenticate({
      organization_id: 'organization-test-00000000-0000-4000-8000-000000000000',
      email_address: 'ada@acme.test',
      password: PASSWORD,
    });
    expect([noOrg.status, noOrg.body.error_type]).toEqual([404, 'organization_not_found']);
    const anonymous = await authenticate(
      { email_address: 'ada@acme.test', password: PASSWORD },
      { authorization: null },
    );
    expect(anonymous.status).toBe(401);
  });

  it('refuses organizations that do not allow passwords', async () => {
    const org = await h.admin.createOrganization(h.project.project_id, {
      organization_name: 'Links Only',
      organization_slug: 'links-only',
      auth_methods: 'RESTRICTED',
      allowed_auth_methods: ['magic_link'],
    });
    const member = await h.admin.createMember(h.project.project_id, org.organization_id, {
      email_address: 'ada@acme.test',
    });
    await h.admin.setMemberPassword(h.project.project_id, member.member_id, { password: PASSWORD });
    const res = await authenticate({
      organization_id: org.organization_id,
      email_address: 'ada@acme.test',
      password: PASSWORD,
    });
    expect([res.status, res.body.error_type]).toEqual([403, 'auth_method_not_allowed']);
  });

  it('does not let invited members sign in with a password before they prove their address', async () => {
    const member = await h.admin.createMember(h.project.project_id, h.org.organization_id, {
      email_address: 'invited@elsewhere.example',
      status: 'invited',
    });
    await h.admin.setMemberPassword(h.project.project_id, member.member_id, { password: PASSWORD });
    const res = await authenticate({
      email_address: 'invited@elsewhere.example',
      password: PASSWORD,
    });
    expect([res.status, res.body.error_type]).toEqual([401, 'unauthorized_credentials']);
  });

  it('adds the factor to a presented session of the same member instead of starting another', async () => {
    const first = (await authenticate({ email_address: 'ada@acme.test', password: PASSWORD })).body
      .data;
    const again = await authenticate(
      { email_address: 'ada@acme.test', password: PASSWORD },
      { token: first.session_token },
    );
    expect(again.body.data.member_session.member_session_id).toBe(
      first.member_session.member_session_id,
    );
    expect(again.body.data.session_token).toBe(first.session_token);
  });
});

describe('lockout', () => {
  it('locks a member after 10 failures within the hour, until the window ends', async () => {
    await memberWithPassword('locked@acme.test');
    for (let i = 0; i < 10; i += 1) {
      const res = await authenticate({ email_address: 'locked@acme.test', password: 'wrong-one' });
      expect(res.body.error_type).toBe('unauthorized_credentials');
    }
    const locked = await authenticate({ email_address: 'locked@acme.test', password: PASSWORD });
    expect(locked.status).toBe(403);
    expect(locked.body.error_type).toBe('member_locked');
    expect(locked.body.error_message).toMatch(/Too many failed login attempts/);
    // Other members are not affected.
    expect(
      (await authenticate({ email_address: 'ada@acme.test', password: PASSWORD })).status,
    ).toBe(200);

    h.clock.advance(59 * 60_000);
    expect(
      (await authenticate({ email_address: 'locked@acme.test', password: PASSWORD })).status,
    ).toBe(403);
    h.clock.advance(60_000);
    const after = await authenticate({ email_address: 'locked@acme.test', password: PASSWORD });
    expect(after.status).toBe(200);
  });

  it('counts failures in a window opened by the first one, and a success starts over', async () => {
    await memberWithPassword('spread@acme.test');
    const fail = () => authenticate({ email_address: 'spread@acme.test', password: 'wrong-one' });
    for (let i = 0; i < 9; i += 1) await fail();
    // The window of those nine ends; the tenth failure opens a new one instead of locking.
    h.clock.advance(61 * 60_000);
    await fail();
    expect(
      (await authenticate({ email_address: 'spread@acme.test', password: PASSWORD })).status,
    ).toBe(200);
    for (let i = 0; i < 9; i += 1) await fail();
    // Nine since the success: not locked yet.
    expect(
      (await authenticate({ email_address: 'spread@acme.test', password: PASSWORD })).status,
    ).toBe(200);
  });

  it('is lifted by a new password', async () => {
    const member = await memberWithPassword('reset-lock@acme.test');
    for (let i = 0; i < 10; i += 1) {
      await authenticate({ email_address: 'reset-lock@acme.test', password: 'wrong-one' });
    }
    expect(
      (await authenticate({ email_address: 'reset-lock@acme.test', password: PASSWORD })).body
        .error_type,
    ).toBe('member_locked');
    await h.admin.setMemberPassword(h.project.project_id, member.member_id, {
      password: 'Another-Quartz-Lantern-7',
    });
    const res = await authenticate({
      email_address: 'reset-lock@acme.test',
      password: 'Another-Quartz-Lantern-7',
    });
    expect(res.status).toBe(200);
  });

  it('follows the configured limits', async () => {
    const strict = await startHarness({
      config: { passwordLockout: { maxFailures: 3, windowMinutes: 5 } },
    });
    try {
      await strict.admin.setMemberPassword(strict.project.project_id, strict.member.member_id, {
        password: PASSWORD,
      });
      const login = (password: string) =>
        strict.sdk('/b2b/passwords/authenticate', {
          body: {
            organization_id: strict.org.organization_id,
            email_address: 'ada@acme.test',
            password,
          },
        });
      for (let i = 0; i < 3; i += 1) await login('wrong-one');
      expect((await login(PASSWORD)).body.error_type).toBe('member_locked');
      strict.clock.advance(5 * 60_000);
      expect((await login(PASSWORD)).status).toBe(200);
    } finally {
      await strict.close();
    }
  });
});

describe('guessing from one address', () => {
  it('is limited per IP across members, with 429 and Retry-After', async () => {
    const limited = await startHarness({
      config: { rateLimits: { passwordAttemptsPerIpPerHour: 4 } },
    });
    try {
      const login = (email_address: string) =>
        limited.sdk('/b2b/passwords/authenticate', {
          body: {
            organization_id: limited.org.organization_id,
            email_address,
            password: 'guess-1',
          },
        });
      const statuses = [];
      for (const who of ['a', 'b', 'c', 'd', 'e'])
        statuses.push((await login(`${who}@acme.test`)).status);
      expect(statuses).toEqual([401, 401, 401, 401, 429]);
      const refused = await login('f@acme.test');
      expect(refused.body.error_type).toBe('too_many_requests');
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
      limited.clock.advance(60 * 60_000);
      expect((await login('g@acme.test')).status).toBe(401);
    } finally {
      await limited.close();
    }
  });
});

describe('imported hashes', () => {
  const api = (path: string, body: unknown) =>
    h.request(`/v1/b2b${path}`, {
      method: 'PUT',
      body,
      authorization: basic(h.project.project_id, h.project.secret),
      origin: null,
    });

  it('accepts a bcrypt hash through the management API and re-hashes it with argon2id at login', async () => {
    const member = await h.admin.createMember(h.project.project_id, h.org.organization_id, {
      email_address: 'imported@acme.test',
    });
    const bcrypt = await bcryptHash('legacy password 1', { cost: 10 });
    const set = await api(
      `/organizations/${h.org.organization_id}/members/${member.member_id}/password`,
      { password_hash: bcrypt },
    );
    expect(set.status).toBe(200);
    expect(set.body.data.member.member_password_id).toMatch(/^member-password-test-/);
    expect(set.body.data.organization.organization_id).toBe(h.org.organization_id);
    const stored = () =>
      h.db
        .selectFrom('passwords')
        .select('hash')
        .where('member_id', '=', member.member_id)
        .executeTakeFirstOrThrow();
    expect((await stored()).hash).toBe(bcrypt);

    const wrong = await authenticate({ email_address: 'imported@acme.test', password: 'legacy' });
    expect(wrong.status).toBe(401);
    expect((await stored()).hash).toBe(bcrypt);

    const res = await authenticate({
      email_address: 'imported@acme.test',
      password: 'legacy password 1',
    });
    expect(res.status).toBe(200);
    expect((await stored()).hash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    // The password id stays; only the hash changed.
    expect(res.body.data.member.member_password_id).toBe(set.body.data.member.member_password_id);
    const again = await authenticate({
      email_address: 'imported@acme.test',
      password: 'legacy password 1',
    });
    expect(again.status).toBe(200);
  });

  it('accepts a scrypt hash through the admin API', async () => {
    const member = await h.admin.createMember(h.project.project_id, h.org.organization_id, {
      email_address: 'scrypt@acme.test',
    });
    const salt = randomBytes(16);
    const derived = scryptSync('legacy scrypt 2', salt, 32, { N: 2 ** 14, r: 8, p: 1 });
    const phc = `$scrypt$ln=14,r=8,p=1$${salt.toString('base64').replace(/=+$/, '')}$${derived
      .toString('base64')
      .replace(/=+$/, '')}`;
    await h.admin.setMemberPassword(h.project.project_id, member.member_id, { hash: phc });
    const res = await authenticate({
      email_address: 'scrypt@acme.test',
      password: 'legacy scrypt 2',
    });
    expect(res.status).toBe(200);
    const row = await h.db
      .selectFrom('passwords')
      .select('hash')
      .where('member_id', '=', member.member_id)
      .executeTakeFirstOrThrow();
    expect(row.hash).toMatch(/^\$argon2id\$/);
  });

  it('validates what the management API is given', async () => {
    const path = `/organizations/${h.org.organization_id}/members/${h.member.member_id}/password`;
    const unknownFormat = await api(path, {
      password_hash: 'md5:5f4dcc3b5aa765d61d8327deb882cf99',
    });
    expect([unknownFormat.status, unknownFormat.body.error_type]).toEqual([400, 'invalid_request']);
    const both = await api(path, { password: PASSWORD, password_hash: '$2b$10$x' });
    expect([both.status, both.body.error_type]).toEqual([400, 'invalid_request']);
    const neither = await api(path, {});
    expect(neither.status).toBe(400);
    const weak = await api(path, { password: 'password1' });
    expect([weak.status, weak.body.error_type]).toEqual([400, 'weak_password']);
    const noMember = await api(
      `/organizations/${h.org.organization_id}/members/member-test-00000000-0000-4000-8000-000000000000/password`,
      { password: PASSWORD },
    );
    expect([noMember.status, noMember.body.error_type]).toEqual([404, 'member_not_found']);
    const noSecret = await h.request(`/v1/b2b${path}`, {
      method: 'PUT',
      body: { password: PASSWORD },
      origin: null,
    });
    expect(noSecret.status).toBe(401);
    // Ada's own password is unchanged by the refused attempts.
    expect(
      (await authenticate({ email_address: 'ada@acme.test', password: PASSWORD })).status,
    ).toBe(200);
  });
});

describe('intermediate sessions and MFA', () => {
  it('returns variant B under REQUIRED_FOR_ALL, and merges a matching IST on the next primary call', async () => {
    const org = await h.admin.createOrganization(h.project.project_id, {
      organization_name: 'Strict',
      organization_slug: 'strict',
      mfa_policy: 'REQUIRED_FOR_ALL',
    });
    const member = await h.admin.createMember(h.project.project_id, org.organization_id, {
      email_address: 'ada@acme.test',
    });
    await h.admin.setMemberPassword(h.project.project_id, member.member_id, { password: PASSWORD });
    const res = await authenticate({
      organization_id: org.organization_id,
      email_address: 'ada@acme.test',
      password: PASSWORD,
    });
    expect(res.status).toBe(200);
    const data = res.body.data;
    expect(data.member_authenticated).toBe(false);
    expect(data.member_session).toBeNull();
    expect([data.session_token, data.session_jwt]).toEqual(['', '']);
    expect(data.intermediate_session_token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(data.mfa_required).toEqual({ member_options: null, secondary_auth_initiated: null });
    expect(data.member.member_id).toBe(member.member_id);

    // The IST carries the password factor into a magic-link login of the same member.
    await h.sdk('/b2b/magic_links/email/login_or_signup', {
      body: { email_address: 'ada@acme.test', organization_id: org.organization_id },
    });
    const link = await h.sdk('/b2b/magic_links/authenticate', {
      body: {
        magic_links_token: await h.lastToken('ada@acme.test'),
        session_duration_minutes: 60,
        intermediate_session_token: data.intermediate_session_token,
      },
    });
    expect(link.status).toBe(200);
    expect(link.body.data.member_authenticated).toBe(false);
    const stored = await h.db
      .selectFrom('intermediate_sessions')
      .select('factors')
      .where('member_id', '=', member.member_id)
      .orderBy('created_at', 'desc')
      .execute();
    const types = stored.map((row) =>
      (JSON.parse(row.factors) as { type: string }[]).map((f) => f.type).sort(),
    );
    expect(types).toContainEqual(['magic_link', 'password']);
  });

  it("merges a magic link's IST into a password login of the same member", async () => {
    const org = await h.admin.getOrganizationBySlug(h.project.project_id, 'strict');
    if (!org) throw new Error('the previous test creates the strict organization');
    await h.sdk('/b2b/magic_links/email/login_or_signup', {
      body: { email_address: 'ada@acme.test', organization_id: org.organization_id },
    });
    const link = await h.sdk('/b2b/magic_links/authenticate', {
      body: { magic_links_token: await h.lastToken('ada@acme.test'), session_duration_minutes: 60 },
    });
    const ist = link.body.data.intermediate_session_token;
    const res = await authenticate({
      organization_id: org.organization_id,
      email_address: 'ada@acme.test',
      password: PASSWORD,
      intermediate_session_token: ist,
    });
    expect(res.body.data.member_authenticated).toBe(false);
    // ISTs are stored by the SHA-256 of the token.
    const hash = createHash('sha256')
      .update(res.body.data.intermediate_session_token)
      .digest('hex');
    const newest = await h.db
      .selectFrom('intermediate_sessions')
      .select('factors')
      .where('token_hash', '=', hash)
      .executeTakeFirstOrThrow();
    expect((JSON.parse(newest.factors) as { type: string }[]).map((f) => f.type).sort()).toEqual([
      'magic_link',
      'password',
    ]);
  });

  it('ignores a foreign IST', async () => {
    const res = await authenticate({
      email_address: 'ada@acme.test',
      password: PASSWORD,
      intermediate_session_token: 'not-a-real-intermediate-session-token-00000',
    });
    expect(res.status).toBe(200);
    expect(res.body.data.member_authenticated).toBe(true);
  });
});
