// Anonymous lookups (§7.4): organization by slug and member by e-mail, with rate limits.
import { ENDPOINTS } from '@gatehouse/protocol/endpoints';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectOk, startHarness, type Harness } from '../../test/harness.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness({ config: { rateLimits: { searchesPerIpPerMinute: 25 } } });
});
afterAll(async () => {
  await h.close();
});

const searchAcme = () =>
  h.call(ENDPOINTS.organizationsSearch, { body: { organization_slug: 'acme' } });

describe('POST /sdk/v1/b2b/organizations/search', () => {
  it('returns the slug subset of a matching organization', async () => {
    const res = await searchAcme();
    expect(res.status).toBe(200);
    expect(expectOk(res).organization).toEqual({
      organization_id: h.org.organization_id,
      organization_name: 'Acme',
      organization_logo_url: '',
      sso_active_connections: [],
      sso_default_connection_id: null,
      email_jit_provisioning: 'RESTRICTED',
      email_allowed_domains: ['acme.test'],
      auth_methods: 'ALL_ALLOWED',
      allowed_auth_methods: ['sso', 'magic_link', 'password', 'google_oauth', 'microsoft_oauth'],
      mfa_policy: 'OPTIONAL',
    });
  });

  it('answers 200 with null when nothing matches, and for slugs of other projects', async () => {
    const other = await h.admin.createProject({ name: 'Other' });
    await h.admin.createOrganization(other.project_id, {
      organization_name: 'Globex',
      organization_slug: 'globex',
    });
    for (const slug of ['nope', 'globex']) {
      const res = await h.call(ENDPOINTS.organizationsSearch, {
        body: { organization_slug: slug },
      });
      expect(res.status).toBe(200);
      expect(expectOk(res).organization).toBeNull();
    }
  });
});

describe('POST /sdk/v1/b2b/organizations/members/search', () => {
  it('returns only status, name and member_password_id', async () => {
    const res = await h.call(ENDPOINTS.membersSearch, {
      body: { email_address: 'ADA@acme.test', organization_id: h.org.organization_id },
    });
    expect(res.status).toBe(200);
    expect(expectOk(res).member).toEqual({
      status: 'active',
      name: 'Ada',
      member_password_id: '',
    });
  });

  it('answers null for unknown members and unknown organizations', async () => {
    for (const body of [
      { email_address: 'nobody@acme.test', organization_id: h.org.organization_id },
      {
        email_address: 'ada@acme.test',
        organization_id: 'organization-test-00000000-0000-4000-8000-000000000000',
      },
    ]) {
      const res = await h.call(ENDPOINTS.membersSearch, { body });
      expect(res.status).toBe(200);
      expect(expectOk(res).member).toBeNull();
    }
  });

  it('validates its body', async () => {
    // Untyped on purpose: the body lacks a required field.
    const res = await h.sdk('/b2b/organizations/members/search', {
      body: { email_address: 'ada@acme.test' },
    });
    expect(res.status).toBe(400);
    expect(res.error?.body).toEqual([{ dataPath: '.organization_id', message: 'is required' }]);
  });

  it('limits searches per IP with 429 and Retry-After', async () => {
    let last = await searchAcme();
    for (let i = 0; i < 30 && last.status === 200; i += 1) {
      last = await searchAcme();
    }
    expect(last.status).toBe(429);
    expect(last.error?.error_type).toBe('too_many_requests');
    expect(Number(last.headers.get('retry-after'))).toBeGreaterThan(0);
    h.clock.advance(61_000);
    const after = await searchAcme();
    expect(after.status).toBe(200);
  });
});
