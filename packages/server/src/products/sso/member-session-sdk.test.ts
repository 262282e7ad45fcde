// SSO connection calls made with a member's session through the hosted provider's official Node
// SDK (`stytch` 14, `B2BClient`, `options.authorization`): `stytch.sso` `get`, `create`,
// `update` and `delete` under the project's policy, custom roles included, within the session's
// organization, and the roles a SAML connection gives whoever signs in through it; without a
// session the secret key alone decides, as before.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Member, Organization } from '@gatehouse/protocol';
import { startSdkHarness, type SdkHarness } from '../../test/backend-sdk.js';

const PASSWORD = 'Quartz-Lantern-Orbit-42';
let sdk: SdkHarness;
let acme: string;
let ada: Member; // `member`
let grace: Member; // `admin`
let sam: Member; // `sso-editor`: may list and create connections, not delete them
let sibling: Organization;

beforeAll(async () => {
  sdk = await startSdkHarness();
  const { h } = sdk;
  const projectId = h.project.project_id;
  acme = h.org.organization_id;
  await h.admin.setRbacPolicy(projectId, {
    roles: [
      {
        role_id: 'sso-editor',
        description: 'Sets up SSO.',
        permissions: [{ resource_id: 'stytch.sso', actions: ['get', 'create'] }],
      },
    ],
    resources: [],
  });
  ada = h.member;
  grace = await h.addMember('grace@acme.test', ['admin']);
  sam = await h.addMember('sam@acme.test', ['sso-editor']);
  sibling = await h.admin.createOrganization(projectId, {
    organization_name: 'Sibling',
    organization_slug: 'sibling',
  });
  for (const member of [ada, grace, sam]) {
    await h.admin.setMemberPassword(projectId, member.member_id, { password: PASSWORD });
  }
});
afterAll(async () => {
  await sdk?.close();
});

/** A refusal the SDK threw, or null when the call succeeded. */
const refusal = (call: Promise<unknown>) =>
  call.then(
    () => null,
    (error: unknown) => error,
  );

/** `options.authorization` with a new session token of the member. */
const as = async (member: Member) => {
  const { session_token } = await sdk.client.passwords.authenticate({
    organization_id: acme,
    email_address: member.email_address,
    password: PASSWORD,
    session_duration_minutes: 60,
  });
  return { authorization: { session_token } };
};

const FORBIDDEN = { status_code: 403, error_type: 'session_authorization_error' };

/** The organization's connection ids, as the secret key alone sees them. */
const connectionIds = async (organization_id = acme) => {
  const all = await sdk.client.sso.getConnections({ organization_id });
  return [...all.saml_connections, ...all.oidc_connections].map((c) => c.connection_id);
};

