// Custom RBAC over HTTP: the policy through the management API, bootstrap publishing it, roles
// given directly, by e-mail domain and by SSO group, and the member-session endpoints enforcing
// it. Runs on SQLite and PostgreSQL (concurrent policy changes included).
import { ENDPOINTS } from '@gatehouse/protocol/endpoints';
import type { Member, RbacPolicyResult } from '@gatehouse/protocol';
import { startSamlIdp, type SamlIdp } from '@gatehouse/testing/idp';
import { decodeJwt } from 'jose';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { basic, expectError, expectOk, startHarness, type Harness } from '../../test/harness.js';
import {
  TestBrowser,
  addSamlConnection,
  authnRequestId,
  ssoTokenOf,
  startUrl,
} from '../../test/sso.js';

vi.setConfig({ testTimeout: 30_000, hookTimeout: 30_000 });

let h: Harness;
let idp: SamlIdp;
/** A second project on the same server: its key must reach nothing of the first. */
let other: { project_id: string; secret: string };

beforeAll(async () => {
  [h, idp] = await Promise.all([startHarness({ listen: true }), startSamlIdp()]);
  other = await h.admin.createProject({ name: 'Other Cloud' });
});

afterAll(async () => {
  await Promise.all([h?.close(), idp?.close()]);
});

const invoices = { description: 'Invoices', actions: ['read', 'refund', 'export'] };
const billing = {
  description: 'Runs billing',
  permissions: [
    { resource_id: 'invoices', actions: ['read', 'refund'] },
    {
      resource_id: 'stytch.member',
      actions: ['delete', 'search', 'update.info.name', 'update.settings.roles'],
    },
  ],
};

async function policy(): Promise<RbacPolicyResult['policy']> {
  return expectOk(await h.call(ENDPOINTS.rbacPolicyGet)).policy;
}

const roleIdsOf = (m: Member) => m.roles.map((r) => r.role_id).sort();

