// Role-granting rules changed with a member session: e-mail domain rules on the organization and
// group rules on SSO connections need `stytch.organization` `update.settings.implicit-roles` and
// may give only roles the caller holds. And a member may allow for joining by e-mail only the
// domain of their own verified address.
import { ENDPOINTS, type RequestOf } from '@gatehouse/protocol/endpoints';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { expectOk, expectSession, startHarness, type Harness } from '../../test/harness.js';

vi.setConfig({ testTimeout: 30_000, hookTimeout: 30_000 });

let h: Harness;
let boss: string;

/** The organization's settings these tests change, each with its own action. */
const ORG_SETTINGS = [
  'update.info.name',
  'update.settings.allowed-domains',
  'update.settings.email-jit-provisioning',
];

beforeAll(async () => {
  h = await startHarness();
  await setRole('org-editor', [{ resource_id: 'stytch.organization', actions: ORG_SETTINGS }]);
  await setRole('org-steward', [
    {
      resource_id: 'stytch.organization',
      actions: [...ORG_SETTINGS, 'update.settings.implicit-roles'],
    },
  ]);
  await setRole('sso-manager', [
    { resource_id: 'stytch.sso', actions: ['*'] },
    { resource_id: 'stytch.organization', actions: ['update.settings.implicit-roles'] },
  ]);
  await setRole('sso-only', [{ resource_id: 'stytch.sso', actions: ['*'] }]);
  await h.addMember('boss@acme.test', ['admin']);
  boss = (await h.login('boss@acme.test')).session_token;
});

afterAll(async () => {
  await h?.close();
});

async function setRole(
  roleId: string,
  permissions: RequestOf<typeof ENDPOINTS.rbacRoleSet>['permissions'],
) {
  expectOk(
    await h.call(ENDPOINTS.rbacRoleSet, { params: { role_id: roleId }, body: { permissions } }),
  );
}

/** A member with these roles, signed in: their session token and member id. */
async function signedIn(email: string, roles: string[]) {
  const member = await h.addMember(email, roles);
  return { token: (await h.login(email)).session_token, id: member.member_id };
}

async function rolesOf(memberId: string): Promise<string[]> {
  const { member } = expectOk(
    await h.call(ENDPOINTS.getMember, {
      params: { organization_id: h.org.organization_id, member_id: memberId },
    }),
  );
  return member.roles.map((r) => r.role_id).sort();
}

async function emailRules() {
  const { organization } = expectOk(
    await h.call(ENDPOINTS.getOrganization, {
      params: { organization_id: h.org.organization_id },
    }),
  );
  return organization.rbac_email_implicit_role_assignments ?? [];
}

const updateMe = (token: string, body: RequestOf<typeof ENDPOINTS.organizationUpdateMe>) =>
  h.call(ENDPOINTS.organizationUpdateMe, { token, body });

describe('e-mail role rules through PUT /organizations/me', () => {
  it('refuse a role that may only update the organization making its own domain admin', async () => {
    const eve = await signedIn('eve@acme.test', ['org-editor']);
    const victim = await h.addMember('victim@acme.test', []);
    const res = await updateMe(eve.token, {
      rbac_email_implicit_role_assignments: [{ domain: 'acme.test', role_id: 'admin' }],
    });
    expect([res.status, res.error?.error_type]).toEqual([403, 'unauthorized_action']);
    expect(await emailRules()).toEqual([]);
    expect(await rolesOf(eve.id)).toEqual(['member', 'org-editor']);
    // Still not an admin: deleting a member stays out of reach.
    const denied = await h.call(ENDPOINTS.memberDelete, {
      token: eve.token,
      params: { member_id: victim.member_id },
    });
    expect([denied.status, denied.error?.error_type]).toEqual([403, 'unauthorized_action']);
    // The settings that `update` covers still change.
    const renamed = expectOk(await updateMe(eve.token, { organization_name: 'Acme Renamed' }));
    expect(renamed.organization.organization_name).toBe('Acme Renamed');
  });

  it('let a caller with the permission give a role they hold, and no other', async () => {
    const sam = await signedIn('sam@acme.test', ['org-steward']);
    const ok = await updateMe(sam.token, {
      rbac_email_implicit_role_assignments: [{ domain: 'partners.test', role_id: 'org-steward' }],
    });
    expect(ok.status).toBe(200);
    expect(await emailRules()).toEqual([{ domain: 'partners.test', role_id: 'org-steward' }]);
    const partner = await h.addMember('pat@partners.test', []);
    expect(await rolesOf(partner.member_id)).toEqual(['member', 'org-steward']);

    for (const role_id of ['admin', 'org-editor']) {
      const res = await updateMe(sam.token, {
        rbac_email_implicit_role_assignments: [
          { domain: 'partners.test', role_id: 'org-steward' },
          { domain: 'acme.test', role_id },
        ],
      });
      expect([res.status, res.error?.error_type]).toEqual([403, 'unauthorized_action']);
    }
    expect(await rolesOf(sam.id)).toEqual(['member', 'org-steward']);
    expect(await emailRules()).toEqual([{ domain: 'partners.test', role_id: 'org-steward' }]);
  });

  it('let an admin give admin, and keep others from taking that rule away', async () => {
    const rules = [
      { domain: 'partners.test', role_id: 'org-steward' },
      { domain: 'board.test', role_id: 'admin' },
    ];
    expectOk(await updateMe(boss, { rbac_email_implicit_role_assignments: rules }));
    const sam = (await h.login('sam@acme.test')).session_token;
    // Sending the list back unchanged is no grant.
    expectOk(await updateMe(sam, { rbac_email_implicit_role_assignments: rules }));
    const removed = await updateMe(sam, {
      rbac_email_implicit_role_assignments: [rules[0]!],
    });
    expect([removed.status, removed.error?.error_type]).toEqual([403, 'unauthorized_action']);
    expect(await emailRules()).toEqual(rules);
  });
});

