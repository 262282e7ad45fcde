// Second-factor lockout: wrong codes in a row lock TOTP (with recovery codes) or SMS across windows,
// until a sign-in by e-mail link or an administrator's unlock; a failed code never extends the IST.
import { ENDPOINTS } from '@gatehouse/protocol/endpoints';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { basic, expectOk, startHarness, type Harness } from '../test/harness.js';
import { lastSms, magicLogin, mfaOrganization, totpAt } from '../test/mfa.js';

const LOCK_AFTER = 5;
const PASSWORD = 'Quartz-Lantern-Orbit-42';

let h: Harness;
beforeAll(async () => {
  h = await startHarness({
    config: {
      rateLimits: {
        mfaFailuresBeforeLock: LOCK_AFTER,
        // The hourly limits are not what is tested here.
        mfaAttemptsPerMemberPerHour: 10_000,
        smsSendsPerMemberPerHour: 10_000,
        smsSendsPerNumberPerHour: 10_000,
      },
    },
  });
});
afterAll(async () => {
  await h.close();
});

/** A member of an MFA organization with a password. */
async function mfaMember(slug: string) {
  const { org, member, email } = await mfaOrganization(h, slug);
  await h.admin.setMemberPassword(h.project.project_id, member.member_id, { password: PASSWORD });
  const ids = { organization_id: org.organization_id, member_id: member.member_id };
  return { org, member, email, ids };
}

/** A password sign-in stopped at MFA: an IST that, unlike an e-mail link, unlocks nothing. */
async function passwordIst(email: string, organizationId: string): Promise<string> {
  const res = await h.call(ENDPOINTS.passwordsAuthenticate, {
    body: {
      organization_id: organizationId,
      email_address: email,
      password: PASSWORD,
      session_duration_minutes: 60,
    },
  });
  expect(res.status).toBe(200);
  expect(expectOk(res).member_authenticated).toBe(false);
  return expectOk(res).intermediate_session_token;
}

/** A member with a confirmed TOTP registration; returns its secret and recovery codes. */
async function totpMember(slug: string) {
  const m = await mfaMember(slug);
  const ist = (await magicLogin(h, m.email, m.org.organization_id)).intermediate_session_token;
  const created = await h.call(ENDPOINTS.totpCreate, {
    body: { ...m.ids, intermediate_session_token: ist },
  });
  const { secret, recovery_codes } = expectOk(created);
  const confirmed = await h.call(ENDPOINTS.totpAuthenticate, {
    body: { ...m.ids, intermediate_session_token: ist, code: totpAt(secret, h.clock.now) },
  });
  expect(confirmed.status).toBe(200);
  // The next code must come from a later step (a code never works twice).
  h.clock.advance(30_000);
  return { ...m, secret, recoveryCodes: recovery_codes };
}

function wrongTotp(secret: string): string {
  return totpAt(secret, h.clock.now) === '000000' ? '000001' : '000000';
}

/** Who an MFA call is about. */
type Ids = { organization_id: string; member_id: string };

const totp = (ids: Ids, ist: string, code: string) =>
  h.call(ENDPOINTS.totpAuthenticate, { body: { ...ids, intermediate_session_token: ist, code } });
const recover = (ids: Ids, ist: string, recovery_code: string) =>
  h.call(ENDPOINTS.recoveryCodesRecover, {
    body: { ...ids, intermediate_session_token: ist, recovery_code },
  });
const sms = (ids: Ids, ist: string, code: string) =>
  h.call(ENDPOINTS.smsAuthenticate, { body: { ...ids, intermediate_session_token: ist, code } });
const unlock = (organizationId: string, memberId: string, secret = h.project.secret) =>
  h.call(ENDPOINTS.unlockMemberMfa, {
    params: { organization_id: organizationId, member_id: memberId },
    authorization: basic(h.project.project_id, secret),
  });

