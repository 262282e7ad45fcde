// Management calls made with a member's session through the hosted provider's official Node SDK
// (`stytch` 14, `B2BClient`, `options.authorization`): the call is authorized as that member,
// under the project's RBAC policy and within the session's organization, on top of the secret
// key; a refused call changes nothing, and a call without a session is the secret key's alone.
import { decodeJwt, decodeProtectedHeader, generateKeyPair, SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Member, Organization } from '@gatehouse/protocol';
import { startSdkHarness, type SdkHarness } from '../../test/backend-sdk.js';

const PASSWORD = 'Quartz-Lantern-Orbit-42';
let sdk: SdkHarness;
let acme: string;
let ada: Member; // `member` in Acme
let grace: Member; // `admin` in Acme
let sibling: Organization;
let sid: Member; // `admin` in Sibling

beforeAll(async () => {
  sdk = await startSdkHarness();
  const { h } = sdk;
  acme = h.org.organization_id;
  ada = h.member;
  grace = await h.addMember('grace@acme.test', ['admin']);
  sibling = await h.admin.createOrganization(h.project.project_id, {
    organization_name: 'Sibling',
    organization_slug: 'sibling',
  });
  sid = await h.addMember('sid@sibling.test', ['admin'], sibling.organization_id);
  for (const member of [ada, grace, sid]) {
    await h.admin.setMemberPassword(h.project.project_id, member.member_id, { password: PASSWORD });
  }
});
afterAll(async () => {
  await sdk?.close();
});

/** A refusal the SDK threw, or null when the call succeeded. */
const refusal = (call: Promise<unknown>) =>
  call.then(
    () => null,
    (error: unknown) => error,
  );

/** A new session of a member, in their organization. */
const signIn = (member: Member, minutes = 60) =>
  sdk.client.passwords.authenticate({
    organization_id: member.organization_id,
    email_address: member.email_address,
    password: PASSWORD,
    session_duration_minutes: minutes,
  });

/** `options.authorization` with a new session token of the member. */
const as = async (member: Member) => ({
  authorization: { session_token: (await signIn(member)).session_token },
});

const FORBIDDEN = { status_code: 403, error_type: 'session_authorization_error' };
const OTHER_ORG = { status_code: 403, error_type: 'session_authorization_tenancy_error' };
const DEAD = { status_code: 404, error_type: 'session_not_found' };

const memberNow = async (memberId: string, organizationId = acme) =>
  (
    await sdk.client.organizations.members.get({
      organization_id: organizationId,
      member_id: memberId,
    })
  ).member;

describe('a member without the permission', () => {
  it('cannot change, delete or add members, and nothing changes', async () => {
    const options = await as(ada);
    const members = sdk.client.organizations.members;
    const target = { organization_id: acme, member_id: grace.member_id };
    expect(await refusal(members.update({ ...target, name: 'Mallory' }, options))).toMatchObject(
      FORBIDDEN,
    );
    expect(await refusal(members.delete(target, options))).toMatchObject(FORBIDDEN);
    expect(await refusal(members.deleteMFAPhoneNumber(target, options))).toMatchObject(FORBIDDEN);
    expect(await refusal(members.reactivate(target, options))).toMatchObject(FORBIDDEN);
    const created = members.create(
      { organization_id: acme, email_address: 'eve@acme.test', roles: ['admin'] },
      options,
    );
    expect(await refusal(created)).toMatchObject(FORBIDDEN);
    const invited = sdk.client.magicLinks.email.invite(
      { organization_id: acme, email_address: 'eve@acme.test' },
      options,
    );
    expect(await refusal(invited)).toMatchObject(FORBIDDEN);
    const after = await memberNow(grace.member_id);
    expect([after.name, after.status, after.roles.map((r) => r.role_id)]).toEqual([
      grace.name,
      'active',
      expect.arrayContaining(['admin']),
    ]);
    const eve = await sdk.h.admin.getMemberByEmail(sdk.h.project.project_id, acme, 'eve@acme.test');
    expect(eve).toBeNull();
  });

  it('cannot give themselves a role, even with the stytch.self permission', async () => {
    const failure = await refusal(
      sdk.client.organizations.members.update(
        { organization_id: acme, member_id: ada.member_id, roles: ['admin'] },
        await as(ada),
      ),
    );
    expect(failure).toMatchObject(FORBIDDEN);
    expect((await memberNow(ada.member_id)).roles.map((r) => r.role_id)).not.toContain('admin');
  });

  it('cannot change or delete the organization, or end another member’s sessions', async () => {
    const options = await as(ada);
    const update = sdk.client.organizations.update(
      { organization_id: acme, organization_name: 'Pwned', mfa_policy: 'OPTIONAL' },
      options,
    );
    expect(await refusal(update)).toMatchObject(FORBIDDEN);
    const remove = sdk.client.organizations.delete({ organization_id: acme }, options);
    expect(await refusal(remove)).toMatchObject(FORBIDDEN);
    const graceSession = await signIn(grace);
    const revoke = sdk.client.sessions.revoke({ member_id: grace.member_id }, options);
    expect(await refusal(revoke)).toMatchObject(FORBIDDEN);
    const org = await sdk.client.organizations.get({ organization_id: acme });
    expect(org.organization.organization_name).toBe(sdk.h.org.organization_name);
    const still = await sdk.client.sessions.authenticate({
      session_token: graceSession.session_token,
    });
    expect(still.member.member_id).toBe(grace.member_id);
  });

  it('may not search the members of their organization: the member role holds stytch.self only', async () => {
    const search = sdk.client.organizations.members.search(
      { organization_ids: [acme] },
      await as(ada),
    );
    expect(await refusal(search)).toMatchObject(FORBIDDEN);
  });
});