describe('SSO group role rules through the SDK', () => {
  it('refuse mapping a group to a role above the caller’s own', async () => {
    const sue = await signedIn('sue@acme.test', ['sso-manager']);
    const toAdmin = await h.call(ENDPOINTS.sdkSsoCreateSaml, {
      token: sue.token,
      body: { saml_group_implicit_role_assignments: [{ group: 'everyone', role_id: 'admin' }] },
    });
    expect([toAdmin.status, toAdmin.error?.error_type]).toEqual([403, 'unauthorized_action']);
    const oidc = await h.call(ENDPOINTS.sdkSsoCreateOidc, {
      token: sue.token,
      body: { oidc_group_implicit_role_assignments: [{ group: 'everyone', role_id: 'admin' }] },
    });
    expect([oidc.status, oidc.error?.error_type]).toEqual([403, 'unauthorized_action']);
    const listed = expectOk(await h.call(ENDPOINTS.sdkSsoList, { token: sue.token }));
    expect([...listed.saml_connections, ...listed.oidc_connections]).toEqual([]);

    const own = expectOk(
      await h.call(ENDPOINTS.sdkSsoCreateSaml, {
        token: sue.token,
        body: {
          saml_group_implicit_role_assignments: [{ group: 'sso-team', role_id: 'sso-manager' }],
        },
      }),
    ).connection;
    expect(own.saml_group_implicit_role_assignments).toEqual([
      { group: 'sso-team', role_id: 'sso-manager' },
    ]);
    const raised = await h.call(ENDPOINTS.sdkSsoUpdateSaml, {
      token: sue.token,
      params: { connection_id: own.connection_id },
      body: {
        saml_group_implicit_role_assignments: [
          { group: 'sso-team', role_id: 'sso-manager' },
          { group: 'everyone', role_id: 'admin' },
        ],
      },
    });
    expect([raised.status, raised.error?.error_type]).toEqual([403, 'unauthorized_action']);
  });

  it('need the permission to change group rules at all, and let an admin map to admin', async () => {
    const stan = await signedIn('stan@acme.test', ['sso-only']);
    const denied = await h.call(ENDPOINTS.sdkSsoCreateSaml, {
      token: stan.token,
      body: { saml_group_implicit_role_assignments: [{ group: 'staff', role_id: 'member' }] },
    });
    expect([denied.status, denied.error?.error_type]).toEqual([403, 'unauthorized_action']);
    const plain = expectOk(
      await h.call(ENDPOINTS.sdkSsoCreateSaml, {
        token: stan.token,
        body: { display_name: 'Okta' },
      }),
    ).connection;

    const mapped = expectOk(
      await h.call(ENDPOINTS.sdkSsoUpdateSaml, {
        token: boss,
        params: { connection_id: plain.connection_id },
        body: { saml_group_implicit_role_assignments: [{ group: 'it', role_id: 'admin' }] },
      }),
    ).connection;
    expect(mapped.saml_group_implicit_role_assignments).toEqual([
      { group: 'it', role_id: 'admin' },
    ]);
    // Other fields still change for the SSO role; the admin's rule stays.
    const renamed = expectOk(
      await h.call(ENDPOINTS.sdkSsoUpdateSaml, {
        token: stan.token,
        params: { connection_id: plain.connection_id },
        body: { display_name: 'Okta (prod)' },
      }),
    ).connection;
    expect(renamed.display_name).toBe('Okta (prod)');
    expect(renamed.saml_group_implicit_role_assignments).toEqual([
      { group: 'it', role_id: 'admin' },
    ]);
    const cleared = await h.call(ENDPOINTS.sdkSsoUpdateSaml, {
      token: stan.token,
      params: { connection_id: plain.connection_id },
      body: { saml_group_implicit_role_assignments: [] },
    });
    expect([cleared.status, cleared.error?.error_type]).toEqual([403, 'unauthorized_action']);
  });

  it('leave the management API free to map any role', async () => {
    const res = await h.call(ENDPOINTS.ssoCreateSaml, {
      params: { organization_id: h.org.organization_id },
      body: { saml_group_implicit_role_assignments: [{ group: 'root', role_id: 'admin' }] },
    });
    expect(res.status).toBe(200);
  });
});

