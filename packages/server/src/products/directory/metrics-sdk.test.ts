// organizations.metrics through the hosted provider's official Node SDK (`stytch` 14,
// `B2BClient`) over TLS: the organization's member count, deleted members not counted.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSdkHarness, type SdkHarness } from '../../test/backend-sdk.js';

let sdk: SdkHarness;
beforeAll(async () => {
  sdk = await startSdkHarness();
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

describe('organizations.metrics through B2BClient', () => {
  it('counts active, invited and pending members, and no deleted one', async () => {
    const organization_id = sdk.h.org.organization_id;
    const before = await sdk.client.organizations.metrics({ organization_id });
    expect([before.status_code, before.member_count]).toEqual([200, 1]);
    expect(before.request_id).toMatch(/^request-id-test-/);
    await sdk.client.organizations.members.create({
      organization_id,
      email_address: 'pending@acme.test',
      create_member_as_pending: true,
    });
    await sdk.client.magicLinks.email.invite({ organization_id, email_address: 'new@acme.test' });
    const leaving = await sdk.client.organizations.members.create({
      organization_id,
      email_address: 'leaving@acme.test',
    });
    await sdk.client.organizations.members.delete({
      organization_id,
      member_id: leaving.member_id,
    });
    const after = await sdk.client.organizations.metrics({ organization_id });
    expect(after.member_count).toBe(3);
  });

  it("counts only the organization's own members", async () => {
    const sibling = await sdk.h.admin.createOrganization(sdk.h.project.project_id, {
      organization_name: 'Sibling',
      organization_slug: 'sibling',
    });
    const answer = await sdk.client.organizations.metrics({
      organization_id: sibling.organization_id,
    });
    expect(answer.member_count).toBe(0);
  });

  it("refuses another project's organization, an unknown one and a wrong secret", async () => {
    const other = await sdk.h.admin.createProject({ name: 'Elsewhere' });
    const foreignOrg = await sdk.h.admin.createOrganization(other.project_id, {
      organization_name: 'Acme elsewhere',
      organization_slug: 'acme-elsewhere',
    });
    for (const organization_id of [foreignOrg.organization_id, 'organization-test-nope']) {
      expect(await refusal(sdk.client.organizations.metrics({ organization_id }))).toMatchObject({
        status_code: 404,
        error_type: 'organization_not_found',
      });
    }
    const wrong = sdk.clientFor(sdk.h.project.project_id, `${sdk.h.project.secret}x`);
    expect(
      await refusal(wrong.organizations.metrics({ organization_id: sdk.h.org.organization_id })),
    ).toMatchObject({ status_code: 401, error_type: 'unauthorized_credentials' });
  });
});
