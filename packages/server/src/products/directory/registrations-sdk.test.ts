// A member's linked provider identities through the hosted provider's official Node SDK
// (`stytch` 14, `B2BClient`) over TLS: `oauth_registrations` and `sso_registrations` as its types
// say, in every member answer, and never another organization's.
import { ENDPOINTS } from '@gatehouse/protocol/endpoints';
import type { Member } from '@gatehouse/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordLink } from '../../auth/federated/registrations.js';
import { startSdkHarness, type SdkHarness } from '../../test/backend-sdk.js';
import { expectOk, expectSession } from '../../test/harness.js';

const PASSWORD = 'Quartz-Lantern-Orbit-42';

let sdk: SdkHarness;
let other: { organizationId: string; member: Member };

/** Links an identity to a member the way a federated sign-in does. */
async function link(
  member: Member,
  provider: string,
  subject: string,
  profile?: Parameters<typeof recordLink>[4],
): Promise<void> {
  const linked = await recordLink(
    sdk.h.db,
    {
      project_id: sdk.h.project.project_id,
      organization_id: member.organization_id,
      member_id: member.member_id,
      email: member.email_address,
    },
    { provider, issuer: `https://${provider.replace(':', '-')}.example`, subject },
    sdk.h.clock.now,
    profile,
  );
  expect(linked).toBe(true);
}

beforeAll(async () => {
  sdk = await startSdkHarness();
  const { h } = sdk;
  await h.admin.setMemberPassword(h.project.project_id, h.member.member_id, {
    password: PASSWORD,
  });
  await link(h.member, 'google', 'google-sub-ada', {
    profilePictureUrl: 'https://pictures.example/ada.png',
    locale: 'en-GB',
  });
  await link(h.member, 'sso:saml-connection-test-acme', 'ada-nameid', {
    attributes: { email: ['ada@acme.test'], department: ['Engines'] },
  });
  // The same address in another organization, with an identity of its own.
  const org = await h.admin.createOrganization(h.project.project_id, {
    organization_name: 'Globex',
    organization_slug: 'globex-registrations',
  });
  const member = await h.addMember('ada@acme.test', [], org.organization_id);
  await link(member, 'microsoft', 'microsoft-sub-ada');
  other = { organizationId: org.organization_id, member };
});

afterAll(async () => {
  await sdk?.close();
});

const ADA_OAUTH = {
  provider_type: 'google',
  provider_subject: 'google-sub-ada',
  profile_picture_url: 'https://pictures.example/ada.png',
  locale: 'en-GB',
};
const ADA_SSO = {
  connection_id: 'saml-connection-test-acme',
  external_id: 'ada-nameid',
  sso_attributes: { email: ['ada@acme.test'], department: ['Engines'] },
};

describe('a member with linked identities', () => {
  it('members.get answers its OAuth and SSO registrations with their ids', async () => {
    const { member } = await sdk.client.organizations.members.get({
      organization_id: sdk.h.org.organization_id,
      member_id: sdk.h.member.member_id,
    });
    expect(member.oauth_registrations).toEqual([
      { ...ADA_OAUTH, member_oauth_registration_id: expect.any(String) as string },
    ]);
    expect(member.sso_registrations).toEqual([
      { ...ADA_SSO, registration_id: expect.any(String) as string },
    ]);
    const [oauth] = member.oauth_registrations;
    const [sso] = member.sso_registrations;
    expect(oauth?.member_oauth_registration_id).not.toBe(sso?.registration_id);
  });

  it('members.search and sessions.authenticate answer them too', async () => {
    const found = await sdk.client.organizations.members.search({
      organization_ids: [sdk.h.org.organization_id],
      query: {
        operator: 'AND',
        operands: [{ filter_name: 'member_ids', filter_value: [sdk.h.member.member_id] }],
      },
    });
    expect(found.members[0]?.oauth_registrations).toMatchObject([ADA_OAUTH]);
    expect(found.members[0]?.sso_registrations).toMatchObject([ADA_SSO]);
    const login = expectSession(
      await sdk.h.call(ENDPOINTS.passwordsAuthenticate, {
        body: {
          organization_id: sdk.h.org.organization_id,
          email_address: 'ada@acme.test',
          password: PASSWORD,
        },
      }),
    );
    expect(login.member.oauth_registrations).toMatchObject([ADA_OAUTH]);
    const checked = await sdk.client.sessions.authenticate({ session_token: login.session_token });
    expect(checked.member.oauth_registrations).toMatchObject([ADA_OAUTH]);
    expect(checked.member.sso_registrations).toMatchObject([ADA_SSO]);
  });

  it("the browser API's own member answers carry them", async () => {
    const login = expectSession(
      await sdk.h.call(ENDPOINTS.passwordsAuthenticate, {
        body: {
          organization_id: sdk.h.org.organization_id,
          email_address: 'ada@acme.test',
          password: PASSWORD,
        },
      }),
    );
    const me = expectOk(
      await sdk.h.call(ENDPOINTS.sessionsAuthenticate, {
        token: login.session_token,
        body: {},
      }),
    );
    expect(me.member.sso_registrations).toMatchObject([ADA_SSO]);
    expect(me.member.oauth_registrations).toMatchObject([ADA_OAUTH]);
  });
});

describe('another organization', () => {
  it("its member of the same address shows only its own identity, never this one's", async () => {
    const { member } = await sdk.client.organizations.members.get({
      organization_id: other.organizationId,
      member_id: other.member.member_id,
    });
    expect(member.sso_registrations).toEqual([]);
    expect(member.oauth_registrations).toMatchObject([
      { provider_type: 'microsoft', provider_subject: 'microsoft-sub-ada' },
    ]);
    const { member: ada } = await sdk.client.organizations.members.get({
      organization_id: sdk.h.org.organization_id,
      member_id: sdk.h.member.member_id,
    });
    expect(ada.oauth_registrations.map((r) => r.provider_type)).toEqual(['google']);
  });

  it('a link row naming a member under another organization is never shown', async () => {
    // A row whose organization is not the member's (as a bug elsewhere could write) stays hidden.
    await sdk.h.db
      .insertInto('member_federated_identities')
      .values({
        id: 'stray-link',
        project_id: sdk.h.project.project_id,
        organization_id: sdk.h.org.organization_id,
        member_id: other.member.member_id,
        provider: 'sso:saml-connection-test-acme',
        issuer: 'https://idp.example',
        subject: 'stray',
        email: 'ada@acme.test',
        created_at: '2026-01-01T00:00:00.000Z',
        last_used_at: '2026-01-01T00:00:00.000Z',
      })
      .execute();
    const { member } = await sdk.client.organizations.members.get({
      organization_id: other.organizationId,
      member_id: other.member.member_id,
    });
    expect(member.sso_registrations).toEqual([]);
    const found = await sdk.client.organizations.members.search({
      organization_ids: [other.organizationId],
    });
    expect(found.members.flatMap((m) => m.sso_registrations)).toEqual([]);
  });
});