describe('TOTP and recovery codes', () => {
  it('lock after the bound of wrong codes in a row, across windows, until an e-mail link sign-in', async () => {
    const m = await totpMember('lock-totp');
    const ist = await passwordIst(m.email, m.org.organization_id);
    for (let i = 0; i < LOCK_AFTER; i += 1) {
      expect((await totp(m.ids, ist, wrongTotp(m.secret))).status).toBe(401);
    }
    const right = await totp(m.ids, ist, totpAt(m.secret, h.clock.now));
    expect([right.status, right.error?.error_type]).toEqual([403, 'member_locked']);
    expect(right.error?.error_message).toMatch(/locked.*email link/);
    const code = await recover(m.ids, ist, m.recoveryCodes[0] ?? '');
    expect([code.status, code.error?.error_type]).toEqual([403, 'member_locked']);

    // Hours later (new rate-limit windows), a password sign-in does not lift the lock.
    h.clock.advance(3 * 60 * 60_000);
    const later = await passwordIst(m.email, m.org.organization_id);
    const still = await totp(m.ids, later, totpAt(m.secret, h.clock.now));
    expect([still.status, still.error?.error_type]).toEqual([403, 'member_locked']);

    // A sign-in by e-mail link proves the address too, and unlocks.
    const byLink = (await magicLogin(h, m.email, m.org.organization_id)).intermediate_session_token;
    const passed = await totp(m.ids, byLink, totpAt(m.secret, h.clock.now));
    expect(passed.status).toBe(200);
    expect(expectOk(passed).member_session).not.toBeNull();
  });

  it('count only failures in a row: a right code starts over', async () => {
    const m = await totpMember('lock-reset');
    for (let round = 0; round < 2; round += 1) {
      const ist = await passwordIst(m.email, m.org.organization_id);
      for (let i = 0; i < LOCK_AFTER - 1; i += 1) {
        expect((await totp(m.ids, ist, wrongTotp(m.secret))).status).toBe(401);
      }
      expect((await totp(m.ids, ist, totpAt(m.secret, h.clock.now))).status).toBe(200);
      h.clock.advance(30_000);
    }
    // Recovery codes share the count: four wrong ones and a right one also start over.
    const ist = await passwordIst(m.email, m.org.organization_id);
    for (let i = 0; i < LOCK_AFTER - 1; i += 1) {
      expect((await recover(m.ids, ist, 'aaaa-bbbb-cccc')).status).toBe(401);
    }
    expect((await recover(m.ids, ist, m.recoveryCodes[1] ?? '')).status).toBe(200);
  });

  it('concurrent wrong codes: no more than the bound are checked', async () => {
    const m = await totpMember('lock-race');
    const ist = await passwordIst(m.email, m.org.organization_id);
    const wrong = wrongTotp(m.secret);
    const results = await Promise.all(
      Array.from({ length: 3 * LOCK_AFTER }, () => totp(m.ids, ist, wrong)),
    );
    const statuses = results.map((r) => r.status);
    expect(statuses.filter((s) => s === 401)).toHaveLength(LOCK_AFTER);
    expect(statuses.filter((s) => s === 403)).toHaveLength(2 * LOCK_AFTER);
    const right = await totp(m.ids, ist, totpAt(m.secret, h.clock.now));
    expect([right.status, right.error?.error_type]).toEqual([403, 'member_locked']);
  });

  it('a failed code does not extend the intermediate session', async () => {
    const m = await totpMember('ist-no-extend');
    const ist = await passwordIst(m.email, m.org.organization_id);
    h.clock.advance(9 * 60_000);
    expect((await totp(m.ids, ist, wrongTotp(m.secret))).status).toBe(401);
    h.clock.advance(2 * 60_000);
    const late = await totp(m.ids, ist, totpAt(m.secret, h.clock.now));
    expect([late.status, late.error?.error_type]).toEqual([404, 'intermediate_session_not_found']);
  });
});

describe('SMS codes', () => {
  it('lock across codes, and an administrator can unlock them', async () => {
    const m = await mfaMember('lock-sms');
    const phone = '+14155550177';
    await h.admin.updateMember(h.project.project_id, m.member.member_id, {
      mfa_phone_number: phone,
      mfa_phone_number_verified: true,
      default_mfa_method: 'sms_otp',
    });
    // The sign-in texts the first code itself.
    const ist = await passwordIst(m.email, m.org.organization_id);
    const first = (await lastSms(h, phone)).code;
    const wrongFor = (code: string) => (code === '000000' ? '000001' : '000000');
    for (let i = 0; i < 3; i += 1) {
      expect((await sms(m.ids, ist, wrongFor(first))).status).toBe(401);
    }
    await h.call(ENDPOINTS.smsSend, { body: { ...m.ids, intermediate_session_token: ist } });
    const second = (await lastSms(h, phone)).code;
    for (let i = 3; i < LOCK_AFTER; i += 1) {
      expect((await sms(m.ids, ist, wrongFor(second))).status).toBe(401);
    }
    const locked = await sms(m.ids, ist, second);
    expect([locked.status, locked.error?.error_type]).toEqual([403, 'member_locked']);
    expect(locked.error?.error_message).toMatch(/text message codes are locked/);

    const unlocked = await unlock(m.org.organization_id, m.member.member_id);
    expect(unlocked.status).toBe(200);
    expect(expectOk(unlocked).member.member_id).toBe(m.member.member_id);
    expect(expectOk(unlocked).organization.organization_id).toBe(m.org.organization_id);
    const passed = await sms(m.ids, ist, second);
    expect(passed.status).toBe(200);
    expect(expectOk(passed).member_session).not.toBeNull();
  });
});

describe('POST /v1/b2b/organizations/:organization_id/members/:member_id/mfa/unlock', () => {
  it('needs the secret key and a member of that organization', async () => {
    const wrongSecret = await unlock(h.org.organization_id, h.member.member_id, 'secret-test-x');
    expect([wrongSecret.status, wrongSecret.error?.error_type]).toEqual([
      401,
      'unauthorized_credentials',
    ]);
    const other = await mfaOrganization(h, 'unlock-other');
    const foreign = await unlock(other.org.organization_id, h.member.member_id);
    expect([foreign.status, foreign.error?.error_type]).toEqual([404, 'member_not_found']);
    const publicToken = await unlock(
      h.org.organization_id,
      h.member.member_id,
      h.project.public_token,
    );
    expect([publicToken.status, publicToken.error?.error_type]).toEqual([
      401,
      'unauthorized_credentials',
    ]);
    // Another project's own valid secret cannot reach this project's member.
    const project = await h.admin.createProject({ name: 'Elsewhere' });
    const otherTenant = await h.call(ENDPOINTS.unlockMemberMfa, {
      params: { organization_id: h.org.organization_id, member_id: h.member.member_id },
      authorization: basic(project.project_id, project.secret),
    });
    expect(otherTenant.status).toBe(404);
    const unknownOrg = await unlock('organization-test-nope', h.member.member_id);
    expect([unknownOrg.status, unknownOrg.error?.error_type]).toEqual([
      404,
      'organization_not_found',
    ]);
  });
});
