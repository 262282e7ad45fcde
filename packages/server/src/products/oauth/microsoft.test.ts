// Microsoft's multi-tenant sign-in against a stand-in with Microsoft's layout (oidc-provider under
// a tenant path, the `common` discovery document naming `…/{tenantid}/v2.0`, users of other
// directories answered by their own tenant's issuer): each ID token must come from the issuer of
// the tenant it names, and an address counts only where Microsoft vouches for it (`xms_edov`) or
// the organization allowed the token's tenant. Any directory's administrator can put any address
// on a user, so nothing else about the `email` claim is believed ("nOAuth"), not even a domain
// the organization proved by DNS (against a DNS server on loopback).
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ENDPOINTS } from '@gatehouse/protocol/endpoints';
import { startOidcIdp, type OidcIdp } from '@gatehouse/testing/idp';
import { startDnsStub, type DnsStub } from '../../test/dns-stub.js';
import { basic, expectOk, startHarness, type Harness } from '../../test/harness.js';
import { TestBrowser, signInAtIdp } from '../../test/sso.js';

const ACME_TENANT = '4f2a1b8c-1111-4c5b-b112-36a304b66dad';
const OTHER_TENANT = '7d3e9f00-2222-4c5b-b112-36a304b66dad';
const CLIENT = { clientId: 'gatehouse-microsoft', clientSecret: 'microsoft-client-secret-value' };

let h: Harness;
let microsoft: OidcIdp;
let dns: DnsStub;
let callback: string;

beforeAll(async () => {
  dns = await startDnsStub();
  [h, microsoft] = await Promise.all([
    startHarness({ listen: true, config: { dnsServers: [dns.server] } }),
    startOidcIdp({ tenantId: ACME_TENANT }),
  ]);
  callback = `${h.url}/v1/b2b/public/oauth/microsoft/callback`;
  microsoft.addClient({ ...CLIENT, redirectUris: [callback] });
  // Acme's own directory: Microsoft sends no email_verified and no xms_edov.
  microsoft.users.set('ada@acme.test', { password: 'pw-ada' });
  microsoft.users.set('bea@acme-corp.example', { password: 'pw-bea' });
  microsoft.users.set('dee@acme-corp.example', { password: 'pw-dee' });
  microsoft.users.set('admin@acme.test', { password: 'pw-admin' });
  // Another directory, whose administrator wrote Acme addresses on their own users.
  microsoft.users.set('eve@evil.example', {
    password: 'pw-eve',
    tenant: OTHER_TENANT,
    claims: { email: 'admin@acme.test', email_verified: true },
  });
  microsoft.users.set('mallory@evil.example', {
    password: 'pw-mallory',
    tenant: OTHER_TENANT,
    claims: { email: 'mallory@acme.test' },
  });
  microsoft.users.set('ada-twin@evil.example', {
    password: 'pw-twin',
    tenant: OTHER_TENANT,
    claims: { email: 'ada@acme.test' },
  });
  // A directory that verified the domain of its users' addresses.
  microsoft.users.set('cy@verified.example', {
    password: 'pw-cy',
    tenant: OTHER_TENANT,
    claims: { email: 'cy@acme.test', xms_edov: true },
  });
  // A token whose tenant claim names another tenant than the issuer that signed it.
  microsoft.users.set('spoof@acme.test', {
    password: 'pw-spoof',
    claims: { tid: '00000000-0000-0000-0000-000000000001', xms_edov: true },
  });
  expectOk(
    await h.call(ENDPOINTS.oauthSetProvider, {
      params: { provider: 'microsoft' },
      body: {
        enabled: true,
        client_id: CLIENT.clientId,
        client_secret: CLIENT.clientSecret,
        issuer: microsoft.issuer,
      },
    }),
  );
  await h.admin.createMember(h.project.project_id, h.org.organization_id, {
    email_address: 'admin@acme.test',
    roles: ['admin'],
  });
});

afterAll(async () => {
  await Promise.all([h?.close(), microsoft?.close(), dns?.close()]);
});

