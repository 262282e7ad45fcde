// The organization management calls of createAdminClient: each goes to its endpoint of the table with the member's
// session, the method and the body the server reads; misuse is a usage error before any request.
import { ENDPOINTS } from '@gatehouse/protocol/endpoints';
import { DEFAULT_SESSION_COOKIE, SDK_PREFIX } from '@gatehouse/protocol';
import { PUBLIC_TOKEN, SESSION_TOKEN } from '@gatehouse/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { createAdminClient } from './admin.js';
import type { AdminClient } from './admin-types.js';
import { GatehouseAPIError, GatehouseUsageError } from './errors.js';
import { apiError, installFakeApi, ok } from './test/fake-api.js';
import { cleanup, makeClient } from './test/harness.js';

afterEach(cleanup);

const answer = () => ok({ request_id: 'r', status_code: 200 });

/** Every call, with what it sends and the endpoint of the table it must reach. */
const CASES = [
  {
    name: 'organization.get',
    endpoint: ENDPOINTS.organizationMe,
    path: '/b2b/organizations/me',
    call: (c: AdminClient) => c.organization.get(),
    body: undefined,
  },
  {
    name: 'organization.update',
    endpoint: ENDPOINTS.organizationUpdateMe,
    path: '/b2b/organizations/me',
    call: (c: AdminClient) =>
      c.organization.update({ organization_name: 'Acme', mfa_policy: 'REQUIRED_FOR_ALL' }),
    body: { organization_name: 'Acme', mfa_policy: 'REQUIRED_FOR_ALL' },
  },
  {
    name: 'organization.members.list',
    endpoint: ENDPOINTS.organizationMembersSearch,
    path: '/b2b/organizations/me/members/search',
    call: (c: AdminClient) =>
      c.organization.members.list({
        limit: 20,
        query: {
          operator: 'AND',
          operands: [{ filter_name: 'statuses', filter_value: ['active'] }],
        },
      }),
    body: {
      limit: 20,
      query: { operator: 'AND', operands: [{ filter_name: 'statuses', filter_value: ['active'] }] },
    },
  },
  {
    name: 'organization.members.update',
    endpoint: ENDPOINTS.memberUpdate,
    path: '/b2b/organizations/members/member-1',
    call: (c: AdminClient) =>
      c.organization.members.update({ member_id: 'member-1', roles: ['admin'] }),
    body: { roles: ['admin'] },
  },
  {
    name: 'organization.members.delete',
    endpoint: ENDPOINTS.memberDelete,
    path: '/b2b/organizations/members/member-1',
    call: (c: AdminClient) => c.organization.members.delete('member-1'),
    body: undefined,
  },
  {
    name: 'organization.members.reactivate',
    endpoint: ENDPOINTS.memberReactivate,
    path: '/b2b/organizations/members/member-1/reactivate',
    call: (c: AdminClient) => c.organization.members.reactivate('member-1'),
    body: undefined,
  },
  {
    name: 'organization.members.deleteMfaPhoneNumber',
    endpoint: ENDPOINTS.memberDeleteMfaPhoneNumber,
    path: '/b2b/organizations/members/mfa_phone_numbers/member-1',
    call: (c: AdminClient) => c.organization.members.deleteMfaPhoneNumber('member-1'),
    body: undefined,
  },
  {
    name: 'organization.members.deleteTotp',
    endpoint: ENDPOINTS.memberDeleteTotp,
    path: '/b2b/organizations/members/totp/member-1',
    call: (c: AdminClient) => c.organization.members.deleteTotp('member-1'),
    body: undefined,
  },
  {
    name: 'organization.members.deletePassword',
    endpoint: ENDPOINTS.memberDeletePassword,
    path: '/b2b/organizations/members/passwords/member-password-1',
    call: (c: AdminClient) => c.organization.members.deletePassword('member-password-1'),
    body: undefined,
  },
  {
    name: 'magicLinks.email.invite',
    endpoint: ENDPOINTS.magicLinksInvite,
    path: '/b2b/magic_links/email/invite',
    call: (c: AdminClient) =>
      c.magicLinks.email.invite({ email_address: 'new@acme.test', roles: ['admin'] }),
    body: { email_address: 'new@acme.test', roles: ['admin'] },
  },
  {
    name: 'magicLinks.email.resendInvite',
    endpoint: ENDPOINTS.magicLinksInviteResend,
    path: '/b2b/magic_links/email/invite/resend',
    call: (c: AdminClient) =>
      c.magicLinks.email.resendInvite({ member_id: 'member-1', invite_expiration_minutes: 60 }),
    body: { member_id: 'member-1', invite_expiration_minutes: 60 },
  },
  {
    name: 'magicLinks.email.revokeInvite',
    endpoint: ENDPOINTS.magicLinksInviteRevoke,
    path: '/b2b/magic_links/email/invite/revoke',
    call: (c: AdminClient) => c.magicLinks.email.revokeInvite({ member_id: 'member-1' }),
    body: { member_id: 'member-1' },
  },
  {
    name: 'organization.sessions.list',
    endpoint: ENDPOINTS.organizationSessionsSearch,
    path: '/b2b/organizations/me/sessions/search',
    call: (c: AdminClient) => c.organization.sessions.list({ member_id: 'member-1', limit: 20 }),
    body: { member_id: 'member-1', limit: 20 },
  },
  {
    name: 'organization.sessions.revoke',
    endpoint: ENDPOINTS.organizationSessionsRevoke,
    path: '/b2b/organizations/me/sessions/revoke',
    call: (c: AdminClient) => c.organization.sessions.revoke({ member_session_id: 'session-1' }),
    body: { member_session_id: 'session-1' },
  },
  {
    name: 'self.sessions.list',
    endpoint: ENDPOINTS.ownSessionsList,
    path: '/b2b/organizations/members/me/sessions',
    call: (c: AdminClient) => c.self.sessions.list(),
    body: undefined,
  },
  {
    name: 'self.sessions.revoke',
    endpoint: ENDPOINTS.ownSessionsRevoke,
    path: '/b2b/organizations/members/me/sessions/revoke',
    call: (c: AdminClient) => c.self.sessions.revoke({ all_others: true }),
    body: { all_others: true },
  },
  {
    name: 'self.get',
    endpoint: ENDPOINTS.memberMe,
    path: '/b2b/organizations/members/me',
    call: (c: AdminClient) => c.self.get(),
    body: undefined,
  },
  {
    name: 'self.deleteMfaPhoneNumber',
    endpoint: ENDPOINTS.memberDeleteSelfMfaPhoneNumber,
    path: '/b2b/organizations/members/deletePhoneNumber',
    call: (c: AdminClient) => c.self.deleteMfaPhoneNumber(),
    body: undefined,
  },
  {
    name: 'self.deleteTotp',
    endpoint: ENDPOINTS.memberDeleteSelfTotp,
    path: '/b2b/organizations/members/deleteTOTP',
    call: (c: AdminClient) => c.self.deleteTotp(),
    body: undefined,
  },
  {
    name: 'sso.getConnections',
    endpoint: ENDPOINTS.sdkSsoList,
    path: '/b2b/sso',
    call: (c: AdminClient) => c.sso.getConnections(),
    body: undefined,
  },
  {
    name: 'sso.deleteConnection',
    endpoint: ENDPOINTS.sdkSsoDelete,
    path: '/b2b/sso/saml-connection-1',
    call: (c: AdminClient) => c.sso.deleteConnection('saml-connection-1'),
    body: undefined,
  },
  {
    name: 'sso.saml.createConnection',
    endpoint: ENDPOINTS.sdkSsoCreateSaml,
    path: '/b2b/sso/saml',
    call: (c: AdminClient) => c.sso.saml.createConnection({ display_name: 'Okta' }),
    body: { display_name: 'Okta' },
  },
  {
    name: 'sso.saml.updateConnectionByMetadata',
    endpoint: ENDPOINTS.sdkSsoUpdateSamlByMetadata,
    path: '/b2b/sso/saml/saml-connection-1/url',
    call: (c: AdminClient) =>
      c.sso.saml.updateConnectionByMetadata({
        connection_id: 'saml-connection-1',
        metadata_xml: '<EntityDescriptor/>',
      }),
    body: { metadata_xml: '<EntityDescriptor/>' },
  },
  {
    name: 'sso.oidc.createConnection',
    endpoint: ENDPOINTS.sdkSsoCreateOidc,
    path: '/b2b/sso/oidc',
    call: (c: AdminClient) =>
      c.sso.oidc.createConnection({ display_name: 'Entra', issuer: 'https://idp.acme.test' }),
    body: { display_name: 'Entra', issuer: 'https://idp.acme.test' },
  },
];

