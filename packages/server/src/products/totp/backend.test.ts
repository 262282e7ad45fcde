// The management API's totps.create and authenticate and recoveryCodes.get, rotate and recover:
// the member named by organization and id, codes computed by the test, each code used once, and
// one member's codes worthless for another.
import { ENDPOINTS, type RequestOf } from '@gatehouse/protocol/endpoints';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectOk, expectSession, startHarness, type Harness } from '../../test/harness.js';
import { magicLogin, mfaOrganization, totpAt } from '../../test/mfa.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h.close();
});

/** A member of a fresh MFA organization, signed in up to the IST, with an app registered. */
async function enrolling(slug: string) {
  const { org, member, email } = await mfaOrganization(h, slug);
  const login = await magicLogin(h, email, org.organization_id);
  const ids = { organization_id: org.organization_id, member_id: member.member_id };
  const created = expectOk(await h.call(ENDPOINTS.backendTotpCreate, { body: ids }));
  return { ids, email, ist: login.intermediate_session_token, created };
}

const totpAuthenticate = (body: RequestOf<typeof ENDPOINTS.backendTotpAuthenticate>) =>
  h.call(ENDPOINTS.backendTotpAuthenticate, { body });
const recover = (body: RequestOf<typeof ENDPOINTS.backendRecoveryCodesRecover>) =>
  h.call(ENDPOINTS.backendRecoveryCodesRecover, { body });

describe('management totps', () => {
  it('creates a registration for the named member and passes MFA with its code', async () => {
    const { ids, ist, created } = await enrolling('backend-totp');
    expect(created.member_id).toBe(ids.member_id);
    expect(created.totp_registration_id).toMatch(/^member-totp-test-/);
    expect(created.qr_code).toMatch(/^data:image\/png;base64,/);
    expect(created.recovery_codes).toHaveLength(10);
    const data = expectSession(
      await totpAuthenticate({
        ...ids,
        intermediate_session_token: ist,
        code: totpAt(created.secret, h.clock.now),
        set_default_mfa: true,
      }),
    );
    expect(data.member).toMatchObject({
      totp_registration_id: created.totp_registration_id,
      default_mfa_method: 'totp',
    });
  });

  it("refuses member A's code for member B, and a code twice", async () => {
    const a = await enrolling('backend-totp-a');
    const b = await enrolling('backend-totp-b');
    const codeOfA = totpAt(a.created.secret, h.clock.now);
    const crossed = await totpAuthenticate({
      ...b.ids,
      intermediate_session_token: b.ist,
      code: codeOfA,
    });
    expect([crossed.status, crossed.error?.error_type]).toEqual([401, 'unauthorized_credentials']);
    const first = await totpAuthenticate({
      ...a.ids,
      intermediate_session_token: a.ist,
      code: codeOfA,
    });
    expect(first.status).toBe(200);
    const again = (await magicLogin(h, a.email, a.ids.organization_id)).intermediate_session_token;
    const replay = await totpAuthenticate({
      ...a.ids,
      intermediate_session_token: again,
      code: codeOfA,
    });
    expect(replay.status).toBe(401);
  });

  it('answers 404 for a member of another organization, and needs an IST or session to authenticate', async () => {
    const { ids, created } = await enrolling('backend-totp-foreign');
    const wrongOrg = await h.call(ENDPOINTS.backendTotpCreate, {
      body: { ...ids, organization_id: h.org.organization_id },
    });
    expect([wrongOrg.status, wrongOrg.error?.error_type]).toEqual([404, 'member_not_found']);
    const bare = await totpAuthenticate({ ...ids, code: totpAt(created.secret, h.clock.now) });
    expect([bare.status, bare.error?.error_type]).toEqual([401, 'unauthorized_credentials']);
  });
});

describe('management recoveryCodes', () => {
  /** A member enrolled through the management API, with a new IST for the next sign-in. */
  async function enrolled(slug: string) {
    const member = await enrolling(slug);
    expectSession(
      await totpAuthenticate({
        ...member.ids,
        intermediate_session_token: member.ist,
        code: totpAt(member.created.secret, h.clock.now),
      }),
    );
    const next = await magicLogin(h, member.email, member.ids.organization_id);
    return { ...member, ist: next.intermediate_session_token };
  }
  const get = (ids: { organization_id: string; member_id: string }) =>
    h.call(ENDPOINTS.backendRecoveryCodesGet, { params: ids });

  it('gets and rotates the named member’s codes', async () => {
    const { ids, created } = await enrolled('backend-codes');
    const listed = expectOk(await get(ids));
    expect(listed.member_id).toBe(ids.member_id);
    expect(listed.organization.organization_id).toBe(ids.organization_id);
    expect(listed.recovery_codes).toEqual(created.recovery_codes);
    const rotated = expectOk(await h.call(ENDPOINTS.backendRecoveryCodesRotate, { body: ids }));
    expect(rotated.recovery_codes).toHaveLength(10);
    expect(rotated.recovery_codes).not.toContain(created.recovery_codes[0]);
    expect(expectOk(await get(ids)).recovery_codes).toEqual(rotated.recovery_codes);
  });

  it('recovers once per code: the same code again is refused', async () => {
    const { ids, ist, email, created } = await enrolled('backend-codes-once');
    const [code] = created.recovery_codes;
    if (code === undefined) throw new Error('no recovery code');
    const first = expectOk(
      await recover({ ...ids, intermediate_session_token: ist, recovery_code: code }),
    );
    expect(first.recovery_codes_remaining).toBe(9);
    expect(first.member_session.authentication_factors.map((f) => f.type)).toContain(
      'recovery_code',
    );
    const again = (await magicLogin(h, email, ids.organization_id)).intermediate_session_token;
    const reused = await recover({
      ...ids,
      intermediate_session_token: again,
      recovery_code: code,
    });
    expect([reused.status, reused.error?.error_type]).toEqual([401, 'unauthorized_credentials']);
  });

  it("refuses member A's recovery code for member B, and another organization's member", async () => {
    const a = await enrolled('backend-codes-a');
    const b = await enrolled('backend-codes-b');
    const crossed = await recover({
      ...b.ids,
      intermediate_session_token: b.ist,
      recovery_code: a.created.recovery_codes[0] ?? '',
    });
    expect([crossed.status, crossed.error?.error_type]).toEqual([401, 'unauthorized_credentials']);
    const foreign = await get({ ...a.ids, organization_id: b.ids.organization_id });
    expect([foreign.status, foreign.error?.error_type]).toEqual([404, 'member_not_found']);
    const rotateForeign = await h.call(ENDPOINTS.backendRecoveryCodesRotate, {
      body: { ...a.ids, organization_id: b.ids.organization_id },
    });
    expect(rotateForeign.status).toBe(404);
    // A's codes are untouched by the refusals.
    expect(expectOk(await get(a.ids)).recovery_codes).toEqual(a.created.recovery_codes);
  });
});
