// E-mail JIT domains: self-service creation claims only the creator's domain; public mail domains never count.
import { ENDPOINTS, type RequestOf } from '@gatehouse/protocol/endpoints';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectOk, startHarness, type Harness } from '../../test/harness.js';
import { isPublicEmailDomain } from './jit-domains.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h.close();
});

const createOrganization = (body: RequestOf<typeof ENDPOINTS.createOrganization>) =>
  h.call(ENDPOINTS.createOrganization, { body });
const updateOrganization = (
  organizationId: string,
  body: RequestOf<typeof ENDPOINTS.updateOrganization>,
) => h.call(ENDPOINTS.updateOrganization, { params: { organization_id: organizationId }, body });

/** Signs in by discovery link; returns DR. */
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

/** The organizations an address discovers as "eligible to join by e-mail domain". */
async function eligibleFor(email: string): Promise<string[]> {
  const dr = await discover(email);
  return dr.discovered_organizations
    .filter((d) => d.membership.type === 'eligible_to_join_by_email_domain')
    .map((d) => d.organization.organization_name);
}

async function createByDiscovery(
  email: string,
  extra: Omit<
    RequestOf<typeof ENDPOINTS.discoveryOrganizationsCreate>,
    'intermediate_session_token' | 'session_duration_minutes'
  >,
) {
  const dr = await discover(email);
  return h.call(ENDPOINTS.discoveryOrganizationsCreate, {
    body: {
      intermediate_session_token: dr.intermediate_session_token,
      session_duration_minutes: 60,
      ...extra,
    },
  });
}

describe('organizations created through discovery', () => {
  it("refuses another organization's domain, so its people never see the impostor", async () => {
    const res = await createByDiscovery('mallory@evil.test', {
      organization_name: 'Acme Corp IT',
      email_allowed_domains: ['acme.test'],
    });
    expect([res.status, res.error?.error_type]).toEqual([400, 'invalid_email_domain']);
    expect(res.error?.error_message).toContain('management API');
    const mixed = await createByDiscovery('mallory@evil.test', {
      organization_name: 'Acme Corp IT',
      email_allowed_domains: ['evil.test', 'ACME.test'],
    });
    expect([mixed.status, mixed.error?.error_type]).toEqual([400, 'invalid_email_domain']);
    expect(await eligibleFor('newbie@acme.test')).toEqual(['Acme']);
    const stored = await h.db
      .selectFrom('organizations')
      .select('name')
      .where('name', '=', 'Acme Corp IT')
      .execute();
    expect(stored).toEqual([]);
  });

  it("accepts the creator's own verified domain, in any case", async () => {
    const res = await createByDiscovery('founder@initech.test', {
      organization_name: 'Initech',
      email_allowed_domains: ['Initech.test'],
    });
    expect(res.status).toBe(200);
    expect(expectOk(res).organization).toMatchObject({
      email_jit_provisioning: 'RESTRICTED',
      email_allowed_domains: ['initech.test'],
    });
    expect(await eligibleFor('peter@initech.test')).toEqual(['Initech']);
  });

  it("refuses a public mail provider's domain, even the creator's own", async () => {
    const res = await createByDiscovery('someone@gmail.com', {
      organization_name: 'Free for all',
      email_allowed_domains: ['gmail.com'],
    });
    expect([res.status, res.error?.error_type]).toEqual([400, 'invalid_email_domain']);
    expect(res.error?.error_message).toContain('gmail.com');
    // Without domains the same creator may still found an organization of their own.
    const plain = await createByDiscovery('someone@gmail.com', { organization_name: 'Mine' });
    expect(plain.status).toBe(200);
    expect(expectOk(plain).organization.email_jit_provisioning).toBe('NOT_ALLOWED');
  });
});

describe('the management API', () => {
  it('refuses public mail domains on create and update with 400 invalid_email_domain', async () => {
    const created = await createOrganization({
      organization_name: 'Hooli',
      organization_slug: 'hooli',
      email_allowed_domains: ['hooli.test', 'Outlook.com'],
    });
    expect([created.status, created.error?.error_type]).toEqual([400, 'invalid_email_domain']);
    expect(created.error?.error_message).toContain('outlook.com');

    const { organization: org } = expectOk(
      await createOrganization({ organization_name: 'Hooli', organization_slug: 'hooli' }),
    );
    const updated = await updateOrganization(org.organization_id, {
      email_allowed_domains: ['yahoo.com'],
    });
    expect([updated.status, updated.error?.error_type]).toEqual([400, 'invalid_email_domain']);
  });

  it('sets any other domains, which discovery then offers', async () => {
    const { organization: org } = expectOk(
      await createOrganization({ organization_name: 'Umbrella', organization_slug: 'umbrella' }),
    );
    expect(await eligibleFor('alice@umbrella.test')).toEqual([]);
    const updated = await updateOrganization(org.organization_id, {
      email_jit_provisioning: 'RESTRICTED',
      email_allowed_domains: ['umbrella.test', 'Umbrella-Labs.test'],
    });
    expect(updated.status).toBe(200);
    expect(expectOk(updated).organization).toMatchObject({
      email_jit_provisioning: 'RESTRICTED',
      email_allowed_domains: ['umbrella.test', 'umbrella-labs.test'],
    });
    expect(await eligibleFor('alice@umbrella.test')).toEqual(['Umbrella']);
    expect(await eligibleFor('bob@umbrella-labs.test')).toEqual(['Umbrella']);

    // Replacing the list drops the old domains from discovery too.
    await updateOrganization(org.organization_id, {
      email_allowed_domains: ['umbrella-labs.test'],
    });
    expect(await eligibleFor('carol@umbrella.test')).toEqual([]);
  });

  it('the admin API (and so the CLI) refuses them too', async () => {
    await expect(
      h.admin.createOrganization(h.project.project_id, {
        organization_name: 'Public',
        organization_slug: 'public-admin',
        email_allowed_domains: ['gmail.com'],
      }),
    ).rejects.toThrow(/public e-mail provider/);
  });
});

describe('a public domain stored before it was refused', () => {
  it('never lets anyone join by it', async () => {
    const org = await h.admin.createOrganization(h.project.project_id, {
      organization_name: 'Legacy',
      organization_slug: 'legacy',
    });
    await h.db
      .updateTable('organizations')
      .set({ email_jit_provisioning: 'RESTRICTED', email_allowed_domains: '["gmail.com"]' })
      .where('id', '=', org.organization_id)
      .execute();
    await h.db
      .insertInto('organization_domains')
      .values({
        project_id: h.project.project_id,
        organization_id: org.organization_id,
        domain: 'gmail.com',
      })
      .execute();
    expect(await eligibleFor('stranger@gmail.com')).toEqual([]);
    const res = await h.call(ENDPOINTS.magicLinksLoginOrSignup, {
      body: { email_address: 'stranger@gmail.com', organization_id: org.organization_id },
    });
    expect([res.status, res.error?.error_type]).toEqual([
      403,
      'invalid_email_for_jit_provisioning',
    ]);
  });
});

describe('isPublicEmailDomain', () => {
  it('matches whatever the case and spacing', () => {
    expect(isPublicEmailDomain(' GMail.com ')).toBe(true);
    expect(isPublicEmailDomain('acme.test')).toBe(false);
  });
});
