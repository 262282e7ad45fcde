// SMS codes as a second factor (§7.7, §9): sends through the dev outbox (read over HTTP) and an HTTP
// provider (a local server), normalization, duplicates, expiry, attempt and send limits, auto-send.
import { createServer as createHttpServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ENDPOINTS, type RequestOf } from '@gatehouse/protocol/endpoints';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { configFromEnv } from '../../config.js';
import type { OutboxMessage } from '../../delivery/outbox.js';
import { expectOk, startHarness, type Harness } from '../../test/harness.js';
import { lastSms, magicLogin, mfaOrganization, smsCount } from '../../test/mfa.js';
import { OTP_MAX_ATTEMPTS } from '../../auth/otp-code.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h.close();
});

/** A pending login in a fresh MFA organization, with the ids and IST for MFA calls. */
async function pendingLogin(slug: string, options: Parameters<typeof mfaOrganization>[2] = {}) {
  const { org, member, email } = await mfaOrganization(h, slug, options);
  const pending = await magicLogin(h, email, org.organization_id);
  const ids = { organization_id: org.organization_id, member_id: member.member_id };
  return { org, member, email, pending, ids, ist: pending.intermediate_session_token };
}

const send = (body: RequestOf<typeof ENDPOINTS.smsSend>, target: Harness = h) =>
  target.call(ENDPOINTS.smsSend, { body });
const authenticate = (body: RequestOf<typeof ENDPOINTS.smsAuthenticate>, target: Harness = h) =>
  target.call(ENDPOINTS.smsAuthenticate, { body });
const memberRow = (id: string) =>
  h.db.selectFrom('members').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

describe('POST /b2b/otps/sms/send', () => {
  it('normalizes the number to E.164, stores it unverified and texts a 6-digit code', async () => {
    const { ids, ist } = await pendingLogin('sms-send');
    const res = await send({
      ...ids,
      intermediate_session_token: ist,
      mfa_phone_number: '(415) 555-0101',
    });
    expect(res.status).toBe(200);
    expect(expectOk(res).status_code).toBe(200);
    const inbox = await h.request('/_dev/inbox/messages', { authorization: null });
    // The dev inbox is outside the endpoint table: it lists the outbox's messages.
    const sms = (inbox.body as OutboxMessage[]).find((m) => m.channel === 'sms');
    expect(sms).toMatchObject({ channel: 'sms', to: '+14155550101', subject: '' });
    expect(sms?.text).toMatch(
      /^Your Acme Cloud verification code is \d{6}\. It expires in 2 minutes\.$/,
    );
    const row = await memberRow(ids.member_id);
    expect([row.mfa_phone_number, row.mfa_phone_verified]).toEqual(['+14155550101', 0]);
  });

  it('answers 400 invalid_phone_number for an unparsable number or none on file', async () => {
    const { ids, ist } = await pendingLogin('sms-invalid');
    const bad = await send({ ...ids, intermediate_session_token: ist, mfa_phone_number: '12' });
    expect([bad.status, bad.error?.error_type]).toEqual([400, 'invalid_phone_number']);
    const none = await send({ ...ids, intermediate_session_token: ist });
    expect([none.status, none.error?.error_type]).toEqual([400, 'invalid_phone_number']);
  });

  it('refuses a number another member of the organization has', async () => {
    const { org, ids, ist } = await pendingLogin('sms-duplicate');
    const other = await h.admin.createMember(h.project.project_id, org.organization_id, {
      email_address: 'other@sms-duplicate.test',
    });
    await h.admin.updateMember(h.project.project_id, other.member_id, {
      mfa_phone_number: '+1 415 555 0102',
    });
    const res = await send({
      ...ids,
      intermediate_session_token: ist,
      mfa_phone_number: '4155550102',
    });
    expect([res.status, res.error?.error_type]).toEqual([400, 'duplicate_member_phone_number']);
    // The same number in another organization is fine.
    const elsewhere = await pendingLogin('sms-duplicate-elsewhere');
    const ok = await send({
      ...elsewhere.ids,
      intermediate_session_token: elsewhere.ist,
      mfa_phone_number: '4155550102',
    });
    expect(ok.status).toBe(200);
  });

  it('refuses a disallowed method with 403 mfa_method_not_allowed', async () => {
    const { ids, ist } = await pendingLogin('totp-only', {
      mfa_methods: 'RESTRICTED',
      allowed_mfa_methods: ['totp'],
    });
    const res = await send({
      ...ids,
      intermediate_session_token: ist,
      mfa_phone_number: '4155550103',
    });
    expect([res.status, res.error?.error_type]).toEqual([403, 'mfa_method_not_allowed']);
  });

  it('refuses another member or organization than the IST’s with 401', async () => {
    const { ids, ist } = await pendingLogin('sms-mismatch');
    const res = await send({
      ...ids,
      member_id: h.member.member_id,
      intermediate_session_token: ist,
      mfa_phone_number: '4155550104',
    });
    expect([res.status, res.error?.error_type]).toEqual([401, 'unauthorized_credentials']);
    const org = await send({
      ...ids,
      organization_id: h.org.organization_id,
      intermediate_session_token: ist,
      mfa_phone_number: '4155550104',
    });
    expect([org.status, org.error?.error_type]).toEqual([401, 'unauthorized_credentials']);
  });
});

