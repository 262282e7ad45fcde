// Discovery (§7.1, §7.3, §9): DR from a link, listing, creating and entering organizations.
import { ENDPOINTS } from '@gatehouse/protocol/endpoints';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectOk, expectSession, startHarness, type Harness } from '../../test/harness.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h.close();
});

async function discover(email: string) {
  const sent = await h.call(ENDPOINTS.magicLinksDiscoverySend, {
    body: { email_address: email },
  });
  expect(sent.status).toBe(200);
  const res = await h.call(ENDPOINTS.magicLinksDiscoveryAuthenticate, {
    body: { discovery_magic_links_token: await h.lastToken(email) },
  });
  expect(res.status).toBe(200);
  return expectOk(res);
}

describe('discovery authenticate', () => {
  it('returns DR with memberships and domain eligibility', async () => {
    await h.admin.createMember(h.project.project_id, h.org.organization_id, {
      email_address: 'grace@acme.test',
      status: 'invited',
    });
    const data = await discover('grace@acme.test');
    expect(data.email_address).toBe('grace@acme.test');
    expect(data.intermediate_session_token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(data.discovered_organizations).toHaveLength(1);
    expect(data.discovered_organizations[0]).toMatchObject({
      organization: { organization_id: h.org.organization_id },
      membership: {
        type: 'invited_member',
        details: null,
        member: { email_address: 'grace@acme.test' },
      },
      member_authenticated: false,
      mfa_required: null,
      primary_required: null,
    });

    const eligible = await discover('newbie@acme.test');
    expect(eligible.discovered_organizations).toEqual([
      expect.objectContaining({
        membership: {
          type: 'eligible_to_join_by_email_domain',
          details: { domain: 'acme.test' },
          member: null,
        },
      }),
    ]);
    const nobody = await discover('nobody@nowhere.example');
    expect(nobody.discovered_organizations).toEqual([]);
  });

  it('marks organizations that require another primary method', async () => {
    const sso = await h.admin.createOrganization(h.project.project_id, {
      organization_name: 'SSO only',
      organization_slug: 'sso-only',
      auth_methods: 'RESTRICTED',
      allowed_auth_methods: ['sso'],
    });
    await h.admin.createMember(h.project.project_id, sso.organization_id, {
      email_address: 'sam@sso.example',
    });
    const data = await discover('sam@sso.example');
    expect(data.discovered_organizations[0]?.primary_required).toEqual({
      allowed_auth_methods: ['sso'],
    });
    const exchange = await h.call(ENDPOINTS.discoveryExchange, {
      body: {
        intermediate_session_token: data.intermediate_session_token,
        organization_id: sso.organization_id,
        session_duration_minutes: 60,
      },
    });
    expect([exchange.status, exchange.error?.error_type]).toEqual([403, 'primary_auth_required']);
  });

  it('refuses used and unknown discovery tokens', async () => {
    await h.call(ENDPOINTS.magicLinksDiscoverySend, {
      body: { email_address: 'ada@acme.test' },
    });
    const token = await h.lastToken('ada@acme.test');
    const first = await h.call(ENDPOINTS.magicLinksDiscoveryAuthenticate, {
      body: { discovery_magic_links_token: token },
    });
    expect(first.status).toBe(200);
    const again = await h.call(ENDPOINTS.magicLinksDiscoveryAuthenticate, {
      body: { discovery_magic_links_token: token },
    });
    expect([again.status, again.error?.error_type]).toEqual([404, 'magic_link_not_found']);
    // A login-link token is not a discovery token.
    await h.call(ENDPOINTS.magicLinksLoginOrSignup, {
      body: { email_address: 'ada@acme.test', organization_id: h.org.organization_id },
    });
    const wrongKind = await h.call(ENDPOINTS.magicLinksDiscoveryAuthenticate, {
      body: { discovery_magic_links_token: await h.lastToken('ada@acme.test') },
    });
    expect(wrongKind.status).toBe(404);
  });
});

describe('discovery organizations', () => {
  it('lists by IST without consuming it, or by session; 401 with neither; 404 for a bad IST', async () => {
    const dr = await discover('ada@acme.test');
    for (let i = 0; i < 2; i += 1) {
      const res = await h.call(ENDPOINTS.discoveryOrganizations, {
        body: { intermediate_session_token: dr.intermediate_session_token },
      });
      expect(res.status).toBe(200);
      const listed = expectOk(res);
      expect(listed.email_address).toBe('ada@acme.test');
      expect(listed.organization_id_hint).toBeNull();
      expect(listed.discovered_organizations[0]?.membership.type).toBe('active_member');
    }
    const session = await h.login();
    const bySession = await h.call(ENDPOINTS.discoveryOrganizations, {
      body: {},
      token: session.session_token,
    });
    expect(bySession.status).toBe(200);
    expect(expectOk(bySession).organization_id_hint).toBe(h.org.organization_id);

    const neither = await h.call(ENDPOINTS.discoveryOrganizations, { body: {} });
    expect([neither.status, neither.error?.error_type]).toEqual([401, 'unauthorized_credentials']);
    const bad = await h.call(ENDPOINTS.discoveryOrganizations, {
      body: { intermediate_session_token: 'nope' },
    });
    expect([bad.status, bad.error?.error_type]).toEqual([404, 'intermediate_session_not_found']);
    const expiredIst = await discover('ada@acme.test');
    h.clock.advance(11 * 60_000);
    const expired = await h.call(ENDPOINTS.discoveryOrganizations, {
      body: { intermediate_session_token: expiredIst.intermediate_session_token },
    });
    expect(expired.error?.error_type).toBe('intermediate_session_not_found');
  });

  it('creates an organization named after the e-mail domain, with a suffix on clash', async () => {
    const dr = await discover('founder@acme.test');
    const res = await h.call(ENDPOINTS.discoveryOrganizationsCreate, {
      body: {
        intermediate_session_token: dr.intermediate_session_token,
        session_duration_minutes: 60,
      },
    });
    expect(res.status).toBe(200);
    const created = expectSession(res);
    expect(created.organization).toMatchObject({
      organization_name: 'acme',
      organization_slug: 'acme-2',
    });
    expect(created.member.roles.map((r) => r.role_id).sort()).toEqual(['admin', 'member']);
    expect(created.member_session.roles.sort()).toEqual(['admin', 'member']);
    expect(created.session_token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    // The IST yielded a full session and is now void.
    const reuse = await h.call(ENDPOINTS.discoveryOrganizations, {
      body: { intermediate_session_token: dr.intermediate_session_token },
    });
    expect(reuse.error?.error_type).toBe('intermediate_session_not_found');
  });

  it('refuses a taken explicit slug, and creation when the project disallows it', async () => {
    const dr = await discover('founder2@acme.test');
    const taken = await h.call(ENDPOINTS.discoveryOrganizationsCreate, {
      body: {
        intermediate_session_token: dr.intermediate_session_token,
        session_duration_minutes: 60,
        organization_slug: 'acme',
        organization_name: 'Acme 2',
      },
    });
    expect([taken.status, taken.error?.error_type]).toEqual([400, 'organization_slug_taken']);
    await h.admin.updateProject(h.project.project_id, { createOrganizationEnabled: false });
    h.clock.advance(10_000);
    const dr2 = await discover('founder3@acme.test');
    const off = await h.call(ENDPOINTS.discoveryOrganizationsCreate, {
      body: {
        intermediate_session_token: dr2.intermediate_session_token,
        session_duration_minutes: 60,
      },
    });
    expect([off.status, off.error?.error_type]).toEqual([403, 'organization_creation_not_allowed']);
    await h.admin.updateProject(h.project.project_id, { createOrganizationEnabled: true });
    h.clock.advance(10_000);
  });
});

describe('intermediate session exchange', () => {
  it('authenticates, activates, joins by domain, and refuses non-members', async () => {
    const dr = await discover('joiner@acme.test');
    const res = await h.call(ENDPOINTS.discoveryExchange, {
      body: {
        intermediate_session_token: dr.intermediate_session_token,
        organization_id: h.org.organization_id,
        session_duration_minutes: 60,
      },
    });
    expect(res.status).toBe(200);
    expect(expectOk(res).member).toMatchObject({
      email_address: 'joiner@acme.test',
      status: 'active',
    });
    expect(expectOk(res).member_authenticated).toBe(true);

    const closed = await h.admin.createOrganization(h.project.project_id, {
      organization_name: 'Closed',
      organization_slug: 'closed-x',
    });
    const dr2 = await discover('joiner2@acme.test');
    const refused = await h.call(ENDPOINTS.discoveryExchange, {
      body: {
        intermediate_session_token: dr2.intermediate_session_token,
        organization_id: closed.organization_id,
        session_duration_minutes: 60,
      },
    });
    expect([refused.status, refused.error?.error_type]).toEqual([404, 'member_not_found']);
    const unknownOrg = await h.call(ENDPOINTS.discoveryExchange, {
      body: {
        intermediate_session_token: dr2.intermediate_session_token,
        organization_id: 'organization-test-x',
        session_duration_minutes: 60,
      },
    });
    expect(unknownOrg.error?.error_type).toBe('organization_not_found');
  });

  it('returns variant B for an organization that requires MFA', async () => {
    const vault = await h.admin.createOrganization(h.project.project_id, {
      organization_name: 'Vault',
      organization_slug: 'vault-x',
      mfa_policy: 'REQUIRED_FOR_ALL',
      email_allowed_domains: ['acme.test'],
    });
    const dr = await discover('mfa@acme.test');
    const listed = dr.discovered_organizations.find(
      (d) => d.organization.organization_id === vault.organization_id,
    );
    expect(listed?.membership.type).toBe('eligible_to_join_by_email_domain');
    const res = await h.call(ENDPOINTS.discoveryExchange, {
      body: {
        intermediate_session_token: dr.intermediate_session_token,
        organization_id: vault.organization_id,
        session_duration_minutes: 60,
      },
    });
    expect(res.status).toBe(200);
    expect(expectOk(res)).toMatchObject({
      member_authenticated: false,
      member_session: null,
      session_token: '',
      session_jwt: '',
    });
    expect(expectOk(res).intermediate_session_token).not.toBe('');
  });
});
