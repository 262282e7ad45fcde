// Authorization checks through the hosted provider's official Node SDK (`stytch` 14,
// `B2BClient`) over TLS: sessions.authenticate with `authorization_check`, the local check of
// authenticateJwtLocal and authenticateJwt (which asks the server when the local check refuses),
// rbac.organizations.getOrgPolicy and setOrgPolicy that the local check reads, and the session
// calls Gatehouse does not offer.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSdkHarness, type SdkHarness } from '../../test/backend-sdk.js';

const PASSWORD = 'Quartz-Lantern-Orbit-42';
let sdk: SdkHarness;

beforeAll(async () => {
  sdk = await startSdkHarness();
  const { h } = sdk;
  await h.admin.setMemberPassword(h.project.project_id, h.member.member_id, { password: PASSWORD });
  const admin = await h.admin.createMember(h.project.project_id, h.org.organization_id, {
    email_address: 'grace@acme.test',
    name: 'Grace',
    roles: ['admin'],
  });
  await h.admin.setMemberPassword(h.project.project_id, admin.member_id, { password: PASSWORD });
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

/** A session of Ada (role `member`) or Grace (`admin`) in Acme. */
const signIn = (email: 'ada@acme.test' | 'grace@acme.test') =>
  sdk.client.passwords.authenticate({
    organization_id: sdk.h.org.organization_id,
    email_address: email,
    password: PASSWORD,
    session_duration_minutes: 60,
  });

/** Deleting members: the admin's and not the member's. */
const deleteMembers = () => ({
  organization_id: sdk.h.org.organization_id,
  resource_id: 'stytch.member',
  action: 'delete',
});

describe('sessions.authenticate with authorization_check', () => {
  it('answers the verdict with the granting roles when the roles allow the action', async () => {
    const { session_token } = await signIn('grace@acme.test');
    const answer = await sdk.client.sessions.authenticate({
      session_token,
      authorization_check: deleteMembers(),
    });
    expect(answer.verdict).toEqual({ authorized: true, granting_roles: ['admin'] });
    expect(answer.member.email_address).toBe('grace@acme.test');
  });

  it('refuses with 403 session_authorization_error when they do not', async () => {
    const { session_token, session_jwt } = await signIn('ada@acme.test');
    for (const credential of [{ session_token }, { session_jwt }]) {
      expect(
        await refusal(
          sdk.client.sessions.authenticate({ ...credential, authorization_check: deleteMembers() }),
        ),
      ).toMatchObject({ status_code: 403, error_type: 'session_authorization_error' });
    }
    const plain = await sdk.client.sessions.authenticate({ session_token });
    expect(plain.verdict).toBeUndefined();
  });

  it("refuses a check naming another organization with 403 session_authorization_tenancy_error, whatever the member's roles", async () => {
    const { session_token } = await signIn('grace@acme.test');
    const sibling = await sdk.h.admin.createOrganization(sdk.h.project.project_id, {
      organization_name: 'Sibling',
      organization_slug: 'sibling',
    });
    const failure = await refusal(
      sdk.client.sessions.authenticate({
        session_token,
        authorization_check: { ...deleteMembers(), organization_id: sibling.organization_id },
      }),
    );
    expect(failure).toMatchObject({
      status_code: 403,
      error_type: 'session_authorization_tenancy_error',
    });
  });

  it('refuses a malformed check with 400 and a wrong secret with 401', async () => {
    const { session_token } = await signIn('grace@acme.test');
    const malformed = await refusal(
      sdk.client.sessions.authenticate({
        session_token,
        authorization_check: { ...deleteMembers(), resource_id: '' },
      }),
    );
    expect(malformed).toMatchObject({ status_code: 400, error_type: 'invalid_request' });
    const wrong = sdk.clientFor(sdk.h.project.project_id, `${sdk.h.project.secret}x`);
    expect(
      await refusal(
        wrong.sessions.authenticate({ session_token, authorization_check: deleteMembers() }),
      ),
    ).toMatchObject({ status_code: 401, error_type: 'unauthorized_credentials' });
  });
});

describe('authenticateJwtLocal and authenticateJwt with authorization_check', () => {
  it('pass for a role that allows the action, from the policy and the org policy', async () => {
    const { session_jwt } = await signIn('grace@acme.test');
    const local = await sdk.client.sessions.authenticateJwtLocal({
      session_jwt,
      authorization_check: deleteMembers(),
    });
    expect(local.roles).toContain('admin');
    const either = await sdk.client.sessions.authenticateJwt({
      session_jwt,
      authorization_check: deleteMembers(),
    });
    expect(either.member_session.member_id).toBe(local.member_id);
  });

  it('refuse a role that does not, locally and when the SDK asks the server instead', async () => {
    const { session_jwt } = await signIn('ada@acme.test');
    expect(
      await refusal(
        sdk.client.sessions.authenticateJwtLocal({
          session_jwt,
          authorization_check: deleteMembers(),
        }),
      ),
    ).toMatchObject({ code: 'invalid_permissions' });
    // A refused local check sends the SDK to sessions.authenticate, which must refuse too.
    expect(
      await refusal(
        sdk.client.sessions.authenticateJwt({ session_jwt, authorization_check: deleteMembers() }),
      ),
    ).toMatchObject({ status_code: 403, error_type: 'session_authorization_error' });
  });
});

describe('rbac.organizations', () => {
  it('getOrgPolicy answers no roles of the organization’s own', async () => {
    const answer = await sdk.client.rbac.organizations.getOrgPolicy({
      organization_id: sdk.h.org.organization_id,
    });
    expect([answer.status_code, answer.org_policy]).toEqual([200, { roles: [] }]);
    expect(answer.request_id).toMatch(/^request-id-test-/);
  });

  it('setOrgPolicy takes an empty policy and refuses roles with 400', async () => {
    const organization_id = sdk.h.org.organization_id;
    const empty = await sdk.client.rbac.organizations.setOrgPolicy({
      organization_id,
      org_policy: { roles: [] },
    });
    expect(empty.org_policy).toEqual({ roles: [] });
    const role = { role_id: 'auditor', description: '', permissions: [] };
    const failure = await refusal(
      sdk.client.rbac.organizations.setOrgPolicy({
        organization_id,
        org_policy: { roles: [role] },
      }),
    );
    expect(failure).toMatchObject({ status_code: 400, error_type: 'invalid_request' });
    expect(failure).toHaveProperty('error_message');
  });

  it("refuses another project's organization and a wrong secret", async () => {
    const other = await sdk.h.admin.createProject({ name: 'Elsewhere' });
    const foreignOrg = await sdk.h.admin.createOrganization(other.project_id, {
      organization_name: 'Acme elsewhere',
      organization_slug: 'acme-elsewhere',
    });
    const organization_id = foreignOrg.organization_id;
    expect(
      await refusal(sdk.client.rbac.organizations.getOrgPolicy({ organization_id })),
    ).toMatchObject({ status_code: 404, error_type: 'organization_not_found' });
    expect(
      await refusal(
        sdk.client.rbac.organizations.setOrgPolicy({ organization_id, org_policy: { roles: [] } }),
      ),
    ).toMatchObject({ status_code: 404, error_type: 'organization_not_found' });
    const wrong = sdk.clientFor(sdk.h.project.project_id, `${sdk.h.project.secret}x`);
    expect(
      await refusal(
        wrong.rbac.organizations.getOrgPolicy({ organization_id: sdk.h.org.organization_id }),
      ),
    ).toMatchObject({ status_code: 401, error_type: 'unauthorized_credentials' });
  });
});

describe('session calls not offered', () => {
  it('sessions.migrate and sessions.attest answer 404 endpoint_not_found', async () => {
    const organization_id = sdk.h.org.organization_id;
    const migrate = await refusal(
      sdk.client.sessions.migrate({ session_token: 'external-token', organization_id }),
    );
    const attest = await refusal(
      sdk.client.sessions.attest({ profile_id: 'profile', token: 'token', organization_id }),
    );
    for (const failure of [migrate, attest]) {
      expect(failure).toMatchObject({ status_code: 404, error_type: 'endpoint_not_found' });
    }
  });
});