describe('POST /b2b/otps/sms/authenticate', () => {
  it('verifies the phone, applies set_mfa_enrollment and grants a session with both factors', async () => {
    const { ids, ist, member } = await pendingLogin('sms-auth');
    await send({ ...ids, intermediate_session_token: ist, mfa_phone_number: '+14155550111' });
    const { code } = await lastSms(h, '+14155550111');
    const res = await authenticate({
      ...ids,
      intermediate_session_token: ist,
      code,
      set_mfa_enrollment: 'enroll',
    });
    expect(res.status).toBe(200);
    const data = expectOk(res);
    expect(data.member_authenticated).toBe(true);
    expect(data.intermediate_session_token).toBe('');
    expect(data.mfa_required).toBeNull();
    expect(data.member).toMatchObject({
      member_id: member.member_id,
      mfa_phone_number: '+14155550111',
      mfa_phone_number_verified: true,
      mfa_enrolled: true,
    });
    expect(
      data.member_session.authentication_factors.map((f) => [
        f.type,
        f.delivery_method,
        f.sequence_order,
      ]),
    ).toEqual([
      ['magic_link', 'email', 'PRIMARY'],
      ['otp', 'sms', 'SECONDARY'],
    ]);
    // The code and the IST are both spent.
    const again = await authenticate({ ...ids, intermediate_session_token: ist, code });
    expect([again.status, again.error?.error_type]).toEqual([
      404,
      'intermediate_session_not_found',
    ]);
  });

  it('answers 401 for a wrong code and 404 otp_code_not_found with no code pending', async () => {
    const { ids, ist } = await pendingLogin('sms-wrong');
    const none = await authenticate({ ...ids, intermediate_session_token: ist, code: '123456' });
    expect([none.status, none.error?.error_type]).toEqual([404, 'otp_code_not_found']);
    await send({ ...ids, intermediate_session_token: ist, mfa_phone_number: '+14155550112' });
    const { code } = await lastSms(h, '+14155550112');
    const wrong = await authenticate({
      ...ids,
      intermediate_session_token: ist,
      code: code === '000000' ? '000001' : '000000',
    });
    expect([wrong.status, wrong.error?.error_type]).toEqual([401, 'unauthorized_credentials']);
    expect((await authenticate({ ...ids, intermediate_session_token: ist, code })).status).toBe(
      200,
    );
  });

  it('expires a code after 120 seconds', async () => {
    const { ids, ist } = await pendingLogin('sms-expiry');
    await send({ ...ids, intermediate_session_token: ist, mfa_phone_number: '+14155550113' });
    const { code } = await lastSms(h, '+14155550113');
    h.clock.advance(120_000);
    const res = await authenticate({ ...ids, intermediate_session_token: ist, code });
    expect([res.status, res.error?.error_type]).toEqual([404, 'otp_code_not_found']);
  });

  it('voids a code after five wrong attempts', async () => {
    const { ids, ist } = await pendingLogin('sms-attempts');
    await send({ ...ids, intermediate_session_token: ist, mfa_phone_number: '+14155550114' });
    const { code } = await lastSms(h, '+14155550114');
    const wrong = code === '000000' ? '000001' : '000000';
    for (let i = 0; i < 5; i++) {
      const res = await authenticate({ ...ids, intermediate_session_token: ist, code: wrong });
      expect(res.status).toBe(401);
    }
    const res = await authenticate({ ...ids, intermediate_session_token: ist, code });
    expect([res.status, res.error?.error_type]).toEqual([404, 'otp_code_not_found']);
  });

  it('counts attempts atomically: of wrong codes sent at once, at most five are compared', async () => {
    const { ids, ist } = await pendingLogin('sms-attempts-race');
    await send({ ...ids, intermediate_session_token: ist, mfa_phone_number: '+14155550116' });
    const { code } = await lastSms(h, '+14155550116');
    const wrong = code === '000000' ? '000001' : '000000';
    const results = await Promise.all(
      Array.from({ length: 12 }, () =>
        authenticate({ ...ids, intermediate_session_token: ist, code: wrong }),
      ),
    );
    const statuses = results.map((r) => r.status);
    expect(statuses.filter((s) => s === 401)).toHaveLength(OTP_MAX_ATTEMPTS);
    expect(statuses.filter((s) => s === 404)).toHaveLength(12 - OTP_MAX_ATTEMPTS);
    const row = await h.db
      .selectFrom('otp_codes')
      .select(['attempts', 'used_at'])
      .where('member_id', '=', ids.member_id)
      .executeTakeFirstOrThrow();
    expect(Number(row.attempts)).toBe(OTP_MAX_ATTEMPTS);
    expect(row.used_at).not.toBeNull();
    const right = await authenticate({ ...ids, intermediate_session_token: ist, code });
    expect([right.status, right.error?.error_type]).toEqual([404, 'otp_code_not_found']);
  });

  it('voids the previous code when a new one is sent', async () => {
    const { ids, ist } = await pendingLogin('sms-resend');
    await send({ ...ids, intermediate_session_token: ist, mfa_phone_number: '+14155550115' });
    const first = (await lastSms(h, '+14155550115')).code;
    await send({ ...ids, intermediate_session_token: ist });
    const second = (await lastSms(h, '+14155550115')).code;
    expect(await smsCount(h, '+14155550115')).toBe(2);
    if (first !== second) {
      const old = await authenticate({ ...ids, intermediate_session_token: ist, code: first });
      expect(old.status).toBe(401);
    }
    expect(
      (await authenticate({ ...ids, intermediate_session_token: ist, code: second })).status,
    ).toBe(200);
  });
});