describe('SSO connections with a member’s session', () => {
  it('refuses a member every connection call, and creates or deletes nothing', async () => {
    const options = await as(ada);
    const { sso } = sdk.client;
    const existing = await sso.saml.createConnection({
      organization_id: acme,
      display_name: 'Okta',
    });
    const id = existing.connection?.connection_id ?? '';
    const calls = [
      sso.getConnections({ organization_id: acme }, options),
      sso.saml.createConnection({ organization_id: acme, display_name: 'Mine' }, options),
      sso.oidc.createConnection({ organization_id: acme, display_name: 'Mine' }, options),
      sso.saml.updateConnection(
        { organization_id: acme, connection_id: id, display_name: 'Renamed' },
        options,
      ),
      sso.deleteConnection({ organization_id: acme, connection_id: id }, options),
    ];
    for (const call of calls) expect(await refusal(call)).toMatchObject(FORBIDDEN);
    expect(await connectionIds()).toEqual([id]);
    const after = await sso.getConnections({ organization_id: acme });
    expect(after.saml_connections[0]?.display_name).toBe('Okta');
    await sso.deleteConnection({ organization_id: acme, connection_id: id });
  });

  it('lets a custom role do exactly what it grants', async () => {
    const options = await as(sam);
    const { sso } = sdk.client;
    const created = await sso.oidc.createConnection(
      { organization_id: acme, display_name: 'Entra' },
      options,
    );
    const id = created.connection?.connection_id ?? '';
    expect(await connectionIds()).toContain(id);
    const listed = await sso.getConnections({ organization_id: acme }, options);
    expect(listed.oidc_connections.map((c) => c.connection_id)).toContain(id);
    const update = sso.oidc.updateConnection(
      { organization_id: acme, connection_id: id, display_name: 'Renamed' },
      options,
    );
    expect(await refusal(update)).toMatchObject(FORBIDDEN);
    const remove = sso.deleteConnection({ organization_id: acme, connection_id: id }, options);
    expect(await refusal(remove)).toMatchObject(FORBIDDEN);
    expect(await connectionIds()).toContain(id);
    await sso.deleteConnection({ organization_id: acme, connection_id: id });
  });

  it('lets an admin create, change and delete connections of their organization', async () => {
    const options = await as(grace);
    const { sso } = sdk.client;
    const created = await sso.saml.createConnection(
      { organization_id: acme, display_name: 'Okta' },
      options,
    );
    const id = created.connection?.connection_id ?? '';
    const updated = await sso.saml.updateConnection(
      { organization_id: acme, connection_id: id, display_name: 'Okta (prod)' },
      options,
    );
    expect(updated.connection?.display_name).toBe('Okta (prod)');
    await sso.deleteConnection({ organization_id: acme, connection_id: id }, options);
    expect(await connectionIds()).toEqual([]);
  });

  it("sets the roles of everyone who signs in through a SAML connection, as a member's roles allow", async () => {
    const { sso } = sdk.client;
    const created = await sso.saml.createConnection({
      organization_id: acme,
      display_name: 'Okta',
    });
    const connection_id = created.connection?.connection_id ?? '';
    const roles = (...ids: string[]) => ids.map((role_id) => ({ role_id }));
    // The secret key alone: any role of the policy, answered on every SAML connection object.
    const byKey = await sso.saml.updateConnection({
      organization_id: acme,
      connection_id,
      saml_connection_implicit_role_assignments: roles('sso-editor'),
    });
    expect(byKey.connection?.saml_connection_implicit_role_assignments).toEqual(
      roles('sso-editor'),
    );
    const listed = (await sso.getConnections({ organization_id: acme })).saml_connections;
    expect(listed.find((c) => c.connection_id === connection_id)).toMatchObject({
      saml_connection_implicit_role_assignments: roles('sso-editor'),
    });
    expect(
      await refusal(
        sso.saml.updateConnection({
          organization_id: acme,
          connection_id,
          saml_connection_implicit_role_assignments: roles('superuser'),
        }),
      ),
    ).toMatchObject({ status_code: 400 });

    // An admin adds a role they hold, and may not take away one they do not hold.
    const admin = await as(grace);
    const added = await sso.saml.updateConnection(
      {
        organization_id: acme,
        connection_id,
        saml_connection_implicit_role_assignments: roles('sso-editor', 'admin'),
      },
      admin,
    );
    expect(added.connection?.saml_connection_implicit_role_assignments).toEqual(
      roles('sso-editor', 'admin'),
    );
    const change = (list: { role_id: string }[], options: { authorization: object }) =>
      sso.saml.updateConnection(
        { organization_id: acme, connection_id, saml_connection_implicit_role_assignments: list },
        options,
      );
    expect(await refusal(change(roles('admin'), admin))).toMatchObject({ status_code: 403 });
    // A member whose roles do not allow changing connections.
    expect(await refusal(change([], await as(sam)))).toMatchObject(FORBIDDEN);
    const kept = await sso.getConnections({ organization_id: acme });
    expect(kept.saml_connections[0]?.saml_connection_implicit_role_assignments).toEqual(
      roles('sso-editor', 'admin'),
    );
    await sso.deleteConnection({ organization_id: acme, connection_id });
  });

  it('refuses an admin another organization’s connections', async () => {
    const options = await as(grace);
    const { sso } = sdk.client;
    const theirs = await sso.saml.createConnection({
      organization_id: sibling.organization_id,
      display_name: 'Theirs',
    });
    const id = theirs.connection?.connection_id ?? '';
    const tenancy = { status_code: 403, error_type: 'session_authorization_tenancy_error' };
    const organization_id = sibling.organization_id;
    const calls = [
      sso.getConnections({ organization_id }, options),
      sso.saml.createConnection({ organization_id, display_name: 'Planted' }, options),
      sso.deleteConnection({ organization_id, connection_id: id }, options),
    ];
    for (const call of calls) expect(await refusal(call)).toMatchObject(tenancy);
    expect(await connectionIds(organization_id)).toEqual([id]);
  });

  it('leaves the secret key alone as it was: no session, no member check', async () => {
    const { sso } = sdk.client;
    const created = await sso.oidc.createConnection({
      organization_id: acme,
      display_name: 'Host',
    });
    const id = created.connection?.connection_id ?? '';
    await sso.deleteConnection({ organization_id: acme, connection_id: id });
    expect(await connectionIds()).toEqual([]);
  });
});
