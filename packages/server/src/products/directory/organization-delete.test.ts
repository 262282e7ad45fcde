// organizations.delete on the management API: the organization goes with its members, their
// factors and sessions (which stop working at once) and its SSO connections; nothing else does.
import type { Organization } from '@gatehouse/protocol';
import { ENDPOINTS } from '@gatehouse/protocol/endpoints';
import { selfSignedKeyPair } from '@gatehouse/testing/idp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { basic, expectOk, startHarness, type Harness } from '../../test/harness.js';
import { magicLogin, totpAt } from '../../test/mfa.js';
import { addSamlConnection } from '../../test/sso.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h.close();
});

let serial = 0;
async function newOrganization(): Promise<Organization> {
  serial += 1;
  return h.admin.createOrganization(h.project.project_id, {
    organization_name: `Doomed ${serial}`,
    organization_slug: `doomed-${serial}`,
    email_allowed_domains: [`doomed${serial}.test`],
  });
}

/** A signed-in member of the organization with a password, an authenticator app and a phone. */
async function populatedMember(org: Organization, email: string, phone = '+14155552671') {
  const projectId = h.project.project_id;
  const member = await h.admin.createMember(projectId, org.organization_id, {
    email_address: email,
    roles: ['admin'],
  });
  await h.admin.setMemberPassword(projectId, member.member_id, {
    password: 'correct horse battery staple 42',
  });
  await h.admin.updateMember(projectId, member.member_id, { mfa_phone_number: phone });
  const login = await magicLogin(h, email, org.organization_id);
  const ids = { organization_id: org.organization_id, member_id: member.member_id };
  const { secret } = expectOk(
    await h.call(ENDPOINTS.totpCreate, { token: login.session_token, body: ids }),
  );
  const confirmed = await h.call(ENDPOINTS.totpAuthenticate, {
    token: login.session_token,
    body: { ...ids, code: totpAt(secret, h.clock.now) },
  });
  expect(confirmed.status).toBe(200);
  return { member, login };
}

/** How many rows of each table name the organization or one of its members. */
async function rowsNaming(organizationId: string, memberIds: string[]) {
  const count = async (query: Promise<unknown[]>) => (await query).length;
  const byMember = (table: 'sessions' | 'passwords' | 'totp_registrations' | 'recovery_codes') =>
    count(h.db.selectFrom(table).select('member_id').where('member_id', 'in', memberIds).execute());
  return {
    organizations: await count(
      h.db.selectFrom('organizations').select('id').where('id', '=', organizationId).execute(),
    ),
    members: await count(
      h.db
        .selectFrom('members')
        .select('id')
        .where('organization_id', '=', organizationId)
        .execute(),
    ),
    domains: await count(
      h.db
        .selectFrom('organization_domains')
        .select('domain')
        .where('organization_id', '=', organizationId)
        .execute(),
    ),
    connections: await count(
      h.db
        .selectFrom('sso_connections')
        .select('id')
        .where('organization_id', '=', organizationId)
        .execute(),
    ),
    tokens: await count(
      h.db
        .selectFrom('tokens')
        .select('id')
        .where('organization_id', '=', organizationId)
        .execute(),
    ),
    sessions: await byMember('sessions'),
    passwords: await byMember('passwords'),
    totp: await byMember('totp_registrations'),
    recoveryCodes: await byMember('recovery_codes'),
  };
}

