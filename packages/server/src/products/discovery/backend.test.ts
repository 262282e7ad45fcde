// The management API's discovery calls: discovery.organizations.list and create, and
// discovery.intermediateSessions.exchange, for a host backend, under the browser API's rules.
import { ENDPOINTS } from '@gatehouse/protocol/endpoints';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { basic, expectOk, expectSession, startHarness, type Harness } from '../../test/harness.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h.close();
});

/** An intermediate session token for `email`, from a discovery link the backend sent. */
async function discover(email: string): Promise<string> {
  expectOk(
    await h.call(ENDPOINTS.backendMagicLinksDiscoverySend, { body: { email_address: email } }),
  );
  const token = await h.lastToken(email);
  const res = await h.call(ENDPOINTS.magicLinksDiscoveryAuthenticate, {
    body: { discovery_magic_links_token: token },
  });
  return expectOk(res).intermediate_session_token;
}

const exchange = (ist: string, organizationId = h.org.organization_id, authorization?: string) =>
  h.call(ENDPOINTS.backendDiscoveryExchange, {
    body: { intermediate_session_token: ist, organization_id: organizationId },
    ...(authorization ? { authorization } : {}),
  });

describe('management discovery.organizations.list', () => {
  it("lists the organizations of an intermediate session token's address", async () => {
    const ist = await discover('ada@acme.test');
    const data = expectOk(
      await h.call(ENDPOINTS.backendDiscoveryOrganizations, {
        body: { intermediate_session_token: ist },
      }),
    );
    expect(data.email_address).toBe('ada@acme.test');
    const ids = data.discovered_organizations.map((d) => d.organization?.organization_id);
    expect(ids).toContain(h.org.organization_id);
  });

  it("lists them for a session's member too", async () => {
    const { session_token } = await h.login();
    const data = expectOk(
      await h.call(ENDPOINTS.backendDiscoveryOrganizations, { body: { session_token } }),
    );
    expect(data.email_address).toBe('ada@acme.test');
  });

  it('refuses a session token sent as an intermediate session token', async () => {
    const { session_token } = await h.login();
    const res = await h.call(ENDPOINTS.backendDiscoveryOrganizations, {
      body: { intermediate_session_token: session_token },
    });
    expect([res.status, res.error?.error_type]).toEqual([404, 'intermediate_session_not_found']);
  });
});

describe('management discovery.intermediateSessions.exchange', () => {
  it('enters the organization once', async () => {
    const ist = await discover('ada@acme.test');
    const data = expectSession(await exchange(ist));
    expect(data.member_id).toBe(h.member.member_id);
    expect(data.organization.organization_id).toBe(h.org.organization_id);
    const again = await exchange(ist);
    expect([again.status, again.error?.error_type]).toEqual([
      404,
      'intermediate_session_not_found',
    ]);
  });

  it("answers 404 for another project's organization", async () => {
    const other = await h.admin.createProject({ name: 'Elsewhere' });
    const foreignOrg = await h.admin.createOrganization(other.project_id, {
      organization_name: 'Acme elsewhere',
      organization_slug: 'acme-elsewhere',
      email_allowed_domains: ['acme.test'],
    });
    const ist = await discover('ada@acme.test');
    const res = await exchange(ist, foreignOrg.organization_id);
    expect([res.status, res.error?.error_type]).toEqual([404, 'organization_not_found']);
  });

  it("refuses another project's secret key, leaving the token usable", async () => {
    const ist = await discover('ada@acme.test');
    const other = await h.admin.createProject({ name: 'Elsewhere too' });
    const foreign = await exchange(
      ist,
      h.org.organization_id,
      basic(other.project_id, other.secret),
    );
    expect([foreign.status, foreign.error?.error_type]).toEqual([
      404,
      'intermediate_session_not_found',
    ]);
    expect(expectSession(await exchange(ist)).member_id).toBe(h.member.member_id);
  });
});

describe('management discovery.organizations.create', () => {
  it('creates an organization with the member as its admin, once per token', async () => {
    const ist = await discover('founder@startup.test');
    const res = await h.call(ENDPOINTS.backendDiscoveryOrganizationsCreate, {
      body: {
        intermediate_session_token: ist,
        organization_name: 'Startup',
        organization_slug: 'startup',
      },
    });
    const created = expectSession(res);
    expect(created.organization).toMatchObject({
      organization_name: 'Startup',
      organization_slug: 'startup',
    });
    expect(created.member.roles.map((r) => r.role_id)).toContain('admin');
    const again = await h.call(ENDPOINTS.backendDiscoveryOrganizationsCreate, {
      body: { intermediate_session_token: ist, organization_slug: 'startup-2' },
    });
    expect([again.status, again.error?.error_type]).toEqual([
      404,
      'intermediate_session_not_found',
    ]);
  });

  it('refuses a request without an intermediate session token', async () => {
    const res = await h.call(ENDPOINTS.backendDiscoveryOrganizationsCreate, {
      body: { intermediate_session_token: '' },
    });
    expect(res.status).toBe(400);
  });
});
