// Changing an organization's slug (docs/protocol.md §7.10): an admin with their session or the
// management API, under the slug rule of creation, unique in the project even when two
// organizations race for one concurrently, with the updated_at precondition; a member without
// `stytch.organization` `update.info.slug` is refused.
import { ENDPOINTS } from '@gatehouse/protocol/endpoints';
import type { Organization } from '@gatehouse/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  expectError,
  expectOk,
  startHarness,
  type CallResponse,
  type Harness,
} from '../../test/harness.js';

let h: Harness;
let boss: string;
let plain: string;
let serial = 0;

beforeAll(async () => {
  h = await startHarness();
  await h.addMember('slug-boss@acme.test', ['admin']);
  await h.addMember('slug-plain@acme.test');
  boss = (await h.login('slug-boss@acme.test')).session_token;
  plain = (await h.login('slug-plain@acme.test')).session_token;
});

afterAll(async () => {
  await h?.close();
});

function refused(res: CallResponse<unknown>, status: number, type: string) {
  expect(res.status).toBe(status);
  expect(expectError(res).error_type).toBe(type);
}

const mine = async (token = boss) =>
  expectOk(await h.call(ENDPOINTS.organizationMe, { token })).organization;

const update = (
  token: string,
  body: { organization_slug?: string; organization_name?: string; updated_at?: string },
) => h.call(ENDPOINTS.organizationUpdateMe, { token, body });

const bySlug = async (slug: string) =>
  expectOk(await h.call(ENDPOINTS.organizationsSearch, { body: { organization_slug: slug } }))
    .organization;

/** A new organization with a signed-in admin of its own. */
async function otherOrganization(): Promise<{ org: Organization; token: string }> {
  serial += 1;
  const org = expectOk(
    await h.call(ENDPOINTS.createOrganization, {
      body: { organization_name: `Other ${serial}`, organization_slug: `other-${serial}` },
    }),
  ).organization;
  const email = `admin${serial}@other.test`;
  await h.addMember(email, ['admin'], org.organization_id);
  expectOk(
    await h.call(ENDPOINTS.magicLinksLoginOrSignup, {
      body: { email_address: email, organization_id: org.organization_id },
    }),
  );
  const session = expectOk(
    await h.call(ENDPOINTS.magicLinksAuthenticate, {
      body: { magic_links_token: await h.lastToken(email), session_duration_minutes: 60 },
    }),
  );
  return { org, token: session.session_token };
}

describe('PUT /b2b/organizations/me with organization_slug', () => {
  it('renames the organization: found by the new slug, no longer by the old one', async () => {
    const before = await mine();
    const after = expectOk(
      await update(boss, { organization_slug: 'acme-renamed', updated_at: before.updated_at }),
    ).organization;
    expect(after.organization_slug).toBe('acme-renamed');
    expect(after.updated_at > before.updated_at).toBe(true);
    expect((await bySlug('acme-renamed'))?.organization_id).toBe(before.organization_id);
    expect(await bySlug(before.organization_slug)).toBeNull();
    // The same slug again is no change, and no conflict with itself.
    expectOk(await update(boss, { organization_slug: 'acme-renamed' }));
  });

  it('refuses a slug outside the rule of creation and changes nothing', async () => {
    const before = await mine();
    for (const slug of ['a', 'Acme Corp', 'acme/corp', 'ACME', 'x'.repeat(129)]) {
      refused(await update(boss, { organization_slug: slug }), 400, 'invalid_request');
    }
    expect((await mine()).organization_slug).toBe(before.organization_slug);
  });

  it("refuses another organization's slug, and keeps the rest of the patch out too", async () => {
    const { org } = await otherOrganization();
    const before = await mine();
    refused(
      await update(boss, { organization_slug: org.organization_slug, organization_name: 'Nope' }),
      400,
      'organization_slug_taken',
    );
    const now = await mine();
    expect(now.organization_slug).toBe(before.organization_slug);
    expect(now.organization_name).toBe(before.organization_name);
  });

  it('refuses a member without stytch.organization update', async () => {
    const before = await mine();
    refused(
      await update(plain, { organization_slug: 'plain-took-it' }),
      403,
      'unauthorized_action',
    );
    expect((await mine()).organization_slug).toBe(before.organization_slug);
  });

  it('refuses a rename based on a stale updated_at with 409', async () => {
    const old = await mine();
    expectOk(await update(boss, { organization_name: 'Acme Moved On' }));
    refused(
      await update(boss, { organization_slug: 'acme-stale', updated_at: old.updated_at }),
      409,
      'stale_update',
    );
    expect(await bySlug('acme-stale')).toBeNull();
  });

  it('gives a slug to one of two organizations renamed to it concurrently', async () => {
    const first = await otherOrganization();
    const second = await otherOrganization();
    const wanted = `contested-${serial}`;
    const answers = await Promise.all([
      update(first.token, { organization_slug: wanted }),
      update(second.token, { organization_slug: wanted }),
    ]);
    expect(answers.map((a) => a.status).sort()).toEqual([200, 400]);
    const loser = answers.find((a) => a.status === 400)!;
    expect(expectError(loser).error_type).toBe('organization_slug_taken');
    const winner = await bySlug(wanted);
    expect([first.org.organization_id, second.org.organization_id]).toContain(
      winner?.organization_id,
    );
  });
});

describe('PUT /v1/b2b/organizations/{organization_id} with organization_slug', () => {
  it('renames under the same rules', async () => {
    const { org } = await otherOrganization();
    const renamed = expectOk(
      await h.call(ENDPOINTS.updateOrganization, {
        params: { organization_id: org.organization_id },
        body: { organization_slug: `${org.organization_slug}-new` },
      }),
    ).organization;
    expect(renamed.organization_slug).toBe(`${org.organization_slug}-new`);
    refused(
      await h.call(ENDPOINTS.updateOrganization, {
        params: { organization_id: org.organization_id },
        body: { organization_slug: 'No Spaces' },
      }),
      400,
      'invalid_request',
    );
    refused(
      await h.call(ENDPOINTS.updateOrganization, {
        params: { organization_id: org.organization_id },
        body: { organization_slug: (await mine()).organization_slug },
      }),
      400,
      'organization_slug_taken',
    );
  });
});
