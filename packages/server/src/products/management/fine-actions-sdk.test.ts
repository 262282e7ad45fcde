// Management calls made with a member's session through the provider's Node SDK ask for the
// provider's fine-grained action of each call, and of each field an update sends: a role holding
// every built-in action but that one is refused (403 `session_authorization_error`), a role
// holding exactly that one is let through. Each row runs in an organization of its own.
import { ENDPOINTS } from '@gatehouse/protocol/endpoints';
import type { Member } from '@gatehouse/protocol';
import type { B2BClient } from 'stytch';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { expectOk } from '../../test/harness.js';
import { startSdkHarness, type SdkHarness } from '../../test/backend-sdk.js';
import { DEFAULT_RBAC_POLICY } from '../../tenancy/rbac/policy.js';

vi.setConfig({ testTimeout: 60_000, hookTimeout: 60_000 });

const PASSWORD = 'Quartz-Lantern-Orbit-42';
let sdk: SdkHarness;

beforeAll(async () => {
  sdk = await startSdkHarness();
});
afterAll(async () => {
  await sdk?.close();
});

/** What a row's call is about: the organization and a member of it other than the caller. */
interface Scene {
  organization_id: string;
  target: Member;
}

type Options = { authorization: { session_token: string } };

interface Row {
  call: (client: B2BClient, scene: Scene, options: Options) => Promise<unknown>;
  resource: string;
  action: string;
}

const ORG = 'stytch.organization';
const MEMBER = 'stytch.member';

const orgUpdate =
  (fields: Record<string, unknown>) => (client: B2BClient, s: Scene, options: Options) =>
    client.organizations.update({ organization_id: s.organization_id, ...fields }, options);

const memberUpdate =
  (fields: Record<string, unknown>) => (client: B2BClient, s: Scene, options: Options) =>
    client.organizations.members.update(
      { organization_id: s.organization_id, member_id: s.target.member_id, ...fields },
      options,
    );

/** A new SAML connection of the organization, made with the secret key alone. */
async function samlConnection(client: B2BClient, s: Scene): Promise<string> {
  const made = await client.sso.saml.createConnection({ organization_id: s.organization_id });
  return made.connection?.connection_id ?? '';
}

const about = (s: Scene) => ({ organization_id: s.organization_id, member_id: s.target.member_id });

