// The provider's own Node SDK (stytch 14.x B2BClient), pointed at Gatehouse over a real socket:
// its organizations and members calls work unchanged, and its errors carry Gatehouse's types.
import { ENDPOINTS } from '@gatehouse/protocol/endpoints';
import { B2BClient, StytchError } from 'stytch';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { expectOk, startHarness, type Harness } from '../../test/harness.js';

let h: Harness;
let client: B2BClient;
beforeAll(async () => {
  h = await startHarness({ listen: true });
  // The SDK warns about any base URL that is not the provider's own.
  const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
  client = new B2BClient({
    project_id: h.project.project_id,
    secret: h.project.secret,
    env: h.url,
  });
  warn.mockRestore();
});
afterAll(async () => {
  await h.close();
});

/** The error type of a refused SDK call. */
const errorType = (promise: Promise<unknown>) =>
  promise.then(
    () => 'accepted',
    (error: unknown) => (error instanceof StytchError ? error.error_type : String(error)),
  );

describe('the provider’s Node SDK', () => {
  it('searches organizations and their members, page by page', async () => {
    const org = await h.admin.createOrganization(h.project.project_id, {
      organization_name: 'Stark Industries',
      organization_slug: 'stark',
    });
    for (const name of ['tony', 'pepper', 'happy']) {
      await h.admin.createMember(h.project.project_id, org.organization_id, {
        email_address: `${name}@stark.test`,
      });
    }
    const found = await client.organizations.search({
      query: {
        operator: 'AND',
        operands: [{ filter_name: 'organization_name_fuzzy', filter_value: 'stark' }],
      },
    });
    expect(found.status_code).toBe(200);
    expect(found.organizations.map((o) => o.organization_id)).toEqual([org.organization_id]);
    expect(found.results_metadata.total).toBe(1);

    const emails: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await client.organizations.members.search({
        organization_ids: [org.organization_id],
        limit: 2,
        ...(cursor ? { cursor } : {}),
      });
      emails.push(...page.members.map((m) => m.email_address));
      expect(page.organizations[org.organization_id]?.organization_slug).toBe('stark');
      cursor = page.results_metadata.next_cursor ?? undefined;
    } while (cursor);
    expect(emails.sort()).toEqual(['happy@stark.test', 'pepper@stark.test', 'tony@stark.test']);
  });

  it('gets, strips, deletes and reactivates a member, and deletes an organization', async () => {
    const projectId = h.project.project_id;
    const org = await h.admin.createOrganization(projectId, {
      organization_name: 'Oscorp',
      organization_slug: 'oscorp',
    });
    const created = await h.admin.createMember(projectId, org.organization_id, {
      email_address: 'norman@oscorp.test',
      password: 'correct horse battery staple 42',
    });
    await h.admin.updateMember(projectId, created.member_id, { mfa_phone_number: '+14155552671' });
    const ids = { organization_id: org.organization_id, member_id: created.member_id };

    const got = await client.organizations.members.get({
      organization_id: org.organization_id,
      email_address: 'norman@oscorp.test',
    });
    expect([got.member_id, got.organization.organization_id]).toEqual([
      created.member_id,
      org.organization_id,
    ]);
    const noPassword = await client.organizations.members.deletePassword({
      organization_id: org.organization_id,
      member_password_id: created.member_password_id,
    });
    expect(noPassword.member.member_password_id).toBe('');
    const noPhone = await client.organizations.members.deleteMFAPhoneNumber(ids);
    expect(noPhone.member.mfa_phone_number).toBe('');
    expect(await errorType(client.organizations.members.deleteTOTP(ids))).toBe('totp_not_found');

    expect((await client.organizations.members.delete(ids)).member_id).toBe(created.member_id);
    expect(await errorType(client.organizations.members.get(ids))).toBe('member_not_found');
    const back = await client.organizations.members.reactivate(ids);
    expect(back.member.status).toBe('active');

    const deleted = await client.organizations.delete({ organization_id: org.organization_id });
    expect(deleted.organization_id).toBe(org.organization_id);
    expect(
      await errorType(client.organizations.get({ organization_id: org.organization_id })),
    ).toBe('organization_not_found');
    const read = await h.call(ENDPOINTS.searchOrganizations, {
      body: {
        query: {
          operator: 'AND',
          operands: [{ filter_name: 'organization_slugs', filter_value: ['oscorp'] }],
        },
      },
    });
    expect(expectOk(read).organizations).toEqual([]);
  });
});
