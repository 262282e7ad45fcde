// Password sign-in (§7.2): right and wrong passwords, look-alike failures, guess throttling, imported hashes, IST and MFA.
import { createHash, randomBytes, scryptSync } from 'node:crypto';
import { hash as bcryptHash } from '@node-rs/bcrypt';
import { ENDPOINTS, type RequestOf } from '@gatehouse/protocol/endpoints';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  basic,
  expectOk,
  expectSession,
  startHarness,
  type CallRequestOptions,
  type CallResponse,
  type Harness,
} from '../../test/harness.js';

const PASSWORD = 'Quartz-Lantern-Orbit-42';
const FAILURES = 'Invalid email or password.';

let h: Harness;
beforeAll(async () => {
  // Full-cost hashes: imported hashes are re-hashed with the production parameters, and an
  // unknown e-mail must cost as much as a real verification.
  vi.stubEnv('GATEHOUSE_TEST_FAST_HASH', '0');
  // One proxy hop is trusted, so a test can speak from several client IPs (X-Forwarded-For).
  h = await startHarness({ config: { trustProxy: 1 } });
  await h.admin.setMemberPassword(h.project.project_id, h.member.member_id, { password: PASSWORD });
});
afterAll(async () => {
  await h.close();
  vi.unstubAllEnvs();
});

/** A sign-in body; the seeded organization unless told. */
type AuthenticateBody = Omit<
  RequestOf<typeof ENDPOINTS.passwordsAuthenticate>,
  'organization_id'
> & { organization_id?: string };
const authenticate = (body: AuthenticateBody, options: CallRequestOptions = {}) =>
  h.call(ENDPOINTS.passwordsAuthenticate, {
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
    const data = expectSession(res);
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
    const res = await h.call(ENDPOINTS.passwordsAuthenticate, {
      body: {
        organization_id: h.org.organization_id,
        email_address: 'ada@acme.test',
        password: PASSWORD,
        code_verifier: 'ignored-by-password-login',
      },
    });
    expect(res.status).toBe(200);
    const session = expectSession(res).member_session;
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
      expect(res.error?.error_type).toBe('unauthorized_credentials');
      expect(res.error?.error_message).toBe(FAILURES);
    }
    const lengths = answers.map((res) => res.text.length);
    // Only the request id differs, and it has the same length.
    expect(new Set(lengths).size).toBe(1);
    await h.db.deleteFrom('rate_limit_backoffs').execute();
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
    await h.db.deleteFrom('rate_limit_backoffs').execute();
    // Without the dummy verification an unknown e-mail would answer many times faster.
    expect(median(unknown)).toBeGreaterThan(median(known) * 0.5);
    expect(median(unknown)).toBeLessThan(median(known) * 2);
  });

  it('refuses bad input with schema or semantic errors', async () => {
    // Untyped: bodies the type refuses (fields missing, a number for the password).
    const missing = await h.sdk('/b2b/passwords/authenticate', { body: {} });
    expect(missing.status).toBe(400);
    expect(missing.error?.error_type).toBe('invalid_request');
    expect(missing.error?.body?.map((i) => i.dataPath).sort()).toEqual([
      '.email_address',
      '.organization_id',
      '.password',
    ]);
    const wrongType = await h.sdk('/b2b/passwords/authenticate', {
      body: {
        organization_id: h.org.organization_id,
        session_duration_minutes: 60,
        email_address: 'ada@acme.test',
        password: 42,
      },
    });
    expect([wrongType.status, wrongType.error?.body?.[0]?.dataPath]).toEqual([400, '.password']);
    const badDuration = await authenticate({
      email_address: 'ada@acme.test',
      password: PASSWORD,
      session_duration_minutes: 1,
    });
    expect(badDuration.error?.body?.[0]?.dataPath).toBe('.session_duration_minutes');
    const badEmail = await authenticate({ email_address: 'not-an-email', password: PASSWORD });
    expect([badEmail.status, badEmail.error?.error_type]).toEqual([400, 'invalid_email']);
    const noOrg = await authenticate({
      organization_id: 'organization-test-00000000-0000-4000-8000-000000000000',
      email_address: 'ada@acme.test',
      password: PASSWORD,
    });
    expect([noOrg.status, noOrg.error?.error_type]).toEqual([404, 'organization_not_found']);
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
    expect([res.status, res.error?.error_type]).toEqual([403, 'auth_method_not_allowed']);
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
    expect([res.status, res.error?.error_type]).toEqual([401, 'unauthorized_credentials']);
  });

  it('adds the factor to a presented session of the same member instead of starting another', async () => {
    const first = expectSession(
      await authenticate({ email_address: 'ada@acme.test', password: PASSWORD }),
    );
    const again = await authenticate(
      { email_address: 'ada@acme.test', password: PASSWORD },
      { token: first.session_token },
    );
    expect(expectSession(again).member_session.member_session_id).toBe(
      first.member_session.member_session_id,
    );
    expect(expectOk(again).session_token).toBe(first.session_token);
  });
});

