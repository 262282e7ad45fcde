// An organization's admins resetting a member's MFA phone number, authenticator app and password
// with their own session (docs/protocol.md §7.10), under `stytch.member`
// `update.info.delete.mfa-phone`, `…mfa-totp` and `…password`, within the caller's organization
// only; concurrent duplicate requests included.
import { ENDPOINTS } from '@gatehouse/protocol/endpoints';
import type { Member } from '@gatehouse/protocol';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { expectError, expectOk, startHarness, type Harness } from '../../test/harness.js';
import { totpAt } from '../../test/mfa.js';

vi.setConfig({ testTimeout: 30_000, hookTimeout: 30_000 });

const PASSWORD = 'correct horse battery staple 42';

let h: Harness;
/** Sessions: an admin and a plain member. */
let boss: string;
let plain: string;
/** A member of another organization of the same project. */
let neighbour: Member;
let serial = 0;

beforeAll(async () => {
  h = await startHarness();
  await h.addMember('boss@acme.test', ['admin']);
  await h.addMember('plain@acme.test');
  boss = (await h.login('boss@acme.test')).session_token;
  plain = (await h.login('plain@acme.test')).session_token;
  const theirs = expectOk(
    await h.call(ENDPOINTS.createOrganization, {
      body: { organization_name: 'Next Door', organization_slug: 'next-door-reset' },
    }),
  ).organization;
  neighbour = await h.addMember('next@door.test', [], theirs.organization_id);
});

afterAll(async () => {
  await h?.close();
});

const fresh = () => h.addMember(`reset${(serial += 1)}@acme.test`);

const current = async (member: Member) =>
  (
    await h.admin.getMember(h.project.project_id, member.organization_id, {
      member_id: member.member_id,
    })
  ).member;

async function withPhone(member: Member): Promise<Member> {
  await h.admin.updateMember(h.project.project_id, member.member_id, {
    mfa_phone_number: `+1 415 555 ${String(2600 + serial)}`,
    mfa_phone_number_verified: true,
    default_mfa_method: 'sms_otp',
  });
  return current(member);
}

async function withTotp(member: Member): Promise<Member> {
  const { session_token } = await h.login(member.email_address);
  const ids = { organization_id: member.organization_id, member_id: member.member_id };
  const { secret } = expectOk(
    await h.call(ENDPOINTS.totpCreate, { token: session_token, body: ids }),
  );
  expectOk(
    await h.call(ENDPOINTS.totpAuthenticate, {
      token: session_token,
      body: { ...ids, code: totpAt(secret, h.clock.now) },
    }),
  );
  return current(member);
}

const withPassword = (member: Member) =>
  h.admin.setMemberPassword(h.project.project_id, member.member_id, { password: PASSWORD });

const deletePhone = (token: string | undefined, memberId: string) =>
  h.call(ENDPOINTS.memberDeleteMfaPhoneNumber, {
    ...(token ? { token } : {}),
    params: { member_id: memberId },
  });
const deleteTotp = (token: string | undefined, memberId: string) =>
  h.call(ENDPOINTS.memberDeleteTotp, {
    ...(token ? { token } : {}),
    params: { member_id: memberId },
  });
const deletePassword = (token: string | undefined, passwordId: string) =>
  h.call(ENDPOINTS.memberDeletePassword, {
    ...(token ? { token } : {}),
    params: { member_password_id: passwordId },
  });

describe("removing a member's MFA phone number with a session", () => {
  it('removes the number and SMS as the default method, answering the member and organization', async () => {
    const member = await withPhone(await fresh());
    expect(member.mfa_phone_number).not.toBe('');
    const data = expectOk(await deletePhone(boss, member.member_id));
    expect(data.member_id).toBe(member.member_id);
    expect(data.organization.organization_id).toBe(h.org.organization_id);
    expect(data.member).toMatchObject({
      mfa_phone_number: '',
      mfa_phone_number_verified: false,
      default_mfa_method: '',
    });
    expect((await current(member)).mfa_phone_number).toBe('');
  });

  it('answers a member without a number unchanged', async () => {
    const member = await fresh();
    const data = expectOk(await deletePhone(boss, member.member_id));
    expect(data.member.mfa_phone_number).toBe('');
  });

  it('refuses a plain member with 403 unauthorized_action and keeps the number', async () => {
    const member = await withPhone(await fresh());
    const denied = await deletePhone(plain, member.member_id);
    expect([denied.status, expectError(denied).error_type]).toEqual([403, 'unauthorized_action']);
    expect((await current(member)).mfa_phone_number).toBe(member.mfa_phone_number);
  });

  it("answers 404 member_not_found for another organization's member and keeps their number", async () => {
    const theirs = await withPhone(neighbour);
    const res = await deletePhone(boss, theirs.member_id);
    expect([res.status, expectError(res).error_type]).toEqual([404, 'member_not_found']);
    expect((await current(theirs)).mfa_phone_number).toBe(theirs.mfa_phone_number);
  });

  it('refuses a call without a session with 401', async () => {
    expect((await deletePhone(undefined, neighbour.member_id)).status).toBe(401);
  });

  it('answers every one of concurrent duplicate requests with the number gone', async () => {
    const member = await withPhone(await fresh());
    const answers = await Promise.all(
      Array.from({ length: 5 }, () => deletePhone(boss, member.member_id)),
    );
    for (const answer of answers) expect(expectOk(answer).member.mfa_phone_number).toBe('');
  });
});