describe('organizations.delete', () => {
  it('deletes the organization with its members, factors, sessions and connections', async () => {
    const org = await newOrganization();
    const one = await populatedMember(org, 'one@doomed.test');
    const two = await populatedMember(org, 'two@doomed.test', '+14155552672');
    const { certificate } = selfSignedKeyPair('Doomed IdP');
    await addSamlConnection(h, {
      organizationId: org.organization_id,
      idpEntityId: 'https://idp.doomed.test',
      idpSsoUrl: 'https://idp.doomed.test/sso',
      certificates: [certificate],
    });
    // A sign-in link still unused.
    await h.call(ENDPOINTS.magicLinksLoginOrSignup, {
      body: { email_address: 'one@doomed.test', organization_id: org.organization_id },
    });
    const memberIds = [one.member.member_id, two.member.member_id];
    const before = await rowsNaming(org.organization_id, memberIds);
    expect(Object.values(before).every((n) => n > 0)).toBe(true);

    const res = await h.call(ENDPOINTS.deleteOrganization, {
      params: { organization_id: org.organization_id },
    });
    expect(expectOk(res)).toMatchObject({
      organization_id: org.organization_id,
      status_code: 200,
    });
    expect(Object.values(await rowsNaming(org.organization_id, memberIds))).toEqual(
      Object.values(before).map(() => 0),
    );

    // Their sessions stop at once, by token and by JWT.
    for (const body of [
      { session_token: one.login.session_token },
      { session_jwt: two.login.session_jwt },
    ]) {
      const session = await h.call(ENDPOINTS.authenticateSession, { body });
      expect([session.status, session.error?.error_type]).toEqual([404, 'session_not_found']);
    }
    const read = await h.call(ENDPOINTS.getOrganization, {
      params: { organization_id: org.organization_id },
    });
    expect([read.status, read.error?.error_type]).toEqual([404, 'organization_not_found']);
    const again = await h.call(ENDPOINTS.deleteOrganization, {
      params: { organization_id: org.organization_id },
    });
    expect([again.status, again.error?.error_type]).toEqual([404, 'organization_not_found']);
    // The slug is free again.
    const reused = await h.call(ENDPOINTS.createOrganization, {
      body: { organization_name: 'Reborn', organization_slug: org.organization_slug },
    });
    expect(reused.status).toBe(200);
  });

  it('leaves every other organization as it was', async () => {
    const doomed = await newOrganization();
    await populatedMember(doomed, 'three@doomed.test');
    const login = await h.login();
    const acmeBefore = expectOk(
      await h.call(ENDPOINTS.searchMembers, {
        body: { organization_ids: [h.org.organization_id] },
      }),
    );
    expectOk(
      await h.call(ENDPOINTS.deleteOrganization, {
        params: { organization_id: doomed.organization_id },
      }),
    );
    const acmeAfter = expectOk(
      await h.call(ENDPOINTS.searchMembers, {
        body: { organization_ids: [h.org.organization_id] },
      }),
    );
    expect(acmeAfter.members).toEqual(acmeBefore.members);
    const session = await h.call(ENDPOINTS.authenticateSession, {
      body: { session_token: login.session_token },
    });
    expect(session.status).toBe(200);
  });

  it('deletes once when two deletions run concurrently', async () => {
    const org = await newOrganization();
    await h.admin.createMember(h.project.project_id, org.organization_id, {
      email_address: 'four@doomed.test',
    });
    const results = await Promise.all(
      [0, 1].map(() =>
        h.call(ENDPOINTS.deleteOrganization, { params: { organization_id: org.organization_id } }),
      ),
    );
    expect(results.map((r) => r.status).sort()).toEqual([200, 404]);
    expect(results.find((r) => !r.ok)?.error?.error_type).toBe('organization_not_found');
  });

  it("refuses another project's organization and leaves it alone", async () => {
    const other = await h.admin.createProject({ name: 'Other' });
    const theirs = await h.admin.createOrganization(other.project_id, {
      organization_name: 'Globex',
      organization_slug: 'globex',
    });
    const res = await h.call(ENDPOINTS.deleteOrganization, {
      params: { organization_id: theirs.organization_id },
    });
    expect([res.status, res.error?.error_type]).toEqual([404, 'organization_not_found']);
    const read = await h.call(ENDPOINTS.getOrganization, {
      params: { organization_id: theirs.organization_id },
      authorization: basic(other.project_id, other.secret),
    });
    expect(read.status).toBe(200);
  });
});
