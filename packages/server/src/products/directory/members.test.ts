// The provider's organizations.members calls on the management API: get, delete, reactivate and
// the removal of a password, a phone number or an authenticator app; ids of other tenants refused.
import type { Member } from '@gatehouse/protocol';
import { ENDPOINTS } from '@gatehouse/protocol/endpoints';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AdminError } from '../management/admin.js';
import { basic, expectOk, startHarness, type Harness } from '../../test/harness.js';
import { totpAt } from '../../test/mfa.js';

let h: Harness;
let other: { project_id: string; secret: string; orgId: string; memberId: string };
beforeAll(async () => {
  h = await startHarness();
  const project = await h.admin.createProject({ name: 'Other' });
  const org = await h.admin.createOrganization(project.project_id, {
    organization_name: 'Globex',
    organization_slug: 'globex',
  });
  const member = await h.admin.createMember(project.project_id, org.organization_id, {
    email_address: 'hank@globex.test',
  });
  other = { ...project, orgId: org.organization_id, memberId: member.member_id };
});
afterAll(async () => {
  await h.close();
});

let serial = 0;
/** A new member of the seeded organization. */
async function newMember(): Promise<Member> {
  serial += 1;
  return h.admin.createMember(h.project.project_id, h.org.organization_id, {
    email_address: `m${serial}@acme.test`,
    name: `Member ${serial}`,
  });
}

const inAcme = (member_id: string) => ({ organization_id: h.org.organization_id, member_id });
const lookup = (query: string, organizationId = h.org.organization_id) =>
  h.request(`/v1/b2b/organizations/${organizationId}/member?${query}`, {
    authorization: basic(h.project.project_id, h.project.secret),
    origin: null,
  });

describe('organizations.members.get', () => {
  it('finds a member by id or by address, with its organization', async () => {
    const member = await newMember();
    for (const query of [
      `member_id=${member.member_id}`,
      `email_address=${encodeURIComponent(member.email_address.toUpperCase())}`,
    ]) {
      const res = await lookup(query);
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({
        status_code: 200,
        member_id: member.member_id,
        member: { member_id: member.member_id, email_address: member.email_address },
        organization: { organization_id: h.org.organization_id },
      });
      expect(res.body).toHaveProperty('request_id');
    }
  });

  it('refuses a query naming neither or both, and unknown, foreign or deleted members', async () => {
    const member = await newMember();
    for (const query of ['', `member_id=${member.member_id}&email_address=a%40acme.test`]) {
      const res = await lookup(query);
      expect([res.status, res.error?.error_type]).toEqual([400, 'invalid_request']);
    }
    const foreignOrg = await lookup(`member_id=${other.memberId}`, other.orgId);
    expect([foreignOrg.status, foreignOrg.error?.error_type]).toEqual([
      404,
      'organization_not_found',
    ]);
    for (const query of [
      `member_id=${other.memberId}`,
      'member_id=member-test-nope',
      'email_address=hank%40globex.test',
    ]) {
      const res = await lookup(query);
      expect([res.status, res.error?.error_type]).toEqual([404, 'member_not_found']);
    }
    await h.admin.deleteMember(h.project.project_id, h.org.organization_id, member.member_id);
    const gone = await lookup(`member_id=${member.member_id}`);
    expect([gone.status, gone.error?.error_type]).toEqual([404, 'member_not_found']);
  });
});

describe('organizations.members.delete and reactivate', () => {
  it('deletes a member and ends their sessions at once; reactivating brings them back', async () => {
    const member = await newMember();
    const login = await h.login(member.email_address);
    const deleted = await h.call(ENDPOINTS.deleteMember, { params: inAcme(member.member_id) });
    expect(expectOk(deleted)).toMatchObject({ member_id: member.member_id, status_code: 200 });
    const session = await h.call(ENDPOINTS.authenticateSession, {
      body: { session_token: login.session_token },
    });
    expect([session.status, session.error?.error_type]).toEqual([404, 'session_not_found']);
    const again = await h.call(ENDPOINTS.deleteMember, { params: inAcme(member.member_id) });
    expect([again.status, again.error?.error_type]).toEqual([404, 'member_not_found']);

    const back = expectOk(
      await h.call(ENDPOINTS.reactivateMember, { params: inAcme(member.member_id) }),
    );
    expect(back.member_id).toBe(member.member_id);
    expect(back.member).toMatchObject({ status: 'active', email_address: member.email_address });
    expect(back.organization.organization_id).toBe(h.org.organization_id);
    expect((await lookup(`member_id=${member.member_id}`)).status).toBe(200);
    // The old session stays ended; a new sign-in works.
    const old = await h.call(ENDPOINTS.authenticateSession, {
      body: { session_token: login.session_token },
    });
    expect(old.status).toBe(404);
    expect((await h.login(member.email_address)).member_id).toBe(member.member_id);
  });

  it('answers an active member unchanged when asked to reactivate it', async () => {
    const member = await newMember();
    const res = await h.call(ENDPOINTS.reactivateMember, { params: inAcme(member.member_id) });
    expect(expectOk(res).member).toEqual(member);
  });

  it('deletes a member once when two deletions run concurrently', async () => {
    const member = await newMember();
    const results = await Promise.all(
      [0, 1].map(() => h.call(ENDPOINTS.deleteMember, { params: inAcme(member.member_id) })),
    );
    expect(results.map((r) => r.status).sort()).toEqual([200, 404]);
    expect(results.find((r) => !r.ok)?.error?.error_type).toBe('member_not_found');
  });

  it("refuses another project's ids, and a member under another organization's path", async () => {
    const member = await newMember();
    const otherOrg = await h.admin.createOrganization(h.project.project_id, {
      organization_name: 'Initrode',
      organization_slug: 'initrode',
    });
    const calls = [
      ENDPOINTS.deleteMember,
      ENDPOINTS.reactivateMember,
      ENDPOINTS.deleteMemberMfaPhoneNumber,
      ENDPOINTS.deleteMemberTotp,
    ] as const;
    for (const endpoint of calls) {
      const foreignOrg = await h.call(endpoint, {
        params: { organization_id: other.orgId, member_id: other.memberId },
      });
      expect([foreignOrg.status, foreignOrg.error?.error_type]).toEqual([
        404,
        'organization_not_found',
      ]);
      const foreignMember = await h.call(endpoint, { params: inAcme(other.memberId) });
      expect([foreignMember.status, foreignMember.error?.error_type]).toEqual([
        404,
        'member_not_found',
      ]);
      const crossed = await h.call(endpoint, {
        params: { organization_id: otherOrg.organization_id, member_id: member.member_id },
      });
      expect([crossed.status, crossed.error?.error_type]).toEqual([404, 'member_not_found']);
    }
    // Nothing happened to either member.
    expect((await lookup(`member_id=${member.member_id}`)).status).toBe(200);
    const theirs = await h.admin.getMember(other.project_id, other.orgId, {
      member_id: other.memberId,
    });
    expect(theirs.member.status).toBe('active');
  });
});

