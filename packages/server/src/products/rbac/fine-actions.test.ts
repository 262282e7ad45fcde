// The browser API asks for the provider's fine-grained action of each call, and of each field an
// update sends: a role holding every built-in action but that one is refused (403
// `unauthorized_action`, naming it), a role holding exactly that one is let through.
import type { Member } from '@gatehouse/protocol';
import { ENDPOINTS } from '@gatehouse/protocol/endpoints';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { expectError, expectOk, startHarness, type Harness } from '../../test/harness.js';
import { DEFAULT_RBAC_POLICY } from '../../tenancy/rbac/policy.js';

vi.setConfig({ testTimeout: 60_000, hookTimeout: 60_000 });

let h: Harness;

beforeAll(async () => {
  h = await startHarness();
});

afterAll(async () => {
  await h?.close();
});

type Answer = { status: number };

interface Row {
  /** The call, by a member's session token, about a fresh member of the organization. */
  call: (token: string, target: Member) => Promise<Answer>;
  resource: string;
  action: string;
  /** Whether the refusal's message names the action (SSO's speaks of managing connections). */
  named?: false;
}

const ORG = 'stytch.organization';
const MEMBER = 'stytch.member';

const orgUpdate = (body: Record<string, unknown>) => (token: string) =>
  h.call(ENDPOINTS.organizationUpdateMe, { token, body });

const TABLE: Record<string, Row> = {
  'organization name': {
    call: orgUpdate({ organization_name: 'Acme Renamed' }),
    resource: ORG,
    action: 'update.info.name',
  },
  'organization slug': {
    call: orgUpdate({ organization_slug: 'acme-renamed' }),
    resource: ORG,
    action: 'update.info.slug',
  },
  'organization logo': {
    call: orgUpdate({ organization_logo_url: 'https://acme.test/logo.png' }),
    resource: ORG,
    action: 'update.info.logo-url',
  },
  'MFA policy': {
    call: orgUpdate({ mfa_policy: 'OPTIONAL' }),
    resource: ORG,
    action: 'update.settings.mfa-policy',
  },
  'allowed MFA methods': {
    call: orgUpdate({ mfa_methods: 'ALL_ALLOWED' }),
    resource: ORG,
    action: 'update.settings.allowed-mfa-methods',
  },
  'allowed sign-in methods': {
    call: orgUpdate({ auth_methods: 'ALL_ALLOWED' }),
    resource: ORG,
    action: 'update.settings.allowed-auth-methods',
  },
  'e-mail JIT provisioning': {
    call: orgUpdate({ email_jit_provisioning: 'NOT_ALLOWED' }),
    resource: ORG,
    action: 'update.settings.email-jit-provisioning',
  },
  'SSO JIT provisioning': {
    call: orgUpdate({ sso_jit_provisioning: 'ALL_ALLOWED' }),
    resource: ORG,
    action: 'update.settings.sso-jit-provisioning',
  },
  'OAuth tenant JIT provisioning': {
    call: orgUpdate({ oauth_tenant_jit_provisioning: 'NOT_ALLOWED' }),
    resource: ORG,
    action: 'update.settings.oauth-tenant-jit-provisioning',
  },
  'verified domains': {
    call: (token) => h.call(ENDPOINTS.organizationDomains, { token }),
    resource: ORG,
    action: 'update.settings.allowed-domains',
  },
  'adding a domain': {
    call: (token) =>
      h.call(ENDPOINTS.organizationDomainAdd, {
        token,
        body: { domain: `acme-${++counter}.test` },
      }),
    resource: ORG,
    action: 'update.settings.allowed-domains',
  },
  'member search': {
    call: (token) => h.call(ENDPOINTS.organizationMembersSearch, { token, body: {} }),
    resource: MEMBER,
    action: 'search',
  },
  "a member's name": {
    call: (token, target) =>
      h.call(ENDPOINTS.memberUpdate, {
        token,
        params: { member_id: target.member_id },
        body: { name: 'Renamed' },
      }),
    resource: MEMBER,
    action: 'update.info.name',
  },
  "a member's metadata": {
    call: (token, target) =>
      h.call(ENDPOINTS.memberUpdate, {
        token,
        params: { member_id: target.member_id },
        body: { untrusted_metadata: { team: 'blue' } },
      }),
    resource: MEMBER,
    action: 'update.info.untrusted-metadata',
  },
  "a member's roles": {
    call: (token, target) =>
      h.call(ENDPOINTS.memberUpdate, {
        token,
        params: { member_id: target.member_id },
        body: { roles: [] },
      }),
    resource: MEMBER,
    action: 'update.settings.roles',
  },
  "a member's MFA phone number": {
    call: (token, target) =>
      h.call(ENDPOINTS.memberDeleteMfaPhoneNumber, {
        token,
        params: { member_id: target.member_id },
      }),
    resource: MEMBER,
    action: 'update.info.delete.mfa-phone',
  },
  'removing a member': {
    call: (token, target) =>
      h.call(ENDPOINTS.memberDelete, { token, params: { member_id: target.member_id } }),
    resource: MEMBER,
    action: 'delete',
  },
  'reactivating a member': {
    call: (token, target) =>
      h.call(ENDPOINTS.memberReactivate, { token, params: { member_id: target.member_id } }),
    resource: MEMBER,
    action: 'create',
  },
  "the organization's sessions": {
    call: (token) => h.call(ENDPOINTS.organizationSessionsSearch, { token, body: {} }),
    resource: MEMBER,
    action: 'revoke-sessions',
  },
  'inviting a member': {
    call: (token) =>
      h.call(ENDPOINTS.magicLinksInvite, {
        token,
        body: { email_address: `invited-${++counter}@acme.test` },
      }),
    resource: MEMBER,
    action: 'create',
  },
  'SSO connections': {
    call: (token) => h.call(ENDPOINTS.sdkSsoList, { token }),
    resource: 'stytch.sso',
    action: 'get',
    named: false,
  },
};