describe('SMS at primary authentication (§9)', () => {
  it('texts a member with a verified phone at once and says so', async () => {
    const { org, member, email } = await mfaOrganization(h, 'sms-auto');
    await h.admin.updateMember(h.project.project_id, member.member_id, {
      mfa_phone_number: '+14155550121',
      mfa_phone_number_verified: true,
    });
    const pending = await magicLogin(h, email, org.organization_id);
    expect(pending.mfa_required).toEqual({
      member_options: { mfa_phone_number: '+14155550121' },
      secondary_auth_initiated: 'sms_otp',
    });
    const { code } = await lastSms(h, '+14155550121');
    const res = await authenticate({
      organization_id: org.organization_id,
      member_id: member.member_id,
      intermediate_session_token: pending.intermediate_session_token,
      code,
    });
    expect(res.status).toBe(200);
  });

  it('does not text when the member’s method is TOTP, or the phone is unverified', async () => {
    const { org, member, email } = await mfaOrganization(h, 'sms-not-auto');
    await h.admin.updateMember(h.project.project_id, member.member_id, {
      mfa_phone_number: '+14155550122',
    });
    const unverified = await magicLogin(h, email, org.organization_id);
    expect(unverified.mfa_required).toEqual({
      member_options: { mfa_phone_number: '+14155550122' },
      secondary_auth_initiated: null,
    });
    await h.admin.updateMember(h.project.project_id, member.member_id, {
      mfa_phone_number_verified: true,
      default_mfa_method: 'totp',
    });
    await h.db
      .updateTable('members')
      .set({ totp_registration_id: 'member-totp-test-00000000-0000-4000-8000-000000000000' })
      .where('id', '=', member.member_id)
      .execute();
    const totpDefault = await magicLogin(h, email, org.organization_id);
    expect(totpDefault.mfa_required?.secondary_auth_initiated).toBeNull();
    expect(await smsCount(h, '+14155550122')).toBe(0);
  });

  it('does not let an IST move a verified member to another number', async () => {
    const { org, member, email } = await mfaOrganization(h, 'sms-hijack');
    await h.admin.updateMember(h.project.project_id, member.member_id, {
      mfa_phone_number: '+14155550123',
      mfa_phone_number_verified: true,
    });
    const pending = await magicLogin(h, email, org.organization_id);
    const ids = { organization_id: org.organization_id, member_id: member.member_id };
    const res = await send({
      ...ids,
      intermediate_session_token: pending.intermediate_session_token,
      mfa_phone_number: '+14155550124',
    });
    expect([res.status, res.error?.error_type]).toEqual([401, 'unauthorized_credentials']);
    // Sending to the verified number needs no number at all.
    const resend = await send({
      ...ids,
      intermediate_session_token: pending.intermediate_session_token,
    });
    expect(resend.status).toBe(200);
    expect(await smsCount(h, '+14155550123')).toBe(2);
  });
});

