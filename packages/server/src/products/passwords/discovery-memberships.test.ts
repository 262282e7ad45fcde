// Password discovery when several memberships of the address accept the password typed
// (docs/security.md, "Factors across organizations"): the IST counts it as each of those
// organizations' own sign-in, so it enters any one of them without a second password, and none
// where the password differs, nor another project's organization; two exchanges of one IST at the
// same time yield one session.
import { ENDPOINTS } from '@gatehouse/protocol/endpoints';
import type { Organization } from '@gatehouse/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectOk, expectSession, startHarness, type Harness } from '../../test/harness.js';

const PASSWORD = 'Quartz-Lantern-Orbit-42';
const OTHER_PASSWORD = 'Velvet-Harbor-Kettle-58';
const EMAIL = 'ada@acme.test';

let h: Harness;
let globex: Organization;
let initech: Organization;
let foreign: Organization;

beforeAll(async () => {
  h = await startHarness();
  const pid = h.project.project_id;
  globex = await h.admin.createOrganization(pid, {
    organization_name: 'Globex',
    organization_slug: 'globex',
  });
  initech = await h.admin.createOrganization(pid, {
    organization_name: 'Initech',
    organization_slug: 'initech',
  });
  const inGlobex = await h.addMember(EMAIL, [], globex.organization_id);
  const inInitech = await h.addMember(EMAIL, [], initech.organization_id);
  await h.admin.setMemberPassword(pid, h.member.member_id, { password: PASSWORD });
  await h.admin.setMemberPassword(pid, inGlobex.member_id, { password: PASSWORD });
  // Initech's membership has a password of its own: the one typed proves nothing there.
  await h.admin.setMemberPassword(pid, inInitech.member_id, { password: OTHER_PASSWORD });

  // Another project with a member of the same address and the same password.
  const other = await h.admin.createProject({ name: 'Elsewhere' });
  foreign = await h.admin.createOrganization(other.project_id, {
    organization_name: 'Acme elsewhere',
    organization_slug: 'acme-elsewhere',
  });
  const there = await h.admin.createMember(other.project_id, foreign.organization_id, {
    email_address: EMAIL,
  });
  await h.admin.setMemberPassword(other.project_id, there.member_id, { password: PASSWORD });
});
afterAll(async () => {
  await h.close();
});

/** A discovery password sign-in of the address: its IST and what it lists. */
async function discover(password = PASSWORD) {
  return expectOk(
    await h.call(ENDPOINTS.passwordsDiscoveryAuthenticate, {
      body: { email_address: EMAIL, password },
    }),
  );
}

const exchange = (ist: string, organization_id: string) =>
  h.call(ENDPOINTS.discoveryExchange, {
    body: { intermediate_session_token: ist, organization_id, session_duration_minutes: 60 },
  });

const outcome = (res: { status: number; error?: { error_type: string } | undefined }) => [
  res.status,
  res.error?.error_type,
];

describe('a discovery password that several memberships accept', () => {
  it('lists each of their organizations as entered by it, and the others as needing a sign-in', async () => {
    const found = await discover();
    const required = Object.fromEntries(
      found.discovered_organizations.map((d) => [
        d.organization.organization_name,
        d.primary_required,
      ]),
    );
    expect(required).toEqual({
      [h.org.organization_name]: null,
      Globex: null,
      Initech: { allowed_auth_methods: expect.any(Array) as unknown },
    });
  });

  it('enters either organization with the IST alone, with the password as its factor', async () => {
    for (const org of [h.org, globex]) {
      const { intermediate_session_token: ist } = await discover();
      const entered = expectSession(await exchange(ist, org.organization_id));
      expect(entered.organization.organization_id).toBe(org.organization_id);
      expect(entered.member.email_address).toBe(EMAIL);
      expect(entered.member_session.authentication_factors.map((f) => f.type)).toEqual([
        'password',
      ]);
    }
  });

  it('does not enter the organization whose password differs, and leaves the IST usable', async () => {
    const { intermediate_session_token: ist } = await discover();
    expect(outcome(await exchange(ist, initech.organization_id))).toEqual([
      403,
      'primary_auth_required',
    ]);
    expectSession(await exchange(ist, globex.organization_id));
  });

  it('enters none of the others when only the other password is typed', async () => {
    // Initech's password: accepted by one membership only, which the IST names alone.
    const { intermediate_session_token: ist } = await discover(OTHER_PASSWORD);
    expect(outcome(await exchange(ist, globex.organization_id))).toEqual([
      403,
      'primary_auth_required',
    ]);
    expect(outcome(await exchange(ist, h.org.organization_id))).toEqual([
      403,
      'primary_auth_required',
    ]);
    expectSession(await exchange(ist, initech.organization_id));
  });

  it("does not enter another project's organization of the same address and password", async () => {
    const { intermediate_session_token: ist } = await discover();
    const res = await exchange(ist, foreign.organization_id);
    expect(res.status).toBe(404);
    expect(res.error?.error_type).toBe('organization_not_found');
    const sessions = await h.db
      .selectFrom('sessions')
      .select('id')
      .where('organization_id', '=', foreign.organization_id)
      .execute();
    expect(sessions).toEqual([]);
  });

  it('counts the same way through the management API exchange', async () => {
    const into = async (organization_id: string) => {
      const { intermediate_session_token } = await discover();
      return h.call(ENDPOINTS.backendDiscoveryExchange, {
        body: { intermediate_session_token, organization_id },
      });
    };
    expect(outcome(await into(initech.organization_id))).toEqual([403, 'primary_auth_required']);
    const entered = expectOk(await into(globex.organization_id));
    expect([entered.member_authenticated, entered.organization.organization_id]).toEqual([
      true,
      globex.organization_id,
    ]);
  });

  it('yields one session when two exchanges of one IST run at the same time', async () => {
    const { intermediate_session_token: ist } = await discover();
    const results = await Promise.all([
      exchange(ist, h.org.organization_id),
      exchange(ist, globex.organization_id),
    ]);
    const statuses = results.map((r) => r.status).sort();
    expect(statuses[0]).toBe(200);
    expect(statuses[1]).not.toBe(200);
    const loser = results.find((r) => r.status !== 200);
    expect(loser?.error?.error_type).toBe('intermediate_session_not_found');
  });
});