/** Signs in to the seeded organization as if from `ip`. */
const fromIp = (ip: string, email: string, password: string) =>
  authenticate({ email_address: email, password }, { headers: { 'x-forwarded-for': ip } });

/** What a throttled answer shows, minus the request id. */
const refusal = (res: CallResponse<unknown>) => [
  res.status,
  res.error?.error_type,
  res.error?.error_message,
  res.headers.get('retry-after'),
];

describe('throttling guesses', () => {
  it('checks at most the free attempts of 40 concurrent guesses; the rest wait, the right one too', async () => {
    await memberWithPassword('race@acme.test');
    const guesses = await Promise.all(
      Array.from({ length: 40 }, (_, i) => fromIp('192.0.2.40', 'race@acme.test', `wrong-${i}`)),
    );
    const statuses = guesses.map((res) => res.status);
    // Each guess is counted before its password is checked: only five reach the check.
    expect(statuses.filter((status) => status === 401)).toHaveLength(5);
    expect(statuses.filter((status) => status === 429)).toHaveLength(35);
    for (const res of guesses.filter((r) => r.status === 429)) {
      expect(res.error?.error_type).toBe('too_many_requests');
      expect(res.headers.get('retry-after')).toBe('1');
    }
    const right = await fromIp('192.0.2.40', 'race@acme.test', PASSWORD);
    expect(refusal(right)).toEqual([
      429,
      'too_many_requests',
      'Too many failed attempts for this email address. Try again in 1 second, or log in with an email link or reset your password.',
      '1',
    ]);
    h.clock.advance(1000);
    expect((await fromIp('192.0.2.40', 'race@acme.test', PASSWORD)).status).toBe(200);
  });

  it('doubles the wait with each further failure, and a right password starts over', async () => {
    await memberWithPassword('slow@acme.test');
    const guess = (password = 'wrong-one') => fromIp('192.0.2.41', 'slow@acme.test', password);
    for (let i = 0; i < 5; i += 1) expect((await guess()).status).toBe(401);
    const waits = [];
    for (let i = 0; i < 4; i += 1) {
      const refused = await guess();
      expect(refused.status).toBe(429);
      const wait = Number(refused.headers.get('retry-after'));
      waits.push(wait);
      h.clock.advance(wait * 1000);
      expect((await guess()).status).toBe(401);
    }
    expect(waits).toEqual([1, 2, 4, 8]);
    h.clock.advance(16_000);
    expect((await guess(PASSWORD)).status).toBe(200);
    for (let i = 0; i < 5; i += 1) expect((await guess()).status).toBe(401);
    expect((await guess()).headers.get('retry-after')).toBe('1');
    // A quiet hour forgets the address and IP.
    h.clock.advance(60 * 60_000);
    expect((await guess(PASSWORD)).status).toBe(200);
  });

  it("does not let a stranger's wrong guesses lock the owner out", async () => {
    await memberWithPassword('owner@acme.test');
    const stranger = [];
    for (let i = 0; i < 10; i += 1) {
      stranger.push((await fromIp('203.0.113.7', 'owner@acme.test', `guess-${i}`)).status);
    }
    expect(stranger).toEqual([401, 401, 401, 401, 401, 429, 429, 429, 429, 429]);
    expect((await fromIp('198.51.100.2', 'owner@acme.test', PASSWORD)).status).toBe(200);
  });

  it('treats an unknown address exactly like a member', async () => {
    await memberWithPassword('someone@acme.test');
    const run = async (email: string) => {
      const answers = [];
      for (let i = 0; i < 7; i += 1) {
        answers.push(refusal(await fromIp('192.0.2.42', email, `guess-${i}`)));
      }
      h.clock.advance(1000);
      answers.push(refusal(await fromIp('192.0.2.42', email, 'guess-again')));
      answers.push(refusal(await fromIp('192.0.2.42', email, 'guess-again')));
      return answers;
    };
    const member = await run('someone@acme.test');
    const unknown = await run('no-one@acme.test');
    expect(unknown).toEqual(member);
    expect(member.map(([status]) => status)).toEqual([401, 401, 401, 401, 401, 429, 429, 401, 429]);
  });
});