describe('the policy through the management API', () => {
  it('starts with the built-in roles and resources, and bootstrap publishes them', async () => {
    const start = await policy();
    expect(start.roles.map((r) => r.role_id)).toEqual(['member', 'admin']);
    expect(start.resources.map((r) => r.resource_id)).toContain('stytch.member');
    const boot = expectOk(
      await h.call(ENDPOINTS.bootstrap, { params: { public_token: h.project.public_token } }),
    );
    // The management API adds the provider's `scopes`, which Gatehouse does not offer.
    expect(start.scopes).toEqual([]);
    expect(boot.rbac_policy).toEqual({ roles: start.roles, resources: start.resources });
  });

  it('adds a resource and a role that uses it; bootstrap shows them at once', async () => {
    expectOk(
      await h.call(ENDPOINTS.rbacResourceSet, {
        params: { resource_id: 'invoices' },
        body: invoices,
      }),
    );
    const after = expectOk(
      await h.call(ENDPOINTS.rbacRoleSet, { params: { role_id: 'billing-admin' }, body: billing }),
    ).policy;
    expect(after.roles.find((r) => r.role_id === 'billing-admin')).toEqual({
      role_id: 'billing-admin',
      ...billing,
    });
    // A second instance over the same database sees the change without any cache to expire.
    const sibling = await h.sibling();
    const boot = expectOk(
      await h.call(ENDPOINTS.bootstrap, {
        params: { public_token: h.project.public_token },
        baseUrl: sibling.url,
      }),
    );
    expect(boot.rbac_policy).toEqual({ roles: after.roles, resources: after.resources });
  });

  it('extends a built-in role without losing its built-in permissions', async () => {
    const extended = expectOk(
      await h.call(ENDPOINTS.rbacRoleSet, {
        params: { role_id: 'member' },
        body: { permissions: [{ resource_id: 'invoices', actions: ['read'] }] },
      }),
    ).policy;
    const member = extended.roles.find((r) => r.role_id === 'member');
    expect(member?.description).toBe('Granted to every member of an organization.');
    expect(member?.permissions).toEqual(
      expect.arrayContaining([
        { resource_id: 'stytch.self', actions: ['*'] },
        { resource_id: 'invoices', actions: ['read'] },
      ]),
    );
    // As the provider's `stytch_member`: every action on oneself, none on other members.
    expect(member?.permissions.map((p) => p.resource_id)).not.toContain('stytch.member');
  });

  it('takes back what GET shows unchanged, all or nothing', async () => {
    const before = await policy();
    const same = expectOk(await h.call(ENDPOINTS.rbacPolicySet, { body: before })).policy;
    expect(same).toEqual(before);
    // One bad role refuses the whole document: the good role in it is not added either.
    const refused = await h.call(ENDPOINTS.rbacPolicySet, {
      body: {
        roles: [
          ...before.roles,
          { role_id: 'fine', permissions: [] },
          { role_id: 'broken', permissions: [{ resource_id: 'nowhere', actions: ['x'] }] },
        ],
        resources: before.resources,
      },
    });
    expect(refused.status).toBe(400);
    expect(expectError(refused).error_message).toContain('nowhere');
    expect(await policy()).toEqual(before);
  });

  it('refuses inconsistent changes with 400 and a message naming the problem', async () => {
    const cases: [Promise<Awaited<ReturnType<typeof h.call>>>, string][] = [
      [
        h.call(ENDPOINTS.rbacRoleSet, {
          params: { role_id: 'auditor' },
          body: { permissions: [{ resource_id: 'invoices', actions: ['delete'] }] },
        }),
        'action delete',
      ],
      [
        h.call(ENDPOINTS.rbacRoleSet, {
          params: { role_id: 'auditor' },
          body: { permissions: [{ resource_id: 'ledgers', actions: ['*'] }] },
        }),
        'resource ledgers',
      ],
      [h.call(ENDPOINTS.rbacRoleDelete, { params: { role_id: 'admin' } }), 'built-in role'],
      [h.call(ENDPOINTS.rbacRoleDelete, { params: { role_id: 'member' } }), 'built-in role'],
      [
        h.call(ENDPOINTS.rbacResourceSet, {
          params: { resource_id: 'stytch.member' },
          body: { actions: ['fly'] },
        }),
        'built-in resource',
      ],
      [h.call(ENDPOINTS.rbacResourceDelete, { params: { resource_id: 'invoices' } }), 'refers'],
      [
        h.call(ENDPOINTS.rbacResourceSet, {
          params: { resource_id: 'invoices' },
          body: { actions: ['read'] },
        }),
        'action refund',
      ],
      [h.call(ENDPOINTS.rbacRoleDelete, { params: { role_id: 'nobody' } }), 'no custom role'],
    ];
    for (const [pending, words] of cases) {
      const res = await pending;
      expect(res.status).toBe(400);
      const error = expectError(res);
      expect(error.error_type).toBe('invalid_request');
      expect(error.error_message).toContain(words);
    }
  });

  it('refuses ids and actions of the wrong shape as schema errors', async () => {
    const res = await h.request('/v1/b2b/rbac/roles/bad%20id', {
      method: 'PUT',
      authorization: basic(h.project.project_id, h.project.secret),
      body: { permissions: [] },
    });
    expect(res.status).toBe(400);
    expect(res.error?.error_type).toBe('invalid_request');
    const action = await h.request('/v1/b2b/rbac/resources/widgets', {
      method: 'PUT',
      authorization: basic(h.project.project_id, h.project.secret),
      body: { actions: ['*'] },
    });
    expect(action.status).toBe(400);
    expect(JSON.stringify(action.body)).toContain('.actions');
  });

  it("keeps projects apart: another project's key neither sees nor changes this policy", async () => {
    const theirs = basic(other.project_id, other.secret);
    const seen = expectOk(await h.call(ENDPOINTS.rbacPolicyGet, { authorization: theirs })).policy;
    expect(seen.roles.map((r) => r.role_id)).toEqual(['member', 'admin']);
    expectOk(
      await h.call(ENDPOINTS.rbacRoleSet, {
        params: { role_id: 'intruder' },
        body: { permissions: [] },
        authorization: theirs,
      }),
    );
    expect((await policy()).roles.map((r) => r.role_id)).not.toContain('intruder');
    // Their role cannot be given to a member of this project, nor their key reach our members.
    const res = await h.call(ENDPOINTS.createMember, {
      params: { organization_id: h.org.organization_id },
      body: { email_address: 'mallory@acme.test', roles: ['intruder'] },
    });
    expect(res.status).toBe(400);
    expect(expectError(res).error_message).toContain('intruder');
    const reach = await h.call(ENDPOINTS.updateMember, {
      params: { organization_id: h.org.organization_id, member_id: h.member.member_id },
      body: { roles: ['intruder'] },
      authorization: theirs,
    });
    expect(expectError(reach).error_type).toBe('organization_not_found');
    const wrongKey = await h.call(ENDPOINTS.rbacRoleDelete, {
      params: { role_id: 'billing-admin' },
      authorization: basic(h.project.project_id, other.secret),
    });
    expect(wrongKey.status).toBe(401);
  });

  it('loses no change when many are made at once', async () => {
    const ids = Array.from({ length: 12 }, (_, i) => `team-${i}`);
    const results = await Promise.all(
      ids.map((role_id) =>
        h.call(ENDPOINTS.rbacRoleSet, {
          params: { role_id },
          body: { permissions: [{ resource_id: 'invoices', actions: ['read'] }] },
        }),
      ),
    );
    for (const r of results) expectOk(r);
    const after = (await policy()).roles.map((r) => r.role_id);
    for (const id of ids) expect(after).toContain(id);
    await Promise.all(
      ids.map((role_id) => h.call(ENDPOINTS.rbacRoleDelete, { params: { role_id } })),
    );
    expect((await policy()).roles.map((r) => r.role_id)).toEqual(expect.not.arrayContaining(ids));
  });

  it('never lets a role refer to a resource deleted at the same moment', async () => {
    for (let i = 0; i < 3; i += 1) {
      const resource_id = `race-${i}`;
      expectOk(
        await h.call(ENDPOINTS.rbacResourceSet, {
          params: { resource_id },
          body: { actions: ['go'] },
        }),
      );
      const [deleted, set] = await Promise.all([
        h.call(ENDPOINTS.rbacResourceDelete, { params: { resource_id } }),
        h.call(ENDPOINTS.rbacRoleSet, {
          params: { role_id: `racer-${i}` },
          body: { permissions: [{ resource_id, actions: ['go'] }] },
        }),
      ]);
      // Exactly one of the two wins; the other is refused, never both applied.
      expect([deleted.status, set.status].sort()).toEqual([200, 400]);
      const after = await policy();
      const role = after.roles.find((r) => r.role_id === `racer-${i}`);
      const resource = after.resources.find((r) => r.resource_id === resource_id);
      expect(Boolean(role)).toBe(Boolean(resource));
    }
  });
});