const TABLE: Record<string, Row> = {
  'organizations.update name': {
    call: orgUpdate({ organization_name: 'Renamed' }),
    resource: ORG,
    action: 'update.info.name',
  },
  'organizations.update slug': {
    call: orgUpdate({ organization_slug: `renamed-${Date.now()}` }),
    resource: ORG,
    action: 'update.info.slug',
  },
  'organizations.update mfa_policy': {
    call: orgUpdate({ mfa_policy: 'OPTIONAL' }),
    resource: ORG,
    action: 'update.settings.mfa-policy',
  },
  'organizations.update email_allowed_domains': {
    call: orgUpdate({ email_allowed_domains: [] }),
    resource: ORG,
    action: 'update.settings.allowed-domains',
  },
  'organizations.update sso_jit_provisioning': {
    call: orgUpdate({ sso_jit_provisioning: 'ALL_ALLOWED' }),
    resource: ORG,
    action: 'update.settings.sso-jit-provisioning',
  },
  'organizations.delete': {
    call: (client, s, options) =>
      client.organizations.delete({ organization_id: s.organization_id }, options),
    resource: ORG,
    action: 'delete',
  },
  'members.create': {
    call: (client, s, options) =>
      client.organizations.members.create(
        { organization_id: s.organization_id, email_address: `new-${Date.now()}@acme.test` },
        options,
      ),
    resource: MEMBER,
    action: 'create',
  },
  'members.search': {
    call: (client, s, options) =>
      client.organizations.members.search({ organization_ids: [s.organization_id] }, options),
    resource: MEMBER,
    action: 'search',
  },
  'members.update name': {
    call: memberUpdate({ name: 'Renamed' }),
    resource: MEMBER,
    action: 'update.info.name',
  },
  'members.update mfa_phone_number': {
    call: memberUpdate({ mfa_phone_number: '+12025550162' }),
    resource: MEMBER,
    action: 'update.info.mfa-phone',
  },
  'members.update mfa_enrolled': {
    call: memberUpdate({ mfa_enrolled: false }),
    resource: MEMBER,
    action: 'update.settings.mfa-enrolled',
  },
  'members.update roles': {
    call: memberUpdate({ roles: [] }),
    resource: MEMBER,
    action: 'update.settings.roles',
  },
  'members.delete': {
    call: (client, s, options) => client.organizations.members.delete(about(s), options),
    resource: MEMBER,
    action: 'delete',
  },
  'members.reactivate': {
    call: (client, s, options) => client.organizations.members.reactivate(about(s), options),
    resource: MEMBER,
    action: 'create',
  },
  'members.deleteMFAPhoneNumber': {
    call: (client, s, options) =>
      client.organizations.members.deleteMFAPhoneNumber(about(s), options),
    resource: MEMBER,
    action: 'update.info.delete.mfa-phone',
  },
  'members.deletePassword': {
    call: (client, s, options) =>
      client.organizations.members.deletePassword(
        { organization_id: s.organization_id, member_password_id: s.target.member_password_id },
        options,
      ),
    resource: MEMBER,
    action: 'update.info.delete.password',
  },
  'sessions.revoke of another member': {
    call: (client, s, options) =>
      client.sessions.revoke({ member_id: s.target.member_id }, options),
    resource: MEMBER,
    action: 'revoke-sessions',
  },
  'magicLinks.email.invite': {
    call: (client, s, options) =>
      client.magicLinks.email.invite(
        { organization_id: s.organization_id, email_address: `invited-${Date.now()}@acme.test` },
        options,
      ),
    resource: MEMBER,
    action: 'create',
  },
  'sso.saml.createConnection': {
    call: (client, s, options) =>
      client.sso.saml.createConnection(
        { organization_id: s.organization_id, display_name: 'Okta' },
        options,
      ),
    resource: 'stytch.sso',
    action: 'create',
  },
  'sso.saml.updateConnection': {
    call: async (client, s, options) => {
      const connectionId = await samlConnection(client, s);
      return client.sso.saml.updateConnection(
        { organization_id: s.organization_id, connection_id: connectionId, display_name: 'Okta 2' },
        options,
      );
    },
    resource: 'stytch.sso',
    action: 'update',
  },
  'sso.deleteConnection': {
    call: async (client, s, options) => {
      const connectionId = await samlConnection(client, s);
      return client.sso.deleteConnection(
        { organization_id: s.organization_id, connection_id: connectionId },
        options,
      );
    },
    resource: 'stytch.sso',
    action: 'delete',
  },
  'sso.getConnections': {
    call: (client, s, options) =>
      client.sso.getConnections({ organization_id: s.organization_id }, options),
    resource: 'stytch.sso',
    action: 'get',
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

/** A new organization with an admin, a target with a password, and a role for each holder. */
async function scene(): Promise<Scene & { admin: Member }> {
  const { h } = sdk;
  counter += 1;
  const org = await h.admin.createOrganization(h.project.project_id, {
    organization_name: `Org ${counter}`,
    organization_slug: `org-${counter}-${Date.now()}`,
  });
  const admin = await h.addMember(`admin-${counter}@acme.test`, ['admin'], org.organization_id);
  const plain = await h.addMember(`target-${counter}@acme.test`, [], org.organization_id);
  const target = await h.admin.setMemberPassword(h.project.project_id, plain.member_id, {
    password: PASSWORD,
  });
  return { organization_id: org.organization_id, target, admin };
}

/** `options.authorization` of a new member of the organization holding a new role. */
async function holding(
  s: Scene,
  permissions: { resource_id: string; actions: string[] }[],
): Promise<Options> {
  const { h } = sdk;
  counter += 1;
  const roleId = `role-${counter}`;
  expectOk(
    await h.call(ENDPOINTS.rbacRoleSet, { params: { role_id: roleId }, body: { permissions } }),
  );
  const email = `holder-${counter}@acme.test`;
  const member = await h.addMember(email, [roleId], s.organization_id);
  await h.admin.setMemberPassword(h.project.project_id, member.member_id, { password: PASSWORD });
  const session = await sdk.client.passwords.authenticate({
    organization_id: s.organization_id,
    email_address: email,
    password: PASSWORD,
    session_duration_minutes: 60,
  });
  return { authorization: { session_token: session.session_token } };
}

/** The refusal the SDK threw, or null when the call succeeded. */
const refusal = (call: Promise<unknown>) =>
  call.then(
    () => null,
    (error: unknown) => error,
  );

describe('each member-session call asks for the provider’s action', () => {
  for (const [name, row] of Object.entries(TABLE)) {
    it(`${name}: ${row.resource} ${row.action}`, async () => {
      const s = await scene();
      const without = await holding(s, allBut(row.resource, row.action));
      expect(await refusal(row.call(sdk.client, s, without))).toMatchObject({
        status_code: 403,
        error_type: 'session_authorization_error',
      });
      const only = await holding(s, [{ resource_id: row.resource, actions: [row.action] }]);
      expect(await refusal(row.call(sdk.client, s, only))).toBeNull();
    });
  }

  it('asks a member update for the action of every field, and oneself by stytch.self', async () => {
    const s = await scene();
    const nameOnly = await holding(s, [{ resource_id: MEMBER, actions: ['update.info.name'] }]);
    const both = memberUpdate({ name: 'Both', mfa_enrolled: false })(sdk.client, s, nameOnly);
    expect(await refusal(both)).toMatchObject({ status_code: 403 });
    // A plain member changes their own name and MFA settings, not their roles.
    const own = { organization_id: s.organization_id, member_id: s.target.member_id };
    const session = await sdk.client.passwords.authenticate({
      organization_id: s.organization_id,
      email_address: s.target.email_address,
      password: PASSWORD,
    });
    const options = { authorization: { session_token: session.session_token } };
    const members = sdk.client.organizations.members;
    const self = await members.update({ ...own, name: 'Me', mfa_enrolled: false }, options);
    expect(self.member.name).toBe('Me');
    expect(await refusal(members.update({ ...own, roles: ['admin'] }, options))).toMatchObject({
      status_code: 403,
      error_type: 'session_authorization_error',
    });
  });
});