describe('removing factors', () => {
  it("deletes a member's password by its id, once", async () => {
    const member = await newMember();
    const withPassword = await h.admin.setMemberPassword(h.project.project_id, member.member_id, {
      password: 'correct horse battery staple 42',
    });
    const passwordId = withPassword.member_password_id;
    expect(passwordId).toMatch(/^member-password-test-/);
    const params = { organization_id: h.org.organization_id, member_password_id: passwordId };
    const res = await h.call(ENDPOINTS.deleteMemberPassword, { params });
    const data = expectOk(res);
    expect(data.member_id).toBe(member.member_id);
    expect(data.member.member_password_id).toBe('');
    const signIn = await h.call(ENDPOINTS.passwordsAuthenticate, {
      body: {
        organization_id: h.org.organization_id,
        email_address: member.email_address,
        password: 'correct horse battery staple 42',
      },
    });
    expect(signIn.status).toBe(401);
    const again = await h.call(ENDPOINTS.deleteMemberPassword, { params });
    expect([again.status, again.error?.error_type]).toEqual([404, 'member_not_found']);
  });

  it('refuses a password id of another organization or project', async () => {
    const theirs = await h.admin.setMemberPassword(other.project_id, other.memberId, {
      password: 'correct horse battery staple 42',
    });
    const res = await h.call(ENDPOINTS.deleteMemberPassword, {
      params: {
        organization_id: h.org.organization_id,
        member_password_id: theirs.member_password_id,
      },
    });
    expect([res.status, res.error?.error_type]).toEqual([404, 'member_not_found']);
    const after = await h.admin.getMember(other.project_id, other.orgId, {
      member_id: other.memberId,
    });
    expect(after.member.member_password_id).toBe(theirs.member_password_id);
  });

  it("deletes a member's MFA phone number", async () => {
    const member = await newMember();
    await h.admin.updateMember(h.project.project_id, member.member_id, {
      mfa_phone_number: '+1 415 555 2671',
      mfa_phone_number_verified: true,
      default_mfa_method: 'sms_otp',
    });
    const res = await h.call(ENDPOINTS.deleteMemberMfaPhoneNumber, {
      params: inAcme(member.member_id),
    });
    expect(expectOk(res).member).toMatchObject({
      mfa_phone_number: '',
      mfa_phone_number_verified: false,
      default_mfa_method: '',
    });
  });

  it("deletes a member's authenticator app; a second time there is none", async () => {
    const member = await newMember();
    const { session_token } = await h.login(member.email_address);
    const ids = inAcme(member.member_id);
    const { secret } = expectOk(
      await h.call(ENDPOINTS.totpCreate, { token: session_token, body: ids }),
    );
    const confirmed = await h.call(ENDPOINTS.totpAuthenticate, {
      token: session_token,
      body: { ...ids, code: totpAt(secret, h.clock.now) },
    });
    expect(confirmed.status).toBe(200);
    const enrolled = await h.admin.getMember(h.project.project_id, h.org.organization_id, ids);
    expect(enrolled.member.totp_registration_id).not.toBe('');

    const res = await h.call(ENDPOINTS.deleteMemberTotp, { params: ids });
    expect(expectOk(res).member.totp_registration_id).toBe('');
    const codes = await h.db
      .selectFrom('recovery_codes')
      .select('id')
      .where('member_id', '=', member.member_id)
      .execute();
    expect(codes).toEqual([]);
    const again = await h.call(ENDPOINTS.deleteMemberTotp, { params: ids });
    expect([again.status, again.error?.error_type]).toEqual([404, 'totp_not_found']);
  });
});

describe('the in-process admin', () => {
  it('refuses what the API refuses, with the same error_type', async () => {
    const refusal = (promise: Promise<unknown>) =>
      promise.then(
        () => 'accepted',
        (error: unknown) => (error instanceof AdminError ? error.errorType : String(error)),
      );
    const projectId = h.project.project_id;
    expect(await refusal(h.admin.deleteMember(projectId, other.orgId, other.memberId))).toBe(
      'organization_not_found',
    );
    expect(
      await refusal(h.admin.reactivateMember(projectId, h.org.organization_id, other.memberId)),
    ).toBe('member_not_found');
    expect(
      await refusal(h.admin.getMember(projectId, h.org.organization_id, { email_address: 'x' })),
    ).toBe('member_not_found');
  });
});
