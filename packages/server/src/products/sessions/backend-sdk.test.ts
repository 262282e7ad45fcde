// The session and factor calls through the hosted provider's official Node SDK (`stytch` 14,
// `B2BClient`) over TLS: one test per call, reading the typed fields the SDK promises. The SMS
// calls are tested over HTTP (otp-sms/backend.test.ts): the TLS harness has no dev inbox for texts.
import { ENDPOINTS } from '@gatehouse/protocol/endpoints';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSdkHarness, type SdkHarness } from '../../test/backend-sdk.js';
import { expectOk, expectSession } from '../../test/harness.js';
import { mfaOrganization, totpAt } from '../../test/mfa.js';

const PASSWORD = 'Quartz-Lantern-Orbit-42';

let sdk: SdkHarness;
beforeAll(async () => {
  sdk = await startSdkHarness();
  await sdk.h.admin.setMemberPassword(sdk.h.project.project_id, sdk.h.member.member_id, {
    password: PASSWORD,
  });
});

/** Signs in with a password from the browser API (e-mail goes through the queue here). */
async function passwordLogin(email: string, organizationId: string) {
  const res = await sdk.h.call(ENDPOINTS.passwordsAuthenticate, {
    body: { organization_id: organizationId, email_address: email, password: PASSWORD },
  });
  return expectOk(res);
}
const login = async () =>
  expectSession(
    await sdk.h.call(ENDPOINTS.passwordsAuthenticate, {
      body: {
        organization_id: sdk.h.org.organization_id,
        email_address: sdk.h.member.email_address,
        password: PASSWORD,
      },
    }),
  );
afterAll(async () => {
  await sdk.close();
});

/** A member of a fresh MFA organization, signed in up to the IST. */
async function pending(slug: string) {
  const { org, member, email } = await mfaOrganization(sdk.h, slug);
  await sdk.h.admin.setMemberPassword(sdk.h.project.project_id, member.member_id, {
    password: PASSWORD,
  });
  const signedIn = await passwordLogin(email, org.organization_id);
  const ids = { organization_id: org.organization_id, member_id: member.member_id };
  return { ids, email, ist: signedIn.intermediate_session_token };
}

describe('the backend SDK: sessions', () => {
  it('sessions.get lists the live sessions', async () => {
    const signedIn = await login();
    const { member_sessions } = await sdk.client.sessions.get({
      organization_id: sdk.h.org.organization_id,
      member_id: sdk.h.member.member_id,
    });
    expect(member_sessions.map((s) => s.member_session_id)).toContain(
      signedIn.member_session.member_session_id,
    );
  });

  it('sessions.authenticate answers session_token', async () => {
    const signedIn = await login();
    const res = await sdk.client.sessions.authenticate({ session_token: signedIn.session_token });
    expect(res.session_token).toBe(signedIn.session_token);
    expect(res.member_session.member_session_id).toBe(signedIn.member_session.member_session_id);
  });

  it('sessions.revoke by member_session_id and by member_id', async () => {
    const a = await login();
    await sdk.client.sessions.revoke({ member_session_id: a.member_session.member_session_id });
    await expect(
      sdk.client.sessions.authenticate({ session_token: a.session_token }),
    ).rejects.toMatchObject({ error_type: 'session_not_found' });
    const b = await login();
    const res = await sdk.client.sessions.revoke({ member_id: sdk.h.member.member_id });
    expect(res.status_code).toBe(200);
    await expect(
      sdk.client.sessions.authenticate({ session_token: b.session_token }),
    ).rejects.toMatchObject({ error_type: 'session_not_found' });
  });

  it('sessions.exchange moves a session into another organization of the address', async () => {
    const project = sdk.h.project.project_id;
    const org = await sdk.h.admin.createOrganization(project, {
      organization_name: 'SDK exchange',
      organization_slug: 'sdk-exchange',
    });
    const member = await sdk.h.admin.createMember(project, org.organization_id, {
      email_address: sdk.h.member.email_address,
    });
    // A magic link proves the address wherever it is used; a password, one membership's only.
    const signedIn = await sdk.h.login();
    const res = await sdk.client.sessions.exchange({
      organization_id: org.organization_id,
      session_token: signedIn.session_token,
    });
    expect(res.member_authenticated).toBe(true);
    expect(res.member_id).toBe(member.member_id);
    expect(res.member_session?.organization_id).toBe(org.organization_id);
  });
});

describe('the backend SDK: second factors', () => {
  it('totps.create and totps.authenticate', async () => {
    const { ids, ist } = await pending('sdk-totp');
    const created = await sdk.client.totps.create(ids);
    expect(created.recovery_codes).toHaveLength(10);
    const res = await sdk.client.totps.authenticate({
      ...ids,
      intermediate_session_token: ist,
      code: totpAt(created.secret, sdk.h.clock.now),
    });
    expect(res.member.totp_registration_id).toBe(created.totp_registration_id);
    expect(res.session_jwt.split('.')).toHaveLength(3);
  });

  it('recoveryCodes.get, rotate and recover', async () => {
    const { ids, ist, email } = await pending('sdk-codes');
    const created = await sdk.client.totps.create(ids);
    await sdk.client.totps.authenticate({
      ...ids,
      intermediate_session_token: ist,
      code: totpAt(created.secret, sdk.h.clock.now),
    });
    const listed = await sdk.client.recoveryCodes.get(ids);
    expect(listed.recovery_codes).toEqual(created.recovery_codes);
    const rotated = await sdk.client.recoveryCodes.rotate(ids);
    const [code] = rotated.recovery_codes;
    const next = await passwordLogin(email, ids.organization_id);
    const res = await sdk.client.recoveryCodes.recover({
      ...ids,
      intermediate_session_token: next.intermediate_session_token,
      recovery_code: code ?? '',
    });
    expect(res.recovery_codes_remaining).toBe(9);
    expect(res.member_id).toBe(ids.member_id);
  });
});

describe('the backend SDK: connections and policy', () => {
  it('sso.getConnections answers its three lists', async () => {
    const res = await sdk.client.sso.getConnections({
      organization_id: sdk.h.org.organization_id,
    });
    expect(res.saml_connections).toEqual([]);
    expect(res.oidc_connections).toEqual([]);
    expect(res.external_connections).toEqual([]);
  });

  it('rbac.policy answers the roles and resources', async () => {
    const { policy } = await sdk.client.rbac.policy();
    const mine = expectOk(await sdk.h.call(ENDPOINTS.rbacPolicyGet));
    expect(policy?.roles.map((r) => r.role_id)).toEqual(mine.policy.roles.map((r) => r.role_id));
    expect(policy?.resources.map((r) => r.resource_id)).toContain('stytch.member');
  });
});