describe('SMS send limits', () => {
  let limited: Harness;
  beforeAll(async () => {
    limited = await startHarness({
      config: {
        rateLimits: {
          sendsPerEmailPerHour: 1000,
          sendsPerIpPerHour: 10_000,
          searchesPerIpPerMinute: 10_000,
          smsSendsPerNumberPerHour: 3,
          smsSendsPerMemberPerHour: 4,
        },
      },
    });
  });
  afterAll(async () => {
    await limited.close();
  });

  it('answers 429 with Retry-After past the per-number and per-member limits', async () => {
    const { org, member, email } = await mfaOrganization(limited, 'limited');
    const pending = await magicLogin(limited, email, org.organization_id);
    const body = {
      organization_id: org.organization_id,
      member_id: member.member_id,
      intermediate_session_token: pending.intermediate_session_token,
      mfa_phone_number: '+14155550131',
    };
    for (let i = 0; i < 3; i++) expect((await send(body, limited)).status).toBe(200);
    const number = await send(body, limited);
    expect([number.status, number.error?.error_type]).toEqual([429, 'too_many_requests']);
    expect(Number(number.headers.get('retry-after'))).toBeGreaterThan(0);
    // A new number gets past the number's limit but not the member's (4 counted already).
    const member4 = await send({ ...body, mfa_phone_number: '+14155550132' }, limited);
    expect(member4.status).toBe(429);
    expect(await smsCount(limited, '+14155550132')).toBe(0);
  });
});

