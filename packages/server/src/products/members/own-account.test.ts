// A signed-in member managing their own sign-in methods (docs/protocol.md §7.10): removing their
// own MFA phone number and authenticator app, changing their password with the current one, and
// rotating their recovery codes; other members, other organizations, ended sessions and
// concurrent rotations included.
import { ENDPOINTS } from '@gatehouse/protocol/endpoints';
import type { Member } from '@gatehouse/protocol';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  expectError,
  expectOk,
  startHarness,
  type CallResponse,
  type Harness,
} from '../../test/harness.js';
import { lastSms, totpAt } from '../../test/mfa.js';

vi.setConfig({ testTimeout: 30_000, hookTimeout: 30_000 });

const PASSWORD = 'correct horse battery staple 42';
const NEW_PASSWORD = 'a brand new passphrase for 2027';

let h: Harness;
let serial = 0;

beforeAll(async () => {
  h = await startHarness();
});

afterAll(async () => {
  await h?.close();
});

/** The error body of a refusal, after checking its status and type. */
function refused(res: CallResponse<unknown>, status: number, type: string) {
  expect(res.status).toBe(status);
  const body = expectError(res);
  expect(body.error_type).toBe(type);
  return body;
}

const current = async (member: Member) =>
  (
    await h.admin.getMember(h.project.project_id, member.organization_id, {
      member_id: member.member_id,
    })
  ).member;

/** A fresh member of the seeded organization, signed in by a login link. */
async function signedIn(organizationId?: string) {
  serial += 1;
  const email = `own${serial}@acme.test`;
  const member = await h.addMember(email, [], organizationId);
  const { session_token } = await h.login(email);
  return { member, email, token: session_token };
}

/** Enrolls an authenticator app with the session, which then holds the TOTP factor. */
async function enrollTotp(member: Member, token: string) {
  const ids = { organization_id: member.organization_id, member_id: member.member_id };
  const created = expectOk(await h.call(ENDPOINTS.totpCreate, { token, body: ids }));
  expectOk(
    await h.call(ENDPOINTS.totpAuthenticate, {
      token,
      body: { ...ids, code: totpAt(created.secret, h.clock.now) },
    }),
  );
  return created;
}

/** Enrolls a phone number with the session, which then holds the SMS factor. */
async function enrollPhone(member: Member, token: string) {
  const phone = `+14155553${String(100 + serial).padStart(3, '0')}`;
  const ids = { organization_id: member.organization_id, member_id: member.member_id };
  expectOk(await h.call(ENDPOINTS.smsSend, { token, body: { ...ids, mfa_phone_number: phone } }));
  const { code } = await lastSms(h, phone);
  expectOk(await h.call(ENDPOINTS.smsAuthenticate, { token, body: { ...ids, code } }));
  return phone;
}

const deleteOwnTotp = (token: string) => h.call(ENDPOINTS.memberDeleteSelfTotp, { token });
const deleteOwnPhone = (token: string) =>
  h.call(ENDPOINTS.memberDeleteSelfMfaPhoneNumber, { token });

describe('DELETE /b2b/organizations/members/deleteTOTP and deletePhoneNumber', () => {
  it('removes the caller’s own authenticator app, then answers totp_not_found', async () => {
    const { member, token } = await signedIn();
    await enrollTotp(member, token);
    expect((await current(member)).totp_registration_id).not.toBe('');
    const removed = expectOk(await deleteOwnTotp(token));
    expect(removed.member.totp_registration_id).toBe('');
    expect((await current(member)).totp_registration_id).toBe('');
    refused(await deleteOwnTotp(token), 404, 'totp_not_found');
  });

  it('removes the caller’s own phone number', async () => {
    const { member, token } = await signedIn();
    const phone = await enrollPhone(member, token);
    expect((await current(member)).mfa_phone_number).toBe(phone);
    const removed = expectOk(await deleteOwnPhone(token));
    expect(removed.member.mfa_phone_number).toBe('');
    expect((await current(member)).mfa_phone_number_verified).toBe(false);
  });

  it('touches no other member, of this organization or another', async () => {
    const me = await signedIn();
    const colleague = await signedIn();
    await enrollTotp(colleague.member, colleague.token);
    const theirs = expectOk(
      await h.call(ENDPOINTS.createOrganization, {
        body: { organization_name: 'Own Next Door', organization_slug: 'own-next-door' },
      }),
    ).organization;
    const neighbour = await h.addMember('own-next@door.test', [], theirs.organization_id);
    await h.admin.updateMember(h.project.project_id, neighbour.member_id, {
      mfa_phone_number: '+14155559999',
      mfa_phone_number_verified: true,
    });
    await enrollTotp(me.member, me.token);
    expectOk(await deleteOwnTotp(me.token));
    expectOk(await deleteOwnPhone(me.token));
    expect((await current(colleague.member)).totp_registration_id).not.toBe('');
    expect((await current(neighbour)).mfa_phone_number).toBe('+14155559999');
  });

  it('refuses a session that never passed the second factor the member now has', async () => {
    const { member, email, token: before } = await signedIn();
    // Signed in again and enrolled there: the first session holds only the login link.
    const { session_token: after } = await h.login(email);
    await enrollTotp(member, after);
    refused(await deleteOwnTotp(before), 403, 'unauthorized_action');
    refused(await deleteOwnPhone(before), 403, 'unauthorized_action');
    expect((await current(member)).totp_registration_id).not.toBe('');
    expectOk(await deleteOwnTotp(after));
  });

  it('refuses an ended session and no session at all', async () => {
    const { member, token } = await signedIn();
    await enrollTotp(member, token);
    expectOk(await h.call(ENDPOINTS.sessionsRevoke, { token }));
    refused(await deleteOwnTotp(token), 404, 'session_not_found');
    expect((await h.call(ENDPOINTS.memberDeleteSelfTotp, {})).status).toBe(401);
    expect((await current(member)).totp_registration_id).not.toBe('');
  });
});