describe('the ceiling per address across IPs', () => {
  let strict: Harness;
  beforeAll(async () => {
    strict = await startHarness({
      config: { trustProxy: 1, passwordThrottle: { attemptsPerEmail: 3, windowMinutes: 60 } },
    });
    await strict.admin.setMemberPassword(strict.project.project_id, strict.member.member_id, {
      password: PASSWORD,
    });
  });
  afterAll(async () => {
    await strict.close();
  });

  const login = (ip: string, email: string, password: string) =>
    strict.call(ENDPOINTS.passwordsAuthenticate, {
      body: { organization_id: strict.org.organization_id, email_address: email, password },
      headers: { 'x-forwarded-for': ip },
    });
  const mailsTo = async (to: string) =>
    (await strict.admin.listOutbox({ limit: 100 })).filter((m) => m.to === to);

  /** Three wrong guesses from three IPs, then three more tries from fresh IPs. */
  const spray = async (email: string, last: string) => {
    const answers = [];
    for (const n of [1, 2, 3]) answers.push(refusal(await login(`10.0.0.${n}`, email, 'wrong')));
    for (const n of [4, 5, 6]) answers.push(refusal(await login(`10.0.0.${n}`, email, last)));
    return answers;
  };

  it('pauses password login for the address, and e-mails the member once a login link that works', async () => {
    const member = await spray('ada@acme.test', PASSWORD);
    const paused = [
      429,
      'too_many_requests',
      expect.stringMatching(
        /^Password login for this email address is paused after too many failed attempts\. Try again in \d+ (seconds?|minutes?), or log in with an email link or reset your password\.$/,
      ),
      expect.stringMatching(/^\d+$/),
    ];
    expect(member.slice(0, 3).map(([status]) => status)).toEqual([401, 401, 401]);
    expect(member.slice(3)).toEqual([paused, paused, paused]);

    // The same answers for an address nobody has, and no e-mail.
    const unknown = await spray('nobody@acme.test', PASSWORD);
    expect(unknown).toEqual(member);
    expect(await mailsTo('nobody@acme.test')).toEqual([]);

    const notices = (await mailsTo('ada@acme.test')).filter((m) => /paused/.test(m.subject));
    expect(notices).toHaveLength(1);
    const notice = notices[0];
    expect(notice?.subject).toBe('Password login to Acme is paused');
    expect(notice?.text).toContain('too many failed attempts');
    const link = new URL(notice?.links[0] ?? '');
    expect(link.searchParams.get('stytch_token_type')).toBe('multi_tenant_magic_links');
    const signedIn = await strict.call(ENDPOINTS.magicLinksAuthenticate, {
      body: {
        magic_links_token: link.searchParams.get('token') ?? '',
        session_duration_minutes: 60,
      },
    });
    expect(signedIn.status).toBe(200);
    expect(expectOk(signedIn).member.email_address).toBe('ada@acme.test');

    // Magic links keep working while password guessing is paused.
    const viaLink = await strict.login('ada@acme.test');
    expect(viaLink.member_authenticated).toBe(true);
    expect((await login('10.0.0.9', 'ada@acme.test', PASSWORD)).status).toBe(429);

    // The pause ends with its window.
    strict.clock.advance(60 * 60_000);
    expect((await login('10.0.0.9', 'ada@acme.test', PASSWORD)).status).toBe(200);
  });

  it('is lifted by a new password, and right passwords do not count towards it', async () => {
    const member = await strict.admin.createMember(
      strict.project.project_id,
      strict.org.organization_id,
      { email_address: 'lifted@acme.test' },
    );
    await strict.admin.setMemberPassword(strict.project.project_id, member.member_id, {
      password: PASSWORD,
    });
    for (let i = 0; i < 5; i += 1) {
      expect((await login(`10.1.0.${i}`, 'lifted@acme.test', PASSWORD)).status).toBe(200);
    }
    for (const n of [1, 2, 3]) await login(`10.1.1.${n}`, 'lifted@acme.test', 'wrong');
    expect((await login('10.1.1.4', 'lifted@acme.test', PASSWORD)).status).toBe(429);
    await strict.admin.setMemberPassword(strict.project.project_id, member.member_id, {
      password: 'Another-Quartz-Lantern-7',
    });
    const res = await login('10.1.1.4', 'lifted@acme.test', 'Another-Quartz-Lantern-7');
    expect(res.status).toBe(200);
  });
});