describe('roles of members', () => {
  it('are given directly, appear in the member object and the session JWT, and refuse unknown ids', async () => {
    const made = await h.addMember('bill@acme.test', ['billing-admin']);
    expect(made.roles).toEqual(
      expect.arrayContaining([
        { role_id: 'billing-admin', sources: [{ type: 'direct_assignment', details: {} }] },
        { role_id: 'member', sources: [{ type: 'direct_assignment', details: {} }] },
      ]),
    );
    const login = await h.login('bill@acme.test');
    expect(login.member_session.roles).toContain('billing-admin');
    const claim = decodeJwt(login.session_jwt)['https://stytch.com/session'] as { roles: string[] };
    expect(claim.roles).toEqual(expect.arrayContaining(['member', 'billing-admin']));
    const unknown = await h.call(ENDPOINTS.createMember, {
      params: { organization_id: h.org.organization_id },
      body: { email_address: 'nobody@acme.test', roles: ['superuser'] },
    });
    expect(unknown.status).toBe(400);
    expect(expectError(unknown).error_message).toContain('superuser');
  });

  it('are replaced by roles on update, keeping member', async () => {
    const made = await h.addMember('rota@acme.test', ['billing-admin']);
    const updated = expectOk(
      await h.call(ENDPOINTS.updateMember, {
        params: { organization_id: h.org.organization_id, member_id: made.member_id },
        body: { roles: ['admin'] },
      }),
    ).member;
    expect(roleIdsOf(updated)).toEqual(['admin', 'member']);
    const refused = await h.call(ENDPOINTS.updateMember, {
      params: { organization_id: h.org.organization_id, member_id: made.member_id },
      body: { roles: ['ghost'] },
    });
    expect(refused.status).toBe(400);
  });

  it('follow the organization’s e-mail domain rules, for new and existing members', async () => {
    const org = expectOk(
      await h.call(ENDPOINTS.createOrganization, {
        body: { organization_name: 'Ledger', organization_slug: 'ledger-rbac' },
      }),
    ).organization;
    const before = await h.addMember('old@ledger.test', undefined, org.organization_id);
    expect(roleIdsOf(before)).toEqual(['member']);
    const updated = expectOk(
      await h.call(ENDPOINTS.updateOrganization, {
        params: { organization_id: org.organization_id },
        body: {
          rbac_email_implicit_role_assignments: [
            { domain: 'Ledger.test', role_id: 'billing-admin' },
          ],
        },
      }),
    ).organization;
    expect(updated.rbac_email_implicit_role_assignments).toEqual([
      { domain: 'ledger.test', role_id: 'billing-admin' },
    ]);
    const existing = expectOk(
      await h.call(ENDPOINTS.getMember, {
        params: { organization_id: org.organization_id, member_id: before.member_id },
      }),
    ).member;
    expect(existing.roles).toContainEqual({
      role_id: 'billing-admin',
      sources: [{ type: 'email_assignment', details: {} }],
    });
    const fresh = await h.addMember('new@ledger.test', undefined, org.organization_id);
    expect(roleIdsOf(fresh)).toEqual(['billing-admin', 'member']);
    const elsewhere = await h.addMember('guest@other.test', undefined, org.organization_id);
    expect(roleIdsOf(elsewhere)).toEqual(['member']);

    for (const rules of [
      [{ domain: 'ledger.test', role_id: 'ghost' }],
      [{ domain: 'not a domain', role_id: 'admin' }],
    ]) {
      const refused = await h.call(ENDPOINTS.updateOrganization, {
        params: { organization_id: org.organization_id },
        body: { rbac_email_implicit_role_assignments: rules },
      });
      expect(refused.status).toBe(400);
    }
  });

  it('come from SSO groups mapped to custom roles', async () => {
    const refused = await h.call(ENDPOINTS.ssoCreateSaml, {
      params: { organization_id: h.org.organization_id },
      body: { saml_group_implicit_role_assignments: [{ group: 'x', role_id: 'ghost' }] },
    });
    expect(refused.status).toBe(400);
    const conn = await addSamlConnection(h, {
      idpEntityId: idp.entityId,
      idpSsoUrl: idp.ssoUrl,
      certificates: [idp.certificate],
      groupRoles: [{ group: 'finance', role_id: 'billing-admin' }],
    });
    // The ACS answers only the browser that started the sign-in.
    const browser = new TestBrowser();
    const started = await browser.navigate(startUrl(h, conn.connectionId));
    const response = await idp.createResponse({
      sp: { entityId: conn.entityId, acsUrl: conn.acsUrl },
      email: 'fin@acme.test',
      groups: ['finance'],
      inResponseTo: authnRequestId(started.location ?? ''),
    });
    const acs = await browser.postToAcs(conn.acsUrl, response);
    const result = expectOk(
      await h.call(ENDPOINTS.ssoAuthenticate, {
        body: { sso_token: ssoTokenOf(acs.location), session_duration_minutes: 60 },
      }),
    );
    expect(result.member.roles).toContainEqual({
      role_id: 'billing-admin',
      sources: [{ type: 'sso_connection_group', details: { connection_id: conn.connectionId } }],
    });
    expect(result.member_session?.roles).toContain('billing-admin');
  });

  it('disappear from members when the role is deleted', async () => {
    expectOk(
      await h.call(ENDPOINTS.rbacRoleSet, {
        params: { role_id: 'temp' },
        body: { permissions: [] },
      }),
    );
    const made = await h.addMember('temp@acme.test', ['temp']);
    expect(roleIdsOf(made)).toContain('temp');
    expectOk(await h.call(ENDPOINTS.rbacRoleDelete, { params: { role_id: 'temp' } }));
    const after = expectOk(
      await h.call(ENDPOINTS.getMember, {
        params: { organization_id: h.org.organization_id, member_id: made.member_id },
      }),
    ).member;
    expect(roleIdsOf(after)).toEqual(['member']);
  });
});