describe('allowed e-mail domains through PUT /organizations/me', () => {
  /** Signs in by discovery link and founds an organization; returns the founder's session. */
  async function found(email: string, name: string): Promise<string> {
    expectOk(await h.call(ENDPOINTS.magicLinksDiscoverySend, { body: { email_address: email } }));
    const dr = expectOk(
      await h.call(ENDPOINTS.magicLinksDiscoveryAuthenticate, {
        body: { discovery_magic_links_token: await h.lastToken(email) },
      }),
    );
    return expectSession(
      await h.call(ENDPOINTS.discoveryOrganizationsCreate, {
        body: {
          intermediate_session_token: dr.intermediate_session_token,
          session_duration_minutes: 60,
          organization_name: name,
        },
      }),
    ).session_token;
  }

  async function eligibleFor(email: string): Promise<string[]> {
    expectOk(await h.call(ENDPOINTS.magicLinksDiscoverySend, { body: { email_address: email } }));
    const dr = expectOk(
      await h.call(ENDPOINTS.magicLinksDiscoveryAuthenticate, {
        body: { discovery_magic_links_token: await h.lastToken(email) },
      }),
    );
    return dr.discovered_organizations
      .filter((d) => d.membership.type === 'eligible_to_join_by_email_domain')
      .map((d) => d.organization.organization_name);
  }

  it("refuse a self-service organization claiming another company's domain", async () => {
    const mallory = await found('mallory@squat.test', 'Victim Corp IT');
    const squat = await updateMe(mallory, {
      email_jit_provisioning: 'RESTRICTED',
      email_allowed_domains: ['squat.test', 'Victim.test'],
    });
    expect([squat.status, squat.error?.error_type]).toEqual([400, 'invalid_email_domain']);
    expect(squat.error?.error_message).toContain('victim.test');
    expect(await eligibleFor('bob@victim.test')).toEqual([]);

    const own = expectOk(
      await updateMe(mallory, {
        email_jit_provisioning: 'RESTRICTED',
        email_allowed_domains: ['squat.test'],
      }),
    ).organization;
    expect(own.email_allowed_domains).toEqual(['squat.test']);
    expect(await eligibleFor('max@squat.test')).toEqual(['Victim Corp IT']);
    expect(await eligibleFor('bob@victim.test')).toEqual([]);
  });

  it('keep domains the host set, and leave the management API free to set any', async () => {
    const founder = await found('founder@globex.test', 'Globex');
    const { organization: org } = expectOk(
      await h.call(ENDPOINTS.organizationMe, { token: founder }),
    );
    expectOk(
      await h.call(ENDPOINTS.updateOrganization, {
        params: { organization_id: org.organization_id },
        body: {
          email_jit_provisioning: 'RESTRICTED',
          email_allowed_domains: ['globex.test', 'globex-labs.test'],
        },
      }),
    );
    // The founder may keep, reorder or drop what the host listed, and add nothing foreign.
    const kept = expectOk(
      await updateMe(founder, { email_allowed_domains: ['globex-labs.test', 'globex.test'] }),
    ).organization;
    expect(kept.email_allowed_domains).toEqual(['globex-labs.test', 'globex.test']);
    const foreign = await updateMe(founder, {
      email_allowed_domains: ['globex.test', 'initrode.test'],
    });
    expect([foreign.status, foreign.error?.error_type]).toEqual([400, 'invalid_email_domain']);
    expect(await eligibleFor('bill@globex-labs.test')).toEqual(['Globex']);
    expect(await eligibleFor('peter@initrode.test')).toEqual([]);
  });

  it('hold for Google Workspace domains and Microsoft tenants too', async () => {
    const founder = await found('founder@hooli.test', 'Hooli');
    const google = await updateMe(founder, {
      oauth_tenant_jit_provisioning: 'RESTRICTED',
      allowed_oauth_tenants: { google: ['hooli.test', 'victim.test'] },
    });
    expect([google.status, google.error?.error_type]).toEqual([400, 'invalid_email_domain']);
    const microsoft = await updateMe(founder, {
      allowed_oauth_tenants: { microsoft: ['9188040d-6c67-4c5b-b112-36a304b66dad'] },
    });
    expect([microsoft.status, microsoft.error?.error_type]).toEqual([400, 'invalid_request']);
    const own = expectOk(
      await updateMe(founder, {
        oauth_tenant_jit_provisioning: 'RESTRICTED',
        allowed_oauth_tenants: { google: ['Hooli.test'] },
      }),
    ).organization;
    expect(own.allowed_oauth_tenants).toEqual({ google: ['hooli.test'] });
  });

  it('refuse an unverified address claiming its own domain', async () => {
    const unverified = await signedIn('una@acme-uk.test', ['admin']);
    await h.db
      .updateTable('members')
      .set({ email_verified: 0 })
      .where('id', '=', unverified.id)
      .execute();
    const res = await updateMe(unverified.token, {
      email_allowed_domains: ['acme.test', 'acme-uk.test'],
    });
    expect([res.status, res.error?.error_type]).toEqual([400, 'invalid_email_domain']);
  });
});