beforeEach(async () => {
  await h.admin.updateOrganization(h.project.project_id, h.org.organization_id, {
    email_allowed_domains: ['acme.test'],
    email_jit_provisioning: 'RESTRICTED',
    oauth_tenant_jit_provisioning: 'NOT_ALLOWED',
    allowed_oauth_tenants: { microsoft: [] },
  });
});

async function callbackFor(email: string, password: string, path = 'start') {
  const browser = new TestBrowser();
  const query = new URLSearchParams({ public_token: h.project.public_token });
  if (path === 'start') query.set('slug', h.org.organization_slug);
  const res = await browser.navigate(
    `${h.url}/v1/b2b/public/oauth/microsoft/${path}?${query.toString()}`,
  );
  expect(res.status).toBe(302);
  const { callback: back } = await signInAtIdp(res.location ?? '', callback, { email, password });
  if (!back) throw new Error('The provider did not return');
  return browser.navigate(back);
}

/** Signs in through the organization flow and redeems the token: the session's member. */
async function memberSignedIn(email: string, password: string) {
  const back = await callbackFor(email, password);
  expect(back.status, back.text).toBe(302);
  const token = new URL(back.location ?? '').searchParams.get('token') ?? '';
  const result = expectOk(
    await h.call(ENDPOINTS.oauthAuthenticate, {
      body: { oauth_token: token, session_duration_minutes: 60 },
    }),
  );
  return result;
}

function allowTenants(patch: Record<string, unknown>) {
  return h.admin.updateOrganization(h.project.project_id, h.org.organization_id, patch);
}

describe('Microsoft, multi-tenant', () => {
  it('reads the common discovery document, whose issuer names the tenant as a placeholder', () => {
    expect(microsoft.issuer).toMatch(/\/common\/v2\.0\/\.well-known\/openid-configuration$/);
    expect(microsoft.tokenIssuer).toMatch(new RegExp(`/${ACME_TENANT}/v2\\.0$`));
  });

  it('refuses a token whose tenant is not the tenant of its issuer', async () => {
    const back = await callbackFor('spoof@acme.test', 'pw-spoof');
    expect(back.status).toBe(400);
    expect(back.location).toBeNull();
    expect(back.text).toContain('<code id="error-type">invalid_oidc_response</code>');
    expect(back.text).toContain('is not the issuer of its tenant');
  });
});

describe('another directory claiming Acme addresses (nOAuth)', () => {
  it('does not sign in as the existing admin, even with email_verified set', async () => {
    const back = await callbackFor('eve@evil.example', 'pw-eve');
    expect(back.status, back.text).toBe(403);
    expect(back.location).toBeNull();
    expect(back.text).toContain('<code id="error-type">oauth_email_not_verified</code>');
  });

  it('does not join a new member by the organization domain', async () => {
    const back = await callbackFor('mallory@evil.example', 'pw-mallory');
    expect(back.status).toBe(403);
    const mallory = await h.admin.getMemberByEmail(
      h.project.project_id,
      h.org.organization_id,
      'mallory@acme.test',
    );
    expect(mallory).toBeNull();
  });

  it('stays out when the organization allows its own tenant only', async () => {
    await allowTenants({ allowed_oauth_tenants: { microsoft: [ACME_TENANT] } });
    for (const [email, password] of [
      ['eve@evil.example', 'pw-eve'],
      ['mallory@evil.example', 'pw-mallory'],
    ] as const) {
      const back = await callbackFor(email, password);
      expect(back.status).toBe(403);
    }
  });

  it('gets no discovery token for the address', async () => {
    const back = await callbackFor('eve@evil.example', 'pw-eve', 'discovery/start');
    expect(back.status).toBe(403);
    expect(back.location).toBeNull();
  });
});