describe('member-session endpoints (§7.10)', () => {
  let ada: string;
  let boss: string;
  let bill: string;
  let neighbour: Member;

  beforeAll(async () => {
    await h.addMember('boss@acme.test', ['admin']);
    boss = (await h.login('boss@acme.test')).session_token;
    ada = (await h.login('ada@acme.test')).session_token;
    bill = (await h.login('bill@acme.test')).session_token;
    const theirs = expectOk(
      await h.call(ENDPOINTS.createOrganization, {
        body: { organization_name: 'Neighbours', organization_slug: 'neighbours-rbac' },
      }),
    ).organization;
    neighbour = await h.addMember('next@door.test', undefined, theirs.organization_id);
  });

  it('show the caller and their organization', async () => {
    const me = expectOk(await h.call(ENDPOINTS.memberMe, { token: ada }));
    expect(me.member.email_address).toBe('ada@acme.test');
    expect(me.organization.organization_id).toBe(h.org.organization_id);
    const org = expectOk(await h.call(ENDPOINTS.organizationMe, { token: ada })).organization;
    expect(org.organization_slug).toBe('acme');
    expect((await h.call(ENDPOINTS.memberMe)).status).toBe(401);
  });

  it('refuse every other kind of credential', async () => {
    const secret = basic(h.project.project_id, h.project.secret);
    expect((await h.call(ENDPOINTS.memberMe, { authorization: secret })).status).toBe(401);
    const publicOnly = basic(h.project.public_token, h.project.public_token);
    expect((await h.call(ENDPOINTS.rbacPolicyGet, { authorization: publicOnly })).status).toBe(401);
    const withSession = basic(h.project.public_token, boss);
    const asSession = await h.call(ENDPOINTS.rbacRoleSet, {
      params: { role_id: 'sneaky' },
      body: { permissions: [] },
      authorization: withSession,
    });
    expect(asSession.status).toBe(401);
    // A JWT or a made-up token in place of the session token is no session.
    const jwt = (await h.login('boss@acme.test')).session_jwt;
    for (const token of [jwt, 'x'.repeat(43)]) {
      const res = await h.call(ENDPOINTS.organizationUpdateMe, {
        token,
        body: { organization_name: 'Nope' },
      });
      expect(res.status).toBe(404);
      expect(expectError(res).error_type).toBe('session_not_found');
    }
    expect((await policy()).roles.map((r) => r.role_id)).not.toContain('sneaky');
  });

  it('let a member change their own name and metadata, and nothing else', async () => {
    const updated = expectOk(
      await h.call(ENDPOINTS.memberUpdateSelf, {
        token: ada,
        body: { name: 'Ada L.', untrusted_metadata: { theme: 'dark' } },
      }),
    ).member;
    expect(updated.name).toBe('Ada L.');
    expect(updated.untrusted_metadata).toEqual({ theme: 'dark' });
    const sneaky = await h.sdk('/b2b/organizations/members/update', {
      method: 'PUT',
      token: ada,
      body: { roles: ['admin'] },
    });
    expect(sneaky.status).toBe(400);
    const big = await h.call(ENDPOINTS.memberUpdateSelf, {
      token: ada,
      body: { untrusted_metadata: { blob: 'x'.repeat(5000) } },
    });
    expect(big.status).toBe(400);
  });

  it('let only roles with stytch.organization update.info.name rename the organization', async () => {
    const denied = await h.call(ENDPOINTS.organizationUpdateMe, {
      token: ada,
      body: { organization_name: 'Hijacked' },
    });
    expect(denied.status).toBe(403);
    expect(expectError(denied).error_type).toBe('unauthorized_action');
    const done = expectOk(
      await h.call(ENDPOINTS.organizationUpdateMe, {
        token: boss,
        body: { organization_name: 'Acme Inc' },
      }),
    ).organization;
    expect(done.organization_name).toBe('Acme Inc');
  });

  it('search the caller’s organization only, page by page', async () => {
    // A plain member holds no `stytch.member` `search`, as the provider's `stytch_member`.
    const plain = await h.call(ENDPOINTS.organizationMembersSearch, { token: ada, body: {} });
    expect(plain.status).toBe(403);
    expect(expectError(plain).error_message).toContain('search on stytch.member');
    const first = expectOk(
      await h.call(ENDPOINTS.organizationMembersSearch, { token: bill, body: { limit: 2 } }),
    );
    expect(first.members).toHaveLength(2);
    expect(first.results_metadata.next_cursor).not.toBeNull();
    const all = expectOk(
      await h.call(ENDPOINTS.organizationMembersSearch, { token: bill, body: { limit: 1000 } }),
    );
    expect(all.results_metadata.total).toBe(all.members.length);
    expect(all.members.every((m) => m.organization_id === h.org.organization_id)).toBe(true);
    const byRole = expectOk(
      await h.call(ENDPOINTS.organizationMembersSearch, {
        token: bill,
        body: {
          query: {
            operator: 'AND',
            operands: [{ filter_name: 'member_roles', filter_value: ['billing-admin'] }],
          },
        },
      }),
    );
    expect(byRole.members.map((m) => m.email_address)).toContain('bill@acme.test');
    expect(byRole.members.map((m) => m.email_address)).not.toContain('ada@acme.test');
    const foreign = expectOk(
      await h.call(ENDPOINTS.organizationMembersSearch, {
        token: bill,
        body: {
          query: {
            operator: 'OR',
            operands: [{ filter_name: 'member_ids', filter_value: [neighbour.member_id] }],
          },
        },
      }),
    );
    expect(foreign.members).toEqual([]);
  });

  it('let a custom role update and delete members, answer 403 to plain members, 404 across organizations', async () => {
    const target = await h.addMember('leaver@acme.test');
    const denied = await h.call(ENDPOINTS.memberDelete, {
      token: ada,
      params: { member_id: target.member_id },
    });
    expect(denied.status).toBe(403);
    expect(expectError(denied).error_type).toBe('unauthorized_action');

    const renamed = expectOk(
      await h.call(ENDPOINTS.memberUpdate, {
        token: bill,
        params: { member_id: target.member_id },
        body: { name: 'Leaving Soon' },
      }),
    ).member;
    expect(renamed.name).toBe('Leaving Soon');

    for (const res of [
      await h.call(ENDPOINTS.memberUpdate, {
        token: bill,
        params: { member_id: neighbour.member_id },
        body: { name: 'Pwned' },
      }),
      await h.call(ENDPOINTS.memberDelete, {
        token: bill,
        params: { member_id: neighbour.member_id },
      }),
      await h.call(ENDPOINTS.memberDelete, {
        token: boss,
        params: { member_id: 'member-test-00000000-0000-4000-8000-000000000000' },
      }),
    ]) {
      expect(res.status).toBe(404);
      expect(expectError(res).error_type).toBe('member_not_found');
    }

    const leaverSession = (await h.login('leaver@acme.test')).session_token;
    const gone = expectOk(
      await h.call(ENDPOINTS.memberDelete, {
        token: bill,
        params: { member_id: target.member_id },
      }),
    );
    expect(gone.member_id).toBe(target.member_id);
    // Their sessions ended with them; a second delete finds no member.
    expect((await h.call(ENDPOINTS.memberMe, { token: leaverSession })).status).toBe(404);
    const again = await h.call(ENDPOINTS.memberDelete, {
      token: bill,
      params: { member_id: target.member_id },
    });
    expect(expectError(again).error_type).toBe('member_not_found');
  });

  it('delete a member once when asked many times at once', async () => {
    const target = await h.addMember('twice@acme.test');
    const answers = await Promise.all(
      Array.from({ length: 6 }, () =>
        h.call(ENDPOINTS.memberDelete, { token: boss, params: { member_id: target.member_id } }),
      ),
    );
    expect(answers.filter((a) => a.status === 200)).toHaveLength(1);
    expect(answers.filter((a) => a.status === 404)).toHaveLength(5);
  });

  it('apply a permission taken away at once, whatever the session says', async () => {
    const target = await h.addMember('stays@acme.test');
    expectOk(
      await h.call(ENDPOINTS.rbacRoleSet, {
        params: { role_id: 'billing-admin' },
        body: { permissions: [{ resource_id: 'invoices', actions: ['read'] }] },
      }),
    );
    const denied = await h.call(ENDPOINTS.memberUpdate, {
      token: bill,
      params: { member_id: target.member_id },
      body: { name: 'Nope' },
    });
    expect(expectError(denied).error_type).toBe('unauthorized_action');
  });
});