describe('stytch.self', () => {
  it('lets a member change their own name and MFA settings and end their own sessions', async () => {
    const options = await as(ada);
    const own = { organization_id: acme, member_id: ada.member_id };
    const members = sdk.client.organizations.members;
    const updated = await members.update({ ...own, name: 'Ada L.', mfa_enrolled: false }, options);
    expect(updated.member.name).toBe('Ada L.');
    const phone = await members.deleteMFAPhoneNumber(own, options);
    expect(phone.member.member_id).toBe(ada.member_id);
    const other = await signIn(ada);
    const revoked = await sdk.client.sessions.revoke(
      { member_session_id: other.member_session?.member_session_id ?? '' },
      options,
    );
    expect(revoked.status_code).toBe(200);
    const dead = sdk.client.sessions.authenticate({ session_token: other.session_token });
    expect(await refusal(dead)).toMatchObject(DEAD);
  });

  it('does not reach another member: updating a colleague’s name is refused', async () => {
    const options = await as(ada);
    const failure = await refusal(
      sdk.client.organizations.members.update(
        { organization_id: acme, member_id: grace.member_id, name: 'Renamed' },
        options,
      ),
    );
    expect(failure).toMatchObject(FORBIDDEN);
    expect((await memberNow(grace.member_id)).name).toBe(grace.name);
  });
});

describe('an admin', () => {
  it('changes members, the organization and other members’ sessions', async () => {
    const options = await as(grace);
    const members = sdk.client.organizations.members;
    const renamed = await members.update(
      { organization_id: acme, member_id: ada.member_id, name: 'Ada Lovelace' },
      options,
    );
    expect(renamed.member.name).toBe('Ada Lovelace');
    const created = await members.create(
      { organization_id: acme, email_address: 'ivy@acme.test', name: 'Ivy' },
      options,
    );
    expect(created.member.status).toBe('active');
    const removed = await members.delete(
      { organization_id: acme, member_id: created.member_id },
      options,
    );
    expect(removed.status_code).toBe(200);
    const org = await sdk.client.organizations.update(
      { organization_id: acme, organization_name: 'Acme Corp' },
      options,
    );
    expect(org.organization.organization_name).toBe('Acme Corp');
    const adaSession = await signIn(ada);
    await sdk.client.sessions.revoke({ member_id: ada.member_id }, options);
    const dead = sdk.client.sessions.authenticate({ session_token: adaSession.session_token });
    expect(await refusal(dead)).toMatchObject(DEAD);
  });

  it('acts by session JWT as by token', async () => {
    const { session_jwt } = await signIn(grace);
    const found = await sdk.client.organizations.members.search(
      { organization_ids: [acme] },
      { authorization: { session_jwt } },
    );
    expect(found.members.length).toBeGreaterThan(1);
  });
});

describe('the session’s organization', () => {
  it('bounds an admin: another organization’s members and settings are refused', async () => {
    const options = await as(sid);
    const members = sdk.client.organizations.members;
    const target = { organization_id: acme, member_id: ada.member_id };
    expect(
      await refusal(members.update({ ...target, name: 'Sid was here' }, options)),
    ).toMatchObject(OTHER_ORG);
    expect(await refusal(members.delete(target, options))).toMatchObject(OTHER_ORG);
    const search = members.search({ organization_ids: [sibling.organization_id, acme] }, options);
    expect(await refusal(search)).toMatchObject(OTHER_ORG);
    const org = sdk.client.organizations.update(
      { organization_id: acme, organization_name: 'Sibling’s now' },
      options,
    );
    expect(await refusal(org)).toMatchObject(OTHER_ORG);
    const revoke = sdk.client.sessions.revoke({ member_id: ada.member_id }, options);
    expect(await refusal(revoke)).toMatchObject(OTHER_ORG);
    expect((await memberNow(ada.member_id)).status).toBe('active');
    const own = await members.search({ organization_ids: [sibling.organization_id] }, options);
    expect(own.members.map((m) => m.member_id)).toEqual([sid.member_id]);
  });
});

