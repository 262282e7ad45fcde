// TOTP as a second factor (§7.7, §9): variant B, enrollment, RFC 6238 checks with a controlled
// clock, replay, window edges, pending expiry, caller rules.
import { ENDPOINTS, type RequestOf } from '@gatehouse/protocol/endpoints';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectOk, startHarness, type Harness } from '../../test/harness.js';
import { magicLogin, mfaOrganization, totpAt } from '../../test/mfa.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h.close();
});

/** An MFA organization, a pending login of its member and a TOTP registration made with the IST. */
async function enrolling(slug: string, expiration_minutes?: number) {
  const { org, member, email } = await mfaOrganization(h, slug);
  const pending = await magicLogin(h, email, org.organization_id);
  const ids = { organization_id: org.organization_id, member_id: member.member_id };
  const ist = pending.intermediate_session_token;
  const created = await h.call(ENDPOINTS.totpCreate, {
    body: {
      ...ids,
      intermediate_session_token: ist,
      ...(expiration_minutes ? { expiration_minutes } : {}),
    },
  });
  expect(created.status).toBe(200);
  return { org, member, email, ids, ist, pending, totp: expectOk(created) };
}

const authenticate = (body: RequestOf<typeof ENDPOINTS.totpAuthenticate>, token?: string) =>
  h.call(ENDPOINTS.totpAuthenticate, { body, ...(token ? { token } : {}) });

