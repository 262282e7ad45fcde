// Recovery codes (§7.7): recover with an IST (single use, remaining count), rotate and get with a session.
import { ENDPOINTS, type RequestOf } from '@gatehouse/protocol/endpoints';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashRecoveryCode } from '../../crypto/recovery-codes.js';
import { expectOk, expectSession, startHarness, type Harness } from '../../test/harness.js';
import { magicLogin, mfaOrganization, totpAt } from '../../test/mfa.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h.close();
});

/** A member of an MFA organization enrolled with TOTP; returns the codes and the first session. */
async function enrolled(slug: string) {
  const { org, member, email } = await mfaOrganization(h, slug);
  const ids = { organization_id: org.organization_id, member_id: member.member_id };
  const pending = await magicLogin(h, email, org.organization_id);
  const created = await h.call(ENDPOINTS.totpCreate, {
    body: { ...ids, intermediate_session_token: pending.intermediate_session_token },
  });
  const { secret, recovery_codes } = expectOk(created);
  const session = await h.call(ENDPOINTS.totpAuthenticate, {
    body: {
      ...ids,
      intermediate_session_token: pending.intermediate_session_token,
      code: totpAt(secret, h.clock.now),
    },
  });
  expect(session.status).toBe(200);
  return {
    org,
    email,
    ids,
    codes: recovery_codes,
    sessionToken: expectOk(session).session_token,
    /** A new login of the member, stopped at MFA. */
    ist: async () => (await magicLogin(h, email, org.organization_id)).intermediate_session_token,
  };
}

const recover = (body: RequestOf<typeof ENDPOINTS.recoveryCodesRecover>) =>
  h.call(ENDPOINTS.recoveryCodesRecover, { body });

describe('POST /b2b/recovery_codes/recover', () => {
  it('passes MFA once per code and counts the codes left', async () => {
    const { ids, codes, ist } = await enrolled('recover');
    const first = await ist();
    const res = await recover({
      ...ids,
      intermediate_session_token: first,
      recovery_code: codes[0]!,
      session_duration_minutes: 45,
    });
    expect(res.status).toBe(200);
    const data = expectSession(res);
    expect(data.recovery_codes_remaining).toBe(9);
    expect(data.member_authenticated).toBe(true);
    expect(data.intermediate_session_token).toBe('');
    expect(Date.parse(data.member_session.expires_at) - h.clock.now).toBe(45 * 60_000);
    expect(
      data.member_session.authentication_factors.map((f) => [f.type, f.sequence_order]),
    ).toEqual([
      ['magic_link', 'PRIMARY'],
      ['recovery_code', 'SECONDARY'],
    ]);

    const second = await ist();
    const reuse = await recover({
      ...ids,
      intermediate_session_token: second,
      recovery_code: codes[0]!,
    });
    expect([reuse.status, reuse.error?.error_type]).toEqual([401, 'unauthorized_credentials']);
    // Case, spaces and dashes do not matter.
    const loose = codes[1]!.toUpperCase().replaceAll('-', ' ');
    const ok = await recover({ ...ids, intermediate_session_token: second, recovery_code: loose });
    expect(ok.status).toBe(200);
    expect(expectOk(ok).recovery_codes_remaining).toBe(8);
  });

  it('stores codes hashed and sealed, never in clear', async () => {
    const { ids, codes } = await enrolled('stored');
    const rows = await h.db
      .selectFrom('recovery_codes')
      .selectAll()
      .where('member_id', '=', ids.member_id)
      .execute();
    expect(rows.map((r) => r.code_hash).sort()).toEqual(codes.map(hashRecoveryCode).sort());
    for (const row of rows) {
      expect(row.code_encrypted.startsWith('v1.')).toBe(true);
      for (const code of codes) expect(row.code_encrypted).not.toContain(code);
    }
  });

  it('refuses another member than the IST’s, and members without TOTP', async () => {
    const { ids, codes, ist } = await enrolled('recover-mismatch');
    const token = await ist();
    const other = await recover({
      ...ids,
      member_id: h.member.member_id,
      intermediate_session_token: token,
      recovery_code: codes[0]!,
    });
    expect([other.status, other.error?.error_type]).toEqual([401, 'unauthorized_credentials']);

    const { org, member, email } = await mfaOrganization(h, 'recover-no-totp');
    const pending = await magicLogin(h, email, org.organization_id);
    const none = await recover({
      organization_id: org.organization_id,
      member_id: member.member_id,
      intermediate_session_token: pending.intermediate_session_token,
      recovery_code: codes[0]!,
    });
    expect([none.status, none.error?.error_type]).toEqual([404, 'totp_not_found']);
  });
});

describe('GET /b2b/recovery_codes and POST /b2b/recovery_codes/rotate', () => {
  it('lists the unused codes to the signed-in member', async () => {
    const { ids, codes, sessionToken, ist } = await enrolled('list');
    const listed = await h.call(ENDPOINTS.recoveryCodesGet, { token: sessionToken });
    expect(listed.status).toBe(200);
    expect(expectOk(listed).recovery_codes).toEqual(codes);
    await recover({ ...ids, intermediate_session_token: await ist(), recovery_code: codes[3]! });
    const after = await h.call(ENDPOINTS.recoveryCodesGet, { token: sessionToken });
    expect(expectOk(after).recovery_codes).toEqual(codes.filter((_, i) => i !== 3));
  });

  it('rotates to ten new codes; the old ones stop working', async () => {
    const { ids, codes, sessionToken, ist } = await enrolled('rotate');
    const rotated = await h.call(ENDPOINTS.recoveryCodesRotate, { token: sessionToken });
    expect(rotated.status).toBe(200);
    const fresh = expectOk(rotated).recovery_codes;
    expect(fresh).toHaveLength(10);
    expect(fresh.some((c) => codes.includes(c))).toBe(false);
    const old = await recover({
      ...ids,
      intermediate_session_token: await ist(),
      recovery_code: codes[0]!,
    });
    expect(old.status).toBe(401);
    const ok = await recover({
      ...ids,
      intermediate_session_token: await ist(),
      recovery_code: fresh[0]!,
    });
    expect([ok.status, ok.data?.recovery_codes_remaining]).toEqual([200, 9]);
  });

  it('needs a session (401 without, 404 when dead) and a TOTP registration', async () => {
    const anonymous = await h.call(ENDPOINTS.recoveryCodesGet);
    expect([anonymous.status, anonymous.error?.error_type]).toEqual([
      401,
      'unauthorized_credentials',
    ]);
    const dead = await h.call(ENDPOINTS.recoveryCodesRotate, { token: 'x'.repeat(43) });
    expect([dead.status, dead.error?.error_type]).toEqual([404, 'session_not_found']);
    const login = await h.login();
    const none = await h.call(ENDPOINTS.recoveryCodesGet, { token: login.session_token });
    expect([none.status, none.error?.error_type]).toEqual([404, 'totp_not_found']);
  });
});