describe('what is not a live session of the project', () => {
  const renameAda = (authorization: { session_token?: string; session_jwt?: string }) =>
    sdk.client.organizations.members.update(
      { organization_id: acme, member_id: ada.member_id, name: 'Hijacked' },
      { authorization },
    );

  it('refuses a revoked session, by token and by its last JWT', async () => {
    const { session_token, session_jwt } = await signIn(grace);
    await sdk.client.sessions.revoke({ session_token });
    expect(await refusal(renameAda({ session_token }))).toMatchObject(DEAD);
    expect(await refusal(renameAda({ session_jwt }))).toMatchObject(DEAD);
  });

  it('refuses a JWT signed by another key, an intermediate session token and garbage', async () => {
    const { session_jwt } = await signIn(grace);
    const { privateKey } = await generateKeyPair('RS256');
    const forged = await new SignJWT(decodeJwt(session_jwt))
      .setProtectedHeader(decodeProtectedHeader(session_jwt) as { alg: string })
      .sign(privateKey);
    expect(await refusal(renameAda({ session_jwt: forged }))).toMatchObject(DEAD);
    const discovered = await sdk.client.passwords.discovery.authenticate({
      email_address: grace.email_address,
      password: PASSWORD,
    });
    const ist = discovered.intermediate_session_token;
    expect(await refusal(renameAda({ session_token: ist }))).toMatchObject(DEAD);
    expect(await refusal(renameAda({ session_token: 'not-a-session' }))).toMatchObject(DEAD);
    expect((await memberNow(ada.member_id)).name).not.toBe('Hijacked');
  });

  it('refuses a token and a JWT of two different sessions', async () => {
    const first = await signIn(grace);
    const second = await signIn(grace);
    const failure = await refusal(
      renameAda({ session_token: first.session_token, session_jwt: second.session_jwt }),
    );
    expect(failure).toMatchObject({ status_code: 400, error_type: 'invalid_request' });
  });

  it('refuses a session that has expired', async () => {
    const { session_token } = await signIn(grace, 5);
    sdk.h.clock.advance(6 * 60_000);
    expect(await refusal(renameAda({ session_token }))).toMatchObject(DEAD);
    expect((await memberNow(ada.member_id)).name).not.toBe('Hijacked');
  });
});

describe('the session headers elsewhere', () => {
  it('are refused by a management call that does not take them, never ignored', async () => {
    const { session_token } = await signIn(ada);
    const { h } = sdk;
    const basic = Buffer.from(`${h.project.project_id}:${h.project.secret}`).toString('base64');
    const res = await h.request(`/v1/b2b/organizations/${acme}/members/${grace.member_id}`, {
      method: 'GET',
      authorization: `Basic ${basic}`,
      origin: null,
      headers: { 'X-Stytch-Member-Session': session_token },
    });
    expect([res.status, res.error?.error_type]).toEqual([400, 'invalid_request']);
  });
});

describe('without a session header', () => {
  it('the secret key alone decides, as before', async () => {
    const members = sdk.client.organizations.members;
    const ivy = await members.create({ organization_id: acme, email_address: 'ivy2@acme.test' });
    const target = { organization_id: acme, member_id: ivy.member_id };
    const promoted = await members.update({ ...target, roles: ['admin'] });
    expect(promoted.member.roles.map((r) => r.role_id)).toContain('admin');
    expect((await members.delete(target)).status_code).toBe(200);
  });
});

describe('passwords', () => {
  it('a member removes their own password, not a colleague’s', async () => {
    const options = await as(ada);
    const members = sdk.client.organizations.members;
    const graceNow = await memberNow(grace.member_id);
    const theirs = members.deletePassword(
      { organization_id: acme, member_password_id: graceNow.member_password_id },
      options,
    );
    expect(await refusal(theirs)).toMatchObject(FORBIDDEN);
    expect((await memberNow(grace.member_id)).member_password_id).toBe(graceNow.member_password_id);
    const adaNow = await memberNow(ada.member_id);
    const own = await members.deletePassword(
      { organization_id: acme, member_password_id: adaNow.member_password_id },
      options,
    );
    expect(own.member.member_password_id).toBe('');
  });
});

describe('concurrent calls', () => {
  it('two admins deleting each other at the same time leave the organization one admin', async () => {
    const { h } = sdk;
    const duo = await h.admin.createOrganization(h.project.project_id, {
      organization_name: 'Duo',
      organization_slug: 'duo',
    });
    const pair = await Promise.all(
      ['hal@duo.test', 'ivy@duo.test'].map((email) =>
        h.addMember(email, ['admin'], duo.organization_id),
      ),
    );
    for (const member of pair) {
      await h.admin.setMemberPassword(h.project.project_id, member.member_id, {
        password: PASSWORD,
      });
    }
    const [hal, ivy] = pair as [Member, Member];
    const [asHal, asIvy] = await Promise.all([as(hal), as(ivy)]);
    const remove = (target: Member, options: Awaited<ReturnType<typeof as>>) =>
      refusal(
        sdk.client.organizations.members.delete(
          { organization_id: duo.organization_id, member_id: target.member_id },
          options,
        ),
      );
    const outcomes = await Promise.all([remove(ivy, asHal), remove(hal, asIvy)]);
    expect(outcomes.filter((o) => o === null)).toHaveLength(1);
    const left = await sdk.client.organizations.members.search({
      organization_ids: [duo.organization_id],
    });
    const admins = left.members.filter((m) => m.roles.some((r) => r.role_id === 'admin'));
    expect(admins).toHaveLength(1);
  });
});