/** Every built-in action on every built-in resource but one (`stytch.self` every member has). */
function allBut(resource: string, action: string) {
  return DEFAULT_RBAC_POLICY.resources
    .filter((r) => r.resource_id !== 'stytch.self')
    .map((r) => ({
      resource_id: r.resource_id,
      actions: r.actions.filter((a) => !(r.resource_id === resource && a === action)),
    }));
}

let counter = 0;

/** A signed-in member holding a new role with these permissions. */
async function holding(permissions: { resource_id: string; actions: string[] }[]) {
  counter += 1;
  const roleId = `role-${counter}`;
  expectOk(
    await h.call(ENDPOINTS.rbacRoleSet, { params: { role_id: roleId }, body: { permissions } }),
  );
  const email = `holder-${counter}@acme.test`;
  await h.addMember(email, [roleId]);
  return (await h.login(email)).session_token;
}

describe('each browser call asks for the provider’s action', () => {
  for (const [name, row] of Object.entries(TABLE)) {
    it(`${name}: ${row.resource} ${row.action}`, async () => {
      const target = await h.addMember(`target-${++counter}@acme.test`);
      const without = await row.call(await holding(allBut(row.resource, row.action)), target);
      expect(without.status).toBe(403);
      const error = expectError(without as Parameters<typeof expectError>[0]);
      expect(error.error_type).toBe('unauthorized_action');
      if (row.named !== false) {
        expect(error.error_message).toContain(`${row.action} on ${row.resource}`);
      }
      const only = await holding([{ resource_id: row.resource, actions: [row.action] }]);
      expect((await row.call(only, target)).status).toBe(200);
    });
  }

  it('asks an update for the action of every field it sends', async () => {
    const nameOnly = await holding([{ resource_id: ORG, actions: ['update.info.name'] }]);
    const both = await h.call(ENDPOINTS.organizationUpdateMe, {
      token: nameOnly,
      body: { organization_name: 'Acme Both', mfa_policy: 'OPTIONAL' },
    });
    expect(both.status).toBe(403);
    expect(expectError(both).error_message).toContain('update.settings.mfa-policy');
    const after = expectOk(await h.call(ENDPOINTS.organizationMe, { token: nameOnly }));
    expect(after.organization.organization_name).not.toBe('Acme Both');
  });

  it('asks the maximum session length, which has no action of its own, for every one', async () => {
    const organization = DEFAULT_RBAC_POLICY.resources.find((r) => r.resource_id === ORG);
    const every = organization?.actions ?? [];
    const body = { session_max_duration_minutes: 60 };
    const short = await holding([
      { resource_id: ORG, actions: every.filter((a) => a !== 'delete') },
    ]);
    const refused = await h.call(ENDPOINTS.organizationUpdateMe, { token: short, body });
    expect(refused.status).toBe(403);
    expect(expectError(refused).error_message).toContain('delete on stytch.organization');
    const all = await holding([{ resource_id: ORG, actions: every }]);
    expectOk(await h.call(ENDPOINTS.organizationUpdateMe, { token: all, body }));
  });

  it('refuses a policy naming an action the built-in resources do not have, coarse ones included', async () => {
    for (const action of ['update', 'update.info.everything']) {
      const res = await h.call(ENDPOINTS.rbacRoleSet, {
        params: { role_id: 'coarse' },
        body: { permissions: [{ resource_id: MEMBER, actions: [action] }] },
      });
      expect(res.status).toBe(400);
      const error = expectError(res);
      expect(error.error_type).toBe('invalid_request');
      expect(error.error_message).toContain(`action ${action},`);
    }
  });

  it('lets every member change their own name and factors through stytch.self', async () => {
    const email = `self-${++counter}@acme.test`;
    await h.addMember(email);
    const token = (await h.login(email)).session_token;
    const renamed = expectOk(
      await h.call(ENDPOINTS.memberUpdateSelf, { token, body: { name: 'Me' } }),
    );
    expect(renamed.member.name).toBe('Me');
    expect((await h.call(ENDPOINTS.memberDeleteSelfMfaPhoneNumber, { token })).status).toBe(200);
  });
});