describe('guessing from one address', () => {
  it('is limited per IP across members, with 429 and Retry-After', async () => {
    const limited = await startHarness({
      config: { rateLimits: { passwordAttemptsPerIpPerHour: 4 } },
    });
    try {
      const login = (email_address: string) =>
        limited.call(ENDPOINTS.passwordsAuthenticate, {
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
      expect(refused.error?.error_type).toBe('too_many_requests');
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
      limited.clock.advance(60 * 60_000);
      expect((await login('g@acme.test')).status).toBe(401);
    } finally {
      await limited.close();
    }
  });
});

describe('imported hashes', () => {
  const setPassword = (
    memberId: string,
    body: RequestOf<typeof ENDPOINTS.setMemberPassword>,
    options: CallRequestOptions = {},
  ) =>
    h.call(ENDPOINTS.setMemberPassword, {
      params: { organization_id: h.org.organization_id, member_id: memberId },
      body,
      ...options,
    });

  it('accepts a bcrypt hash through the management API and re-hashes it with argon2id at login', async () => {
    const member = await h.admin.createMember(h.project.project_id, h.org.organization_id, {
      email_address: 'imported@acme.test',
    });
    const bcrypt = await bcryptHash('legacy password 1', { cost: 10 });
    const set = await setPassword(member.member_id, { password_hash: bcrypt });
    expect(set.status).toBe(200);
    expect(expectOk(set).member.member_password_id).toMatch(/^member-password-test-/);
    expect(expectOk(set).organization.organization_id).toBe(h.org.organization_id);
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
    expect(expectOk(res).member.member_password_id).toBe(expectOk(set).member.member_password_id);
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
    const ada = h.member.member_id;
    const unknownFormat = await setPassword(ada, {
      password_hash: 'md5:5f4dcc3b5aa765d61d8327deb882cf99',
    });
    expect([unknownFormat.status, unknownFormat.error?.error_type]).toEqual([
      400,
      'invalid_request',
    ]);
    // Both and neither pass the type (each field is optional) but not the schema's refinement.
    const both = await setPassword(ada, { password: PASSWORD, password_hash: '$2b$10$x' });
    expect([both.status, both.error?.error_type]).toEqual([400, 'invalid_request']);
    const neither = await setPassword(ada, {});
    expect(neither.status).toBe(400);
    const weak = await setPassword(ada, { password: 'password1' });
    expect([weak.status, weak.error?.error_type]).toEqual([400, 'weak_password']);
    const noMember = await setPassword('member-test-00000000-0000-4000-8000-000000000000', {
      password: PASSWORD,
    });
    expect([noMember.status, noMember.error?.error_type]).toEqual([404, 'member_not_found']);
    // The public token is no secret key.
    const noSecret = await setPassword(
      ada,
      { password: PASSWORD },
      { authorization: basic(h.project.public_token, h.project.public_token) },
    );
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
    const data = expectOk(res);
    expect(data.member_authenticated).toBe(false);
    expect(data.member_session).toBeNull();
    expect([data.session_token, data.session_jwt]).toEqual(['', '']);
    expect(data.intermediate_session_token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(data.mfa_required).toEqual({ member_options: null, secondary_auth_initiated: null });
    expect(data.member.member_id).toBe(member.member_id);

    // The IST carries the password factor into a magic-link login of the same member.
    await h.call(ENDPOINTS.magicLinksLoginOrSignup, {
      body: { email_address: 'ada@acme.test', organization_id: org.organization_id },
    });
    const link = await h.call(ENDPOINTS.magicLinksAuthenticate, {
      body: {
        magic_links_token: await h.lastToken('ada@acme.test'),
        session_duration_minutes: 60,
        intermediate_session_token: data.intermediate_session_token,
      },
    });
    expect(link.status).toBe(200);
    expect(expectOk(link).member_authenticated).toBe(false);
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
    await h.call(ENDPOINTS.magicLinksLoginOrSignup, {
      body: { email_address: 'ada@acme.test', organization_id: org.organization_id },
    });
    const link = await h.call(ENDPOINTS.magicLinksAuthenticate, {
      body: { magic_links_token: await h.lastToken('ada@acme.test'), session_duration_minutes: 60 },
    });
    const ist = expectOk(link).intermediate_session_token;
    const res = await authenticate({
      organization_id: org.organization_id,
      email_address: 'ada@acme.test',
      password: PASSWORD,
      intermediate_session_token: ist,
    });
    expect(expectOk(res).member_authenticated).toBe(false);
    // ISTs are stored by the SHA-256 of the token.
    const hash = createHash('sha256')
      .update(expectOk(res).intermediate_session_token)
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
    expect(expectOk(res).member_authenticated).toBe(true);
  });
});
