// The management API's otps.sms.send and authenticate: the member named by organization and id,
// the browser's rules for an IST or session beside it, the same limits, lockout and single use.
import { ENDPOINTS, type RequestOf } from '@gatehouse/protocol/endpoints';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { basic, expectOk, expectSession, startHarness, type Harness } from '../../test/harness.js';
import { lastSms, magicLogin, mfaOrganization, smsCount } from '../../test/mfa.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h.close();
});

/** A member of a fresh MFA organization, signed in up to the IST. */
async function pending(slug: string) {
  const { org, member, email } = await mfaOrganization(h, slug);
  const login = await magicLogin(h, email, org.organization_id);
  const ids = { organization_id: org.organization_id, member_id: member.member_id };
  return { org, member, ids, ist: login.intermediate_session_token };
}

const send = (body: RequestOf<typeof ENDPOINTS.backendSmsSend>, authorization?: string) =>
  h.call(ENDPOINTS.backendSmsSend, { body, ...(authorization ? { authorization } : {}) });
const authenticate = (body: RequestOf<typeof ENDPOINTS.backendSmsAuthenticate>) =>
  h.call(ENDPOINTS.backendSmsAuthenticate, { body });

describe('management otps.sms.send', () => {
  it('texts the member the secret key names, storing a new number unverified', async () => {
    const { ids, member } = await pending('backend-sms-send');
    const data = expectOk(await send({ ...ids, mfa_phone_number: '(415) 555-0201' }));
    expect(data.member_id).toBe(member.member_id);
    expect(data.organization.organization_id).toBe(ids.organization_id);
    expect(data.member).toMatchObject({
      mfa_phone_number: '+14155550201',
      mfa_phone_number_verified: false,
    });
    expect(await smsCount(h, '+14155550201')).toBe(1);
  });

  it('answers 404 for a member of another organization or project, and sends nothing', async () => {
    const { ids } = await pending('backend-sms-foreign');
    const wrongOrg = await send({
      ...ids,
      organization_id: h.org.organization_id,
      mfa_phone_number: '+14155550202',
    });
    expect([wrongOrg.status, wrongOrg.error?.error_type]).toEqual([404, 'member_not_found']);
    const other = await h.admin.createProject({ name: 'Elsewhere' });
    const foreign = await send(
      { ...ids, mfa_phone_number: '+14155550202' },
      basic(other.project_id, other.secret),
    );
    expect(foreign.status).toBe(404);
    expect(await smsCount(h, '+14155550202')).toBe(0);
  });

  it("holds an IST beside the member to the browser's rules: another member's is 401", async () => {
    const a = await pending('backend-sms-ist-a');
    const b = await pending('backend-sms-ist-b');
    const res = await send({ ...b.ids, intermediate_session_token: a.ist });
    expect([res.status, res.error?.error_type]).toEqual([401, 'unauthorized_credentials']);
  });
});

describe('management otps.sms.authenticate', () => {
  it('grants result F for the IST and verifies the number', async () => {
    const { ids, ist } = await pending('backend-sms-auth');
    await send({ ...ids, mfa_phone_number: '+14155550211' });
    const { code } = await lastSms(h, '+14155550211');
    const data = expectSession(
      await authenticate({ ...ids, intermediate_session_token: ist, code, set_default_mfa: true }),
    );
    expect(data.session_token).not.toBe('');
    expect(data.member).toMatchObject({
      mfa_phone_number_verified: true,
      default_mfa_method: 'sms_otp',
    });
    expect(data.member_session.authentication_factors.map((f) => f.delivery_method)).toEqual([
      'email',
      'sms',
    ]);
  });

  it('needs an IST or a session: the secret key alone grants no session', async () => {
    const { ids } = await pending('backend-sms-bare');
    await send({ ...ids, mfa_phone_number: '+14155550212' });
    const { code } = await lastSms(h, '+14155550212');
    const res = await authenticate({ ...ids, code });
    expect([res.status, res.error?.error_type]).toEqual([401, 'unauthorized_credentials']);
  });

  it('refuses a session token sent as an IST, a JWT alone and custom claims', async () => {
    const { ids, ist } = await pending('backend-sms-kinds');
    await send({ ...ids, mfa_phone_number: '+14155550213' });
    const { code } = await lastSms(h, '+14155550213');
    const login = await h.login(h.member.email_address);
    const sessionAsIst = await authenticate({
      ...ids,
      intermediate_session_token: login.session_token,
      code,
    });
    expect([sessionAsIst.status, sessionAsIst.error?.error_type]).toEqual([
      404,
      'intermediate_session_not_found',
    ]);
    const otherSession = await authenticate({ ...ids, session_token: login.session_token, code });
    expect([otherSession.status, otherSession.error?.error_type]).toEqual([
      401,
      'unauthorized_credentials',
    ]);
    const jwtAlone = await authenticate({ ...ids, session_jwt: login.session_jwt, code });
    expect([jwtAlone.status, jwtAlone.error?.error_type]).toEqual([400, 'invalid_request']);
    const claims = await authenticate({
      ...ids,
      intermediate_session_token: ist,
      code,
      session_custom_claims: { plan: 'gold' },
    });
    expect([claims.status, claims.error?.error_type]).toEqual([400, 'invalid_request']);
    // None of them spent the code.
    expect((await authenticate({ ...ids, intermediate_session_token: ist, code })).status).toBe(
      200,
    );
  });

  it('lets one of two concurrent authenticates of the same code win', async () => {
    const { ids, ist } = await pending('backend-sms-race');
    await send({ ...ids, mfa_phone_number: '+14155550214' });
    const { code } = await lastSms(h, '+14155550214');
    const results = await Promise.all([
      authenticate({ ...ids, intermediate_session_token: ist, code }),
      authenticate({ ...ids, intermediate_session_token: ist, code }),
    ]);
    expect(results.filter((r) => r.status === 200)).toHaveLength(1);
    const loser = results.find((r) => r.status !== 200);
    expect(loser?.status).toBeGreaterThanOrEqual(400);
    expect(loser?.status).toBeLessThan(500);
  });
});