describe('the HTTP SMS provider', () => {
  let provider: Server;
  let received: {
    headers: IncomingMessage['headers'];
    body: { to: string; from: string; body: string };
  }[];
  let failing = false;
  /** While set, the provider holds its answer until the test releases it. */
  let hold: Promise<void> | null = null;
  let withProvider: Harness;

  beforeAll(async () => {
    received = [];
    provider = createHttpServer((req, res) => {
      let raw = '';
      req.on('data', (chunk: Buffer) => (raw += chunk.toString('utf8')));
      req.on('end', () => {
        received.push({
          headers: req.headers,
          body: JSON.parse(raw) as { to: string; from: string; body: string },
        });
        void (hold ?? Promise.resolve()).then(() => {
          res.writeHead(failing ? 503 : 201, { 'content-type': 'application/json' });
          res.end(failing ? '{"error":"down"}' : '{"id":"msg-1"}');
        });
      });
    });
    await new Promise<void>((resolve) => provider.listen(0, '127.0.0.1', resolve));
    const { port } = provider.address() as AddressInfo;
    withProvider = await startHarness({
      config: {
        sms: {
          url: `http://127.0.0.1:${port}/messages`,
          authToken: 'sms-secret',
          from: '+15550100',
        },
      },
    });
  });
  afterAll(async () => {
    await withProvider.close();
    await new Promise((resolve) => provider.close(resolve));
  });

  it('posts {to, from, body} with the bearer token, and the code it carries authenticates', async () => {
    const { org, member, email } = await mfaOrganization(withProvider, 'provider');
    await withProvider.admin.updateMember(withProvider.project.project_id, member.member_id, {
      mfa_phone_number: '+14155550141',
      mfa_phone_number_verified: true,
    });
    const pending = await magicLogin(withProvider, email, org.organization_id);
    expect(pending.mfa_required?.secondary_auth_initiated).toBe('sms_otp');
    expect(received).toHaveLength(1);
    const [request] = received;
    expect(request?.headers.authorization).toBe('Bearer sms-secret');
    expect(request?.headers['content-type']).toBe('application/json');
    expect(request?.body).toMatchObject({ to: '+14155550141', from: '+15550100' });
    const code = /\b(\d{6})\b/.exec(request?.body.body ?? '')?.[1];
    const res = await authenticate(
      {
        organization_id: org.organization_id,
        member_id: member.member_id,
        intermediate_session_token: pending.intermediate_session_token,
        code: code ?? '',
      },
      withProvider,
    );
    expect(res.status).toBe(200);
    // Nothing went to the dev outbox.
    expect(await smsCount(withProvider, '+14155550141')).toBe(0);
  });

  it('when the provider fails, the login still stops at MFA without claiming a send', async () => {
    failing = true;
    const { org, member, email } = await mfaOrganization(withProvider, 'provider-down');
    await withProvider.admin.updateMember(withProvider.project.project_id, member.member_id, {
      mfa_phone_number: '+14155550142',
      mfa_phone_number_verified: true,
    });
    const pending = await magicLogin(withProvider, email, org.organization_id);
    expect(pending.member_session).toBeNull();
    expect(pending.mfa_required?.secondary_auth_initiated).toBeNull();
    const sent = await send(
      {
        organization_id: org.organization_id,
        member_id: member.member_id,
        intermediate_session_token: pending.intermediate_session_token,
      },
      withProvider,
    );
    expect(sent.status).toBe(503);
    expect(sent.error?.error_type).toBe('sms_delivery_failed');
    expect(sent.error?.error_message).toMatch(/could not be sent/);
    failing = false;
  });

  it('texts only after the commit: a provider that takes its time holds no database lock', async () => {
    const { org, member, email } = await mfaOrganization(withProvider, 'provider-slow');
    await withProvider.admin.updateMember(withProvider.project.project_id, member.member_id, {
      mfa_phone_number: '+14155550143',
      mfa_phone_number_verified: true,
    });
    let release: () => void = () => undefined;
    hold = new Promise<void>((resolve) => (release = resolve));
    const before = received.length;
    const login = magicLogin(withProvider, email, org.organization_id);
    await vi.waitFor(() => expect(received.length).toBe(before + 1), { timeout: 10_000 });
    // The provider has the message and has not answered: the code is already committed, and
    // another connection writes freely.
    const stored = await withProvider.db
      .selectFrom('otp_codes')
      .select('id')
      .where('member_id', '=', member.member_id)
      .execute();
    expect(stored).toHaveLength(1);
    await withProvider.db
      .updateTable('members')
      .set({ name: 'Written while the provider waits' })
      .where('id', '=', member.member_id)
      .execute();
    release();
    hold = null;
    expect((await login).mfa_required?.secondary_auth_initiated).toBe('sms_otp');
  });

  it('is configured from SMS_PROVIDER_URL, SMS_PROVIDER_TOKEN and SMS_FROM', () => {
    expect(
      configFromEnv({
        SMS_PROVIDER_URL: 'https://sms.example/messages',
        SMS_PROVIDER_TOKEN: 't',
        SMS_FROM: 'Acme',
      }).sms,
    ).toEqual({ url: 'https://sms.example/messages', authToken: 't', from: 'Acme' });
    expect(configFromEnv({}).sms).toBeUndefined();
  });
});

describe('without an SMS provider or the dev inbox', () => {
  it('fails the send with 503 instead of dropping the code into an outbox', async () => {
    // Real SMTP settings turn the dev inbox off; nothing here sends e-mail.
    const prod = await startHarness({ config: { smtp: { host: '127.0.0.1', port: 9 } } });
    try {
      const { org, member, email } = await mfaOrganization(prod, 'no-provider');
      await prod.admin.setMemberPassword(prod.project.project_id, member.member_id, {
        password: 'a long and unusual passphrase 7',
      });
      const pending = await prod.call(ENDPOINTS.passwordsAuthenticate, {
        body: {
          organization_id: org.organization_id,
          email_address: email,
          password: 'a long and unusual passphrase 7',
          session_duration_minutes: 60,
        },
      });
      expect(expectOk(pending).member_session).toBeNull();
      const sent = await prod.call(ENDPOINTS.smsSend, {
        body: {
          organization_id: org.organization_id,
          member_id: member.member_id,
          intermediate_session_token: expectOk(pending).intermediate_session_token,
          mfa_phone_number: '+14155550143',
        },
      });
      expect([sent.status, sent.error?.error_type]).toEqual([503, 'sms_delivery_failed']);
      const stored = await prod.db.selectFrom('outbox').select('id').execute();
      expect(stored).toHaveLength(0);
    } finally {
      await prod.close();
    }
  });
});