describe('primary authentication in an organization that requires MFA', () => {
  it('answers variant B exactly: IST, member, organization, mfa_required, no session', async () => {
    const { org, member, email } = await mfaOrganization(h, 'variant-b');
    const data = await magicLogin(h, email, org.organization_id);
    expect(data).toMatchObject({
      member_id: member.member_id,
      member_session: null,
      session_token: '',
      session_jwt: '',
      member_authenticated: false,
      mfa_required: { member_options: null, secondary_auth_initiated: null },
    });
    expect(data.intermediate_session_token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(data.member.member_id).toBe(member.member_id);
    expect(data.organization).toMatchObject({
      organization_id: org.organization_id,
      mfa_policy: 'REQUIRED_FOR_ALL',
      mfa_methods: 'ALL_ALLOWED',
      allowed_mfa_methods: ['sms_otp', 'totp'],
    });
  });

  it('also stops a discovery exchange at variant B', async () => {
    const { org, email } = await mfaOrganization(h, 'via-discovery');
    await h.call(ENDPOINTS.magicLinksDiscoverySend, { body: { email_address: email } });
    const discovered = await h.call(ENDPOINTS.magicLinksDiscoveryAuthenticate, {
      body: { discovery_magic_links_token: await h.lastToken(email) },
    });
    const exchange = await h.call(ENDPOINTS.discoveryExchange, {
      body: {
        intermediate_session_token: expectOk(discovered).intermediate_session_token,
        organization_id: org.organization_id,
        session_duration_minutes: 60,
      },
    });
    expect(exchange.status).toBe(200);
    expect(expectOk(exchange).member_session).toBeNull();
    expect(expectOk(exchange).mfa_required).toEqual({
      member_options: null,
      secondary_auth_initiated: null,
    });
  });
});

describe('POST /b2b/totp', () => {
  it('returns a base32 secret, a PNG QR code and ten recovery codes; the secret is sealed at rest', async () => {
    const { member, totp } = await enrolling('create');
    expect(totp.totp_id).toMatch(/^member-totp-test-[0-9a-f-]{36}$/);
    expect(totp.secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(totp.qr_code).toMatch(/^data:image\/png;base64,[A-Za-z0-9+/]+=*$/);
    const png = Buffer.from(totp.qr_code.split(',')[1] ?? '', 'base64');
    expect(png.subarray(1, 4).toString('ascii')).toBe('PNG');
    expect(totp.recovery_codes).toHaveLength(10);
    for (const code of totp.recovery_codes)
      expect(code).toMatch(/^[a-z0-9]{4}-[a-z0-9]{4}-[a-z0-9]{4}$/);

    const row = await h.db
      .selectFrom('totp_registrations')
      .selectAll()
      .where('id', '=', totp.totp_id)
      .executeTakeFirstOrThrow();
    expect(row.member_id).toBe(member.member_id);
    expect(row.secret_encrypted).not.toContain(totp.secret);
    expect(row.secret_encrypted.startsWith('v1.')).toBe(true);
    expect(row.verified_at).toBeNull();
    // Pending for 60 minutes by default.
    expect(Date.parse(row.expires_at) - Date.parse(row.created_at)).toBe(60 * 60_000);
    const stored = await h.db
      .selectFrom('recovery_codes')
      .select('code_hash')
      .where('totp_registration_id', '=', totp.totp_id)
      .execute();
    expect(stored).toHaveLength(10);
    expect(stored.map((r) => r.code_hash)).not.toContain(totp.recovery_codes[0]);
  });

  it('honours expiration_minutes: a pending registration then expires', async () => {
    const { ids, ist, totp } = await enrolling('expiring', 5);
    h.clock.advance(5 * 60_000 + 1000);
    const res = await authenticate({
      ...ids,
      intermediate_session_token: ist,
      code: totpAt(totp.secret, h.clock.now),
    });
    expect([res.status, res.error?.error_type]).toEqual([404, 'totp_not_found']);
  });

  it('replaces an unconfirmed registration when a new one is created', async () => {
    const { ids, ist, totp: first } = await enrolling('recreate');
    const second = await h.call(ENDPOINTS.totpCreate, {
      body: { ...ids, intermediate_session_token: ist },
    });
    expect(second.status).toBe(200);
    const stale = await authenticate({
      ...ids,
      intermediate_session_token: ist,
      code: totpAt(first.secret, h.clock.now),
    });
    expect([stale.status, stale.error?.error_type]).toEqual([401, 'unauthorized_credentials']);
    const fresh = await authenticate({
      ...ids,
      intermediate_session_token: ist,
      code: totpAt(expectOk(second).secret, h.clock.now),
    });
    expect(fresh.status).toBe(200);
    expect(expectOk(fresh).member.totp_registration_id).toBe(expectOk(second).totp_id);
  });

  it('refuses a disallowed method with 403 mfa_method_not_allowed', async () => {
    const { org, member, email } = await mfaOrganization(h, 'sms-only', {
      mfa_methods: 'RESTRICTED',
      allowed_mfa_methods: ['sms_otp'],
    });
    const pending = await magicLogin(h, email, org.organization_id);
    const res = await h.call(ENDPOINTS.totpCreate, {
      body: {
        organization_id: org.organization_id,
        member_id: member.member_id,
        intermediate_session_token: pending.intermediate_session_token,
      },
    });
    expect([res.status, res.error?.error_type]).toEqual([403, 'mfa_method_not_allowed']);
  });
});

describe('POST /b2b/totp/authenticate', () => {
  it('exchanges the IST for a full session with both factors, and consumes the IST', async () => {
    const { ids, ist, totp, member } = await enrolling('complete');
    const res = await authenticate({
      ...ids,
      intermediate_session_token: ist,
      code: totpAt(totp.secret, h.clock.now),
      set_mfa_enrollment: 'enroll',
      set_default_mfa: true,
      session_duration_minutes: 30,
    });
    expect(res.status).toBe(200);
    const data = expectOk(res);
    expect(data.member_authenticated).toBe(true);
    expect(data.intermediate_session_token).toBe('');
    expect(data.mfa_required).toBeNull();
    expect(data.session_token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(data.session_jwt).not.toBe('');
    expect(Date.parse(data.member_session.expires_at) - h.clock.now).toBe(30 * 60_000);
    expect(
      data.member_session.authentication_factors.map((f) => [f.type, f.sequence_order]),
    ).toEqual([
      ['magic_link', 'PRIMARY'],
      ['totp', 'SECONDARY'],
    ]);
    expect(data.member).toMatchObject({
      member_id: member.member_id,
      totp_registration_id: totp.totp_id,
      mfa_enrolled: true,
      default_mfa_method: 'totp',
    });

    h.clock.advance(30_000);
    const again = await authenticate({
      ...ids,
      intermediate_session_token: ist,
      code: totpAt(totp.secret, h.clock.now),
    });
    expect([again.status, again.error?.error_type]).toEqual([
      404,
      'intermediate_session_not_found',
    ]);
  });

  it('rejects a wrong code with 401 and keeps the IST usable', async () => {
    const { ids, ist, totp } = await enrolling('wrong-code');
    const good = totpAt(totp.secret, h.clock.now);
    const wrong = good === '000000' ? '000001' : '000000';
    const res = await authenticate({ ...ids, intermediate_session_token: ist, code: wrong });
    expect([res.status, res.error?.error_type]).toEqual([401, 'unauthorized_credentials']);
    const ok = await authenticate({ ...ids, intermediate_session_token: ist, code: good });
    expect(ok.status).toBe(200);
  });

  it('never accepts the same code twice, even with a new login', async () => {
    const { ids, ist, totp, email, org } = await enrolling('replay');
    const code = totpAt(totp.secret, h.clock.now);
    expect((await authenticate({ ...ids, intermediate_session_token: ist, code })).status).toBe(
      200,
    );

    const second = await magicLogin(h, email, org.organization_id);
    expect(second.member.totp_registration_id).toBe(totp.totp_id);
    const replay = await authenticate({
      ...ids,
      intermediate_session_token: second.intermediate_session_token,
      code,
    });
    expect([replay.status, replay.error?.error_type]).toEqual([401, 'unauthorized_credentials']);
    h.clock.advance(30_000);
    const next = await authenticate({
      ...ids,
      intermediate_session_token: second.intermediate_session_token,
      code: totpAt(totp.secret, h.clock.now),
    });
    expect(next.status).toBe(200);
  });

  it('accepts one 30 s step either side, not two, and never a step at or before the last used', async () => {
    const { ids, ist, totp } = await enrolling('window');
    const now = h.clock.now;
    const at = (offsetSteps: number) =>
      authenticate({
        ...ids,
        intermediate_session_token: ist,
        code: totpAt(totp.secret, now + offsetSteps * 30_000),
      });
    // Failed attempts leave the IST usable; the first success consumes it, so check edges first.
    expect((await at(-2)).status).toBe(401);
    expect((await at(2)).status).toBe(401);
    expect((await at(-1)).status).toBe(200);
  });

  it('accepts a code one step ahead, after which the current step is refused', async () => {
    const { ids, ist, totp, email, org } = await enrolling('window-ahead');
    const now = h.clock.now;
    expect(
      (
        await authenticate({
          ...ids,
          intermediate_session_token: ist,
          code: totpAt(totp.secret, now + 30_000),
        })
      ).status,
    ).toBe(200);
    const again = await magicLogin(h, email, org.organization_id);
    const older = await authenticate({
      ...ids,
      intermediate_session_token: again.intermediate_session_token,
      code: totpAt(totp.secret, now),
    });
    expect([older.status, older.error?.error_type]).toEqual([401, 'unauthorized_credentials']);
  });

  it('answers 404 totp_not_found when the member has no registration', async () => {
    const { org, member, email } = await mfaOrganization(h, 'no-totp');
    const pending = await magicLogin(h, email, org.organization_id);
    const res = await authenticate({
      organization_id: org.organization_id,
      member_id: member.member_id,
      intermediate_session_token: pending.intermediate_session_token,
      code: '123456',
    });
    expect([res.status, res.error?.error_type]).toEqual([404, 'totp_not_found']);
  });
});

describe('callers of MFA calls', () => {
  it('refuses another member or organization than the IST’s with 401', async () => {
    const { ids, ist, totp } = await enrolling('mismatch');
    const code = totpAt(totp.secret, h.clock.now);
    const otherMember = await authenticate({
      ...ids,
      member_id: h.member.member_id,
      intermediate_session_token: ist,
      code,
    });
    expect([otherMember.status, otherMember.error?.error_type]).toEqual([
      401,
      'unauthorized_credentials',
    ]);
    const otherOrg = await authenticate({
      ...ids,
      organization_id: h.org.organization_id,
      intermediate_session_token: ist,
      code,
    });
    expect([otherOrg.status, otherOrg.error?.error_type]).toEqual([
      401,
      'unauthorized_credentials',
    ]);
    const create = await h.call(ENDPOINTS.totpCreate, {
      body: { ...ids, member_id: h.member.member_id, intermediate_session_token: ist },
    });
    expect([create.status, create.error?.error_type]).toEqual([401, 'unauthorized_credentials']);
  });

  it('answers 404 for an expired IST or one of another project, 401 with neither IST nor session', async () => {
    const { ids, ist } = await enrolling('ist-rules');
    const other = await h.admin.createProject({ name: 'Other' });
    const foreign = await h.call(ENDPOINTS.totpCreate, {
      body: { ...ids, intermediate_session_token: ist },
      publicToken: other.public_token,
    });
    expect([foreign.status, foreign.error?.error_type]).toEqual([
      404,
      'intermediate_session_not_found',
    ]);
    const none = await h.call(ENDPOINTS.totpCreate, { body: ids });
    expect([none.status, none.error?.error_type]).toEqual([401, 'unauthorized_credentials']);
    h.clock.advance(10 * 60_000 + 1000);
    const expired = await h.call(ENDPOINTS.totpCreate, {
      body: { ...ids, intermediate_session_token: ist },
    });
    expect([expired.status, expired.error?.error_type]).toEqual([
      404,
      'intermediate_session_not_found',
    ]);
  });

  it('does not let an IST add an authenticator app to a member who already has one', async () => {
    const { ids, ist, totp, email, org } = await enrolling('second-app');
    await authenticate({
      ...ids,
      intermediate_session_token: ist,
      code: totpAt(totp.secret, h.clock.now),
    });
    const again = await magicLogin(h, email, org.organization_id);
    const res = await h.call(ENDPOINTS.totpCreate, {
      body: { ...ids, intermediate_session_token: again.intermediate_session_token },
    });
    expect([res.status, res.error?.error_type]).toEqual([401, 'unauthorized_credentials']);
  });

  it('lets a signed-in member enroll later with the session, which gains the factor', async () => {
    const { org, member, email } = await mfaOrganization(h, 'enroll-later', {
      mfa_policy: 'OPTIONAL',
    });
    const login = await magicLogin(h, email, org.organization_id);
    expect(login.member_session).not.toBeNull();
    const ids = { organization_id: org.organization_id, member_id: member.member_id };
    const created = await h.call(ENDPOINTS.totpCreate, { body: ids, token: login.session_token });
    expect(created.status).toBe(200);
    const res = await authenticate(
      { ...ids, code: totpAt(expectOk(created).secret, h.clock.now), set_mfa_enrollment: 'enroll' },
      login.session_token,
    );
    expect(res.status).toBe(200);
    const data = expectOk(res);
    expect(data.session_token).toBe(login.session_token);
    expect(data.member_session.member_session_id).toBe(login.member_session?.member_session_id);
    expect(data.member_session.expires_at).toBe(login.member_session?.expires_at);
    expect(data.member_session.authentication_factors.map((f) => f.type)).toEqual([
      'magic_link',
      'totp',
    ]);

    // Enrolled now, so the next login asks for the second factor even though MFA is optional.
    const next = await magicLogin(h, email, org.organization_id);
    expect(next.member_session).toBeNull();
    expect(next.member.mfa_enrolled).toBe(true);
  });

  it('refuses a dead session with 404 session_not_found', async () => {
    const res = await h.call(ENDPOINTS.totpCreate, {
      body: { organization_id: h.org.organization_id, member_id: h.member.member_id },
      token: 'x'.repeat(43),
    });
    expect([res.status, res.error?.error_type]).toEqual([404, 'session_not_found']);
  });
});