describe('POST /b2b/passwords/session/reset with existing_password', () => {
  const reset = (token: string, body: { password: string; existing_password?: string }) =>
    h.call(ENDPOINTS.passwordsResetSession, { token, body });
  const signInWith = (member: Member, password: string) =>
    h.call(ENDPOINTS.passwordsAuthenticate, {
      body: {
        organization_id: member.organization_id,
        email_address: member.email_address,
        password,
        session_duration_minutes: 60,
      },
    });

  it('changes the password only when the current one is right', async () => {
    const { member } = await signedIn();
    await h.admin.setMemberPassword(h.project.project_id, member.member_id, {
      password: PASSWORD,
    });
    const { session_token } = await h.login(member.email_address);
    const wrong = refused(
      await reset(session_token, { password: NEW_PASSWORD, existing_password: 'not it at all' }),
      400,
      'existing_password_mismatch',
    );
    expect(wrong.error_message).toMatch(/current password/);
    expect((await signInWith(member, PASSWORD)).status).toBe(200);
    const changed = await reset(session_token, {
      password: NEW_PASSWORD,
      existing_password: PASSWORD,
    });
    expect(changed.status).toBe(200);
    expect((await signInWith(member, NEW_PASSWORD)).status).toBe(200);
    expect((await signInWith(member, PASSWORD)).status).toBe(401);
  });

  it('refuses an existing_password from a member who has none', async () => {
    const { token } = await signedIn();
    refused(
      await reset(token, { password: NEW_PASSWORD, existing_password: PASSWORD }),
      400,
      'existing_password_mismatch',
    );
  });

  it('throttles guesses of the current password like sign-ins', async () => {
    const { member } = await signedIn();
    await h.admin.setMemberPassword(h.project.project_id, member.member_id, {
      password: PASSWORD,
    });
    const { session_token } = await h.login(member.email_address);
    const statuses: number[] = [];
    for (let i = 0; i < 12; i += 1) {
      const res = await reset(session_token, {
        password: NEW_PASSWORD,
        existing_password: `guess number ${i}`,
      });
      statuses.push(res.status);
    }
    expect(statuses).toContain(429);
    expect(statuses.every((s) => s === 400 || s === 429)).toBe(true);
  });

  it('refuses an ended session', async () => {
    const { member } = await signedIn();
    await h.admin.setMemberPassword(h.project.project_id, member.member_id, {
      password: PASSWORD,
    });
    const { session_token: token } = await h.login(member.email_address);
    expectOk(await h.call(ENDPOINTS.sessionsRevoke, { token }));
    const res = await reset(token, { password: NEW_PASSWORD, existing_password: PASSWORD });
    refused(res, 404, 'session_not_found');
    expect((await signInWith(member, PASSWORD)).status).toBe(200);
  });
});

describe('POST /b2b/recovery_codes/rotate', () => {
  it('leaves exactly one set of codes after concurrent rotations', async () => {
    const { member, token } = await signedIn();
    await enrollTotp(member, token);
    const answers = await Promise.all(
      [1, 2, 3].map(() => h.call(ENDPOINTS.recoveryCodesRotate, { token })),
    );
    const sets = answers.map((a) => expectOk(a).recovery_codes);
    const stored = expectOk(await h.call(ENDPOINTS.recoveryCodesGet, { token })).recovery_codes;
    expect(stored).toHaveLength(10);
    expect(sets.some((set) => set.join() === stored.join())).toBe(true);
  });

  it('rotates only the caller’s own codes', async () => {
    const me = await signedIn();
    const other = await signedIn();
    await enrollTotp(me.member, me.token);
    await enrollTotp(other.member, other.token);
    const theirs = expectOk(
      await h.call(ENDPOINTS.recoveryCodesGet, { token: other.token }),
    ).recovery_codes;
    expectOk(await h.call(ENDPOINTS.recoveryCodesRotate, { token: me.token }));
    const after = expectOk(
      await h.call(ENDPOINTS.recoveryCodesGet, { token: other.token }),
    ).recovery_codes;
    expect(after).toEqual(theirs);
  });
});