describe('organization management calls', () => {
  it.each(CASES)('$name calls its endpoint with the session', async (c) => {
    const api = installFakeApi({ [c.path]: answer });
    const admin = createAdminClient(makeClient());
    // The session cookie the member's sign-in set, read at each call.
    document.cookie = `${DEFAULT_SESSION_COOKIE}=${SESSION_TOKEN}; path=/`;
    await c.call(admin);
    const [request] = api.calls();
    expect(request?.method).toBe(c.endpoint.method);
    // The path of the table, with its parameters filled in.
    const pattern = new RegExp(
      `^${c.endpoint.path.slice(SDK_PREFIX.length).replace(/:[a-z_]+/g, '[^/]+')}$`,
    );
    expect(request?.path).toMatch(pattern);
    expect(request?.path).toBe(c.path);
    expect(request?.body).toEqual(c.body);
    expect(request?.headers.Authorization).toBe(
      `Basic ${btoa(`${PUBLIC_TOKEN}:${SESSION_TOKEN}`)}`,
    );
  });

  it('rejects with the server error, such as 403 unauthorized_action', async () => {
    installFakeApi({
      '/b2b/organizations/members/member-1': () =>
        apiError(403, 'unauthorized_action', 'You may not update members.'),
    });
    const error = await createAdminClient(makeClient())
      .organization.members.update({ member_id: 'member-1', name: 'X' })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(GatehouseAPIError);
    expect((error as GatehouseAPIError).error_type).toBe('unauthorized_action');
  });

  it('rejects a stale edit with 409 stale_update, the precondition sent as given', async () => {
    const api = installFakeApi({
      '/b2b/organizations/me': () =>
        apiError(409, 'stale_update', 'The organization was changed by someone else.'),
    });
    const error = await createAdminClient(makeClient())
      .organization.update({ organization_name: 'Acme', updated_at: '2026-01-01T00:00:00.000Z' })
      .catch((e: unknown) => e);
    expect((error as GatehouseAPIError).error_type).toBe('stale_update');
    expect((error as GatehouseAPIError).status_code).toBe(409);
    expect(api.calls()[0]?.body).toEqual({
      organization_name: 'Acme',
      updated_at: '2026-01-01T00:00:00.000Z',
    });
  });

  it('refuses misuse before any request', async () => {
    const api = installFakeApi();
    const client = createAdminClient(makeClient());
    const misuses = [
      () => client.organization.members.delete(''),
      () => client.organization.members.reactivate(42 as unknown as string),
      () => client.organization.members.deleteMfaPhoneNumber(''),
      () => client.organization.members.deleteTotp(undefined as never),
      () => client.organization.members.deletePassword(7 as unknown as string),
      () => client.organization.members.update({ name: 'no id' } as never),
      () => client.organization.update(null as never),
      () => client.magicLinks.email.invite({ email_address: 7 } as never),
      () => client.sso.deleteConnection(undefined as never),
      () => client.magicLinks.email.resendInvite({ member_id: '' }),
      () => client.magicLinks.email.revokeInvite({} as never),
      () => client.organization.sessions.list({ limit: '20' } as never),
      () => client.organization.sessions.revoke({}),
      () => client.organization.sessions.revoke({ member_id: 'm', member_session_id: 's' }),
      () => client.self.sessions.revoke({ all_others: false } as never),
      () => client.self.sessions.revoke({}),
    ];
    for (const misuse of misuses) {
      await expect(misuse()).rejects.toBeInstanceOf(GatehouseUsageError);
    }
    expect(api.calls()).toEqual([]);
  });
});