describe('what vouches for a Microsoft address', () => {
  it('is not enough that the domain is an allowed e-mail domain', async () => {
    const back = await callbackFor('ada@acme.test', 'pw-ada');
    expect(back.status).toBe(403);
    expect(back.text).toContain('<code id="error-type">oauth_email_not_verified</code>');
  });

  it('is not that the organization verified the domain of the address by DNS', async () => {
    const token = (await h.login('admin@acme.test')).session_token;
    const added = expectOk(
      await h.call(ENDPOINTS.organizationDomainAdd, { token, body: { domain: 'acme.test' } }),
    ).domain;
    dns.txt.set(added.txt_record.name, [added.txt_record.value]);
    const params = { domain_id: added.domain_id };
    try {
      const verified = await h.call(ENDPOINTS.organizationDomainVerify, { token, params });
      expect(expectOk(verified).domain.status).toBe('verified');
      // Acme's own directory, no xms_edov, the tenant not allowed: the address is not vouched for.
      const own = await callbackFor('ada@acme.test', 'pw-ada');
      expect(own.status).toBe(403);
      expect(own.text).toContain('<code id="error-type">oauth_email_not_verified</code>');
      // Nor is another directory's user with an address at the verified domain.
      const foreign = await callbackFor('mallory@evil.example', 'pw-mallory');
      expect(foreign.status).toBe(403);
      const mallory = await h.admin.getMemberByEmail(
        h.project.project_id,
        h.org.organization_id,
        'mallory@acme.test',
      );
      expect(mallory).toBeNull();
    } finally {
      expectOk(await h.call(ENDPOINTS.organizationDomainDelete, { token, params }));
    }
  });

  it("is the organization's own tenant, once allowed, and links the member to the identity", async () => {
    await allowTenants({ allowed_oauth_tenants: { microsoft: [ACME_TENANT.toUpperCase()] } });
    const result = await memberSignedIn('ada@acme.test', 'pw-ada');
    expect(result.member.email_address).toBe('ada@acme.test');
    expect(result.provider_values.id_token.split('.')).toHaveLength(3);
    expect(result.member_session?.authentication_factors[0]?.delivery_method).toBe(
      'oauth_microsoft',
    );
    const links = await h.db
      .selectFrom('member_federated_identities')
      .selectAll()
      .where('member_id', '=', result.member.member_id)
      .execute();
    expect(links).toEqual([
      expect.objectContaining({
        provider: 'microsoft',
        issuer: `${new URL(microsoft.tokenIssuer).origin}/${ACME_TENANT}/v2.0`,
        subject: 'ada@acme.test',
      }),
    ]);
    // Another directory's account with the same address is a second subject: still refused.
    const twin = await callbackFor('ada-twin@evil.example', 'pw-twin');
    expect(twin.status).toBe(403);
  });

  it('finds the linked member by its identity when the address claim changes', async () => {
    await allowTenants({ allowed_oauth_tenants: { microsoft: [ACME_TENANT] } });
    const first = await memberSignedIn('ada@acme.test', 'pw-ada');
    const ada = microsoft.users.get('ada@acme.test');
    if (!ada) throw new Error('no user');
    ada.claims = { email: 'ada.lovelace@acme.test' };
    try {
      const again = await memberSignedIn('ada@acme.test', 'pw-ada');
      expect(again.member.member_id).toBe(first.member.member_id);
      expect(again.member.email_address).toBe('ada@acme.test');
    } finally {
      ada.claims = {};
    }
  });

  it('lets members of an allowed tenant join by tenant, whatever their domain', async () => {
    const refused = await callbackFor('bea@acme-corp.example', 'pw-bea');
    expect(refused.status).toBe(403);
    await allowTenants({
      oauth_tenant_jit_provisioning: 'RESTRICTED',
      allowed_oauth_tenants: { microsoft: [ACME_TENANT] },
    });
    const back = await callbackFor('bea@acme-corp.example', 'pw-bea');
    expect(back.status).toBe(302);
    expect(back.location).toContain('/authenticate');
    const bea = await h.admin.getMemberByEmail(
      h.project.project_id,
      h.org.organization_id,
      'bea@acme-corp.example',
    );
    expect(bea?.status).toBe('active');
  });

  it('is xms_edov: the address joins by domain and discovers its organization', async () => {
    const discovery = await callbackFor('cy@verified.example', 'pw-cy', 'discovery/start');
    expect(discovery.status).toBe(302);
    const token = new URL(discovery.location ?? '').searchParams.get('token') ?? '';
    const found = expectOk(
      await h.call(ENDPOINTS.oauthDiscoveryAuthenticate, {
        body: { discovery_oauth_token: token },
      }),
    );
    expect(found.email_address).toBe('cy@acme.test');
    expect(found.discovered_organizations.map((d) => d.membership.type)).toEqual([
      'eligible_to_join_by_email_domain',
    ]);
    const joined = await memberSignedIn('cy@verified.example', 'pw-cy');
    expect(joined.member.email_address).toBe('cy@acme.test');
  });
});