describe("removing a member's authenticator app with a session", () => {
  it('removes the app and its recovery codes; a second time answers 404 totp_not_found', async () => {
    const member = await withTotp(await fresh());
    expect(member.totp_registration_id).not.toBe('');
    const data = expectOk(await deleteTotp(boss, member.member_id));
    expect(data.member_id).toBe(member.member_id);
    expect(data.member.totp_registration_id).toBe('');
    expect(data.organization.organization_id).toBe(h.org.organization_id);
    const codes = await h.db
      .selectFrom('recovery_codes')
      .select('id')
      .where('member_id', '=', member.member_id)
      .execute();
    expect(codes).toEqual([]);
    const again = await deleteTotp(boss, member.member_id);
    expect([again.status, expectError(again).error_type]).toEqual([404, 'totp_not_found']);
  });

  it('refuses a plain member with 403 unauthorized_action and keeps the app', async () => {
    const member = await withTotp(await fresh());
    const denied = await deleteTotp(plain, member.member_id);
    expect([denied.status, expectError(denied).error_type]).toEqual([403, 'unauthorized_action']);
    expect((await current(member)).totp_registration_id).toBe(member.totp_registration_id);
  });

  it("answers 404 member_not_found for another organization's member and an unknown id", async () => {
    for (const id of [neighbour.member_id, 'member-test-00000000-0000-4000-8000-000000000000']) {
      const res = await deleteTotp(boss, id);
      expect([res.status, expectError(res).error_type]).toEqual([404, 'member_not_found']);
    }
  });

  it('refuses a call without a session with 401', async () => {
    expect((await deleteTotp(undefined, neighbour.member_id)).status).toBe(401);
  });

  it('removes the app once when asked many times at once', async () => {
    const member = await withTotp(await fresh());
    const answers = await Promise.all(
      Array.from({ length: 5 }, () => deleteTotp(boss, member.member_id)),
    );
    const statuses = answers.map((a) => a.status).sort();
    expect(statuses).toEqual([200, 404, 404, 404, 404]);
    for (const answer of answers.filter((a) => a.status !== 200)) {
      expect(expectError(answer).error_type).toBe('totp_not_found');
    }
    expect((await current(member)).totp_registration_id).toBe('');
  });
});

describe("removing a member's password with a session", () => {
  it('removes the password by its id; the member can no longer sign in with it', async () => {
    const member = await withPassword(await fresh());
    const data = expectOk(await deletePassword(boss, member.member_password_id));
    expect(data.member_id).toBe(member.member_id);
    expect(data.member.member_password_id).toBe('');
    expect(data.organization.organization_id).toBe(h.org.organization_id);
    const signIn = await h.call(ENDPOINTS.passwordsAuthenticate, {
      body: {
        organization_id: h.org.organization_id,
        email_address: member.email_address,
        password: PASSWORD,
      },
    });
    expect(signIn.status).toBe(401);
  });

  it('answers 404 member_not_found for a password already removed or never set', async () => {
    const member = await withPassword(await fresh());
    expectOk(await deletePassword(boss, member.member_password_id));
    for (const id of [member.member_password_id, 'member-password-test-nothing']) {
      const res = await deletePassword(boss, id);
      expect([res.status, expectError(res).error_type]).toEqual([404, 'member_not_found']);
    }
  });

  it('refuses a plain member with 403 unauthorized_action and keeps the password', async () => {
    const member = await withPassword(await fresh());
    const denied = await deletePassword(plain, member.member_password_id);
    expect([denied.status, expectError(denied).error_type]).toEqual([403, 'unauthorized_action']);
    expect((await current(member)).member_password_id).toBe(member.member_password_id);
  });

  it("answers 404 for another organization's member's password and keeps it", async () => {
    const theirs = await withPassword(neighbour);
    const res = await deletePassword(boss, theirs.member_password_id);
    expect([res.status, expectError(res).error_type]).toEqual([404, 'member_not_found']);
    expect((await current(theirs)).member_password_id).toBe(theirs.member_password_id);
  });

  it('refuses a call without a session with 401', async () => {
    const member = await withPassword(await fresh());
    expect((await deletePassword(undefined, member.member_password_id)).status).toBe(401);
    expect((await current(member)).member_password_id).toBe(member.member_password_id);
  });

  it('removes the password once when asked many times at once', async () => {
    const member = await withPassword(await fresh());
    const answers = await Promise.all(
      Array.from({ length: 5 }, () => deletePassword(boss, member.member_password_id)),
    );
    expect(answers.map((a) => a.status).sort()).toEqual([200, 404, 404, 404, 404]);
    expect((await current(member)).member_password_id).toBe('');
  });
});
