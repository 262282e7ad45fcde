// passwords.email.requireReset through the hosted provider's official Node SDK (`stytch` 14,
// `B2BClient`) over TLS: the typed answer, and the provider's reset_password at the next sign-in.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSdkHarness, type SdkHarness } from '../../test/backend-sdk.js';
import { expectFields, MEMBER, ORGANIZATION } from '../../test/sdk-fields.js';

const PASSWORD = 'Quartz-Lantern-Orbit-42';

let sdk: SdkHarness;
beforeAll(async () => {
  sdk = await startSdkHarness();
  await sdk.h.admin.setMemberPassword(sdk.h.project.project_id, sdk.h.member.member_id, {
    password: PASSWORD,
  });
});
afterAll(async () => {
  await sdk?.close();
});

describe('passwords.email.requireReset through B2BClient', () => {
  it('names the member, and the next sign-in with the right password answers reset_password', async () => {
    const answer = await sdk.client.passwords.email.requireReset({
      email_address: 'ada@acme.test',
      organization_id: sdk.h.org.organization_id,
    });
    expect([answer.status_code, answer.member_id]).toEqual([200, sdk.h.member.member_id]);
    expectFields(answer.member, MEMBER);
    expectFields(answer.organization, ORGANIZATION);
    await expect(
      sdk.client.passwords.authenticate({
        organization_id: sdk.h.org.organization_id,
        email_address: 'ada@acme.test',
        password: PASSWORD,
      }),
    ).rejects.toMatchObject({ status_code: 400, error_type: 'reset_password' });
  });

  it("refuses a member id of another project's key with member_not_found", async () => {
    const other = await sdk.h.admin.createProject({ name: 'Elsewhere' });
    await expect(
      sdk.clientFor(other.project_id, other.secret).passwords.email.requireReset({
        email_address: 'ada@acme.test',
        member_id: sdk.h.member.member_id,
      }),
    ).rejects.toMatchObject({ status_code: 404, error_type: 'member_not_found' });
  });

  it("refuses a member's session sent as authorization: the secret key alone decides", async () => {
    const other = await sdk.h.admin.createOrganization(sdk.h.project.project_id, {
      organization_name: 'Sessions Only',
      organization_slug: 'require-reset-authorization',
    });
    const member = await sdk.h.addMember('lin@acme.test', ['admin'], other.organization_id);
    await sdk.h.admin.setMemberPassword(sdk.h.project.project_id, member.member_id, {
      password: PASSWORD,
    });
    const admin = await sdk.client.passwords.authenticate({
      organization_id: other.organization_id,
      email_address: 'lin@acme.test',
      password: PASSWORD,
    });
    await expect(
      sdk.client.passwords.email.requireReset(
        { email_address: 'lin@acme.test', organization_id: other.organization_id },
        { authorization: { session_token: admin.session_token } },
      ),
    ).rejects.toMatchObject({ status_code: 400, error_type: 'invalid_request' });
    // Nothing was marked: the password still signs in.
    const again = await sdk.client.passwords.authenticate({
      organization_id: other.organization_id,
      email_address: 'lin@acme.test',
      password: PASSWORD,
    });
    expect(again.member_authenticated).toBe(true);
  });
});