describe('concurrent first sign-ins', () => {
  it('create one member and one linked identity', async () => {
    await allowTenants({
      oauth_tenant_jit_provisioning: 'RESTRICTED',
      allowed_oauth_tenants: { microsoft: [ACME_TENANT] },
    });
    // Two browsers reach the provider's answer, then both return at once.
    const returns = await Promise.all(
      [new TestBrowser(), new TestBrowser()].map(async (browser) => {
        const query = new URLSearchParams({
          public_token: h.project.public_token,
          slug: h.org.organization_slug,
        });
        const res = await browser.navigate(
          `${h.url}/v1/b2b/public/oauth/microsoft/start?${query.toString()}`,
        );
        const { callback: back } = await signInAtIdp(res.location ?? '', callback, {
          email: 'dee@acme-corp.example',
          password: 'pw-dee',
        });
        return { browser, back: back ?? '' };
      }),
    );
    const answers = await Promise.all(returns.map(({ browser, back }) => browser.navigate(back)));
    const statuses = answers.map((a) => a.status).sort();
    // One creates the member; the other signs in as it, or is told to try again (never a 500).
    expect(statuses[0]).toBe(302);
    expect([302, 400]).toContain(statuses[1]);
    const members = await h.db
      .selectFrom('members')
      .select('id')
      .where('email', '=', 'dee@acme-corp.example')
      .execute();
    expect(members).toHaveLength(1);
    const links = await h.db
      .selectFrom('member_federated_identities')
      .select('id')
      .where('member_id', '=', members[0]?.id ?? '')
      .execute();
    expect(links).toHaveLength(1);
  });
});

describe('the tenant settings', () => {
  it("let an administrator allow their own Microsoft account's tenant, and no other", async () => {
    await allowTenants({ allowed_oauth_tenants: { microsoft: [ACME_TENANT] } });
    const admin = await memberSignedIn('admin@acme.test', 'pw-admin');
    const token = admin.session_token;
    await allowTenants({ allowed_oauth_tenants: { microsoft: [] } });
    const update = (microsoft: string[]) =>
      h.call(ENDPOINTS.organizationUpdateMe, {
        token,
        body: { allowed_oauth_tenants: { microsoft } },
      });
    const foreign = await update([OTHER_TENANT]);
    expect(foreign.status).toBe(400);
    expect(foreign.error?.error_type).toBe('invalid_request');
    const own = expectOk(await update([ACME_TENANT]));
    expect(own.organization.allowed_oauth_tenants?.microsoft).toEqual([ACME_TENANT]);
  });

  it('are set and read through the management API, and bad tenant ids are refused', async () => {
    const path = `/v1/b2b/organizations/${h.org.organization_id}`;
    const set = await h.call(ENDPOINTS.updateOrganization, {
      params: { organization_id: h.org.organization_id },
      body: {
        oauth_tenant_jit_provisioning: 'RESTRICTED',
        allowed_oauth_tenants: { microsoft: [ACME_TENANT], google: ['Acme.test'] },
      },
    });
    const org = expectOk(set).organization;
    expect(org.oauth_tenant_jit_provisioning).toBe('RESTRICTED');
    expect(org.allowed_oauth_tenants).toEqual({ google: ['acme.test'], microsoft: [ACME_TENANT] });
    const bad = await h.request(path, {
      method: 'PUT',
      body: { allowed_oauth_tenants: { microsoft: ['not a tenant!'] } },
      authorization: basic(h.project.project_id, h.project.secret),
    });
    expect(bad.status).toBe(400);
    expect(bad.error?.error_type).toBe('invalid_request');
  });
});
