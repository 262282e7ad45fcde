// Two admins changing one SSO connection from screens loaded at the same time: a change that
// names the `updated_at` its screen loaded is made only while the stored one is the same, so the
// later of two never silently undoes the earlier (409 stale_update, nothing changed); without it,
// changes apply as before.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OidcConnection, SamlConnection } from '@gatehouse/protocol';
import { ENDPOINTS } from '@gatehouse/protocol/endpoints';
import { startOidcIdp, type OidcIdp } from '@gatehouse/testing/idp';
import { expectError, expectOk, startHarness, type Harness } from '../../test/harness.js';

let h: Harness;
let oidc: OidcIdp;
let boss: string;
let grace: string;

beforeAll(async () => {
  [h, oidc] = await Promise.all([startHarness({ listen: true }), startOidcIdp()]);
  for (const email of ['boss@acme.test', 'grace@acme.test']) {
    await h.admin.createMember(h.project.project_id, h.org.organization_id, {
      email_address: email,
      roles: ['admin'],
    });
  }
  boss = (await h.login('boss@acme.test')).session_token;
  grace = (await h.login('grace@acme.test')).session_token;
});

afterAll(async () => {
  await Promise.all([h?.close(), oidc?.close()]);
});

async function newSaml(): Promise<SamlConnection> {
  const body = { display_name: `Stale ${Math.random()}` };
  return expectOk(await h.call(ENDPOINTS.sdkSsoCreateSaml, { token: boss, body })).connection;
}

const updateSaml = (token: string, connection: SamlConnection, body: object) =>
  h.call(ENDPOINTS.sdkSsoUpdateSaml, {
    token,
    params: { connection_id: connection.connection_id },
    body,
  });

const storedSaml = async (id: string) =>
  expectOk(await h.call(ENDPOINTS.sdkSsoList, { token: boss })).saml_connections.find(
    (c) => c.connection_id === id,
  )!;

describe('a SAML connection changed from a loaded screen', () => {
  it('refuses the later of two changes loaded from the same screen, and keeps the earlier', async () => {
    const loaded = await newSaml();
    const first = expectOk(
      await updateSaml(boss, loaded, {
        updated_at: loaded.updated_at,
        saml_group_implicit_role_assignments: [{ group: 'engineers', role_id: 'admin' }],
      }),
    ).connection;
    expect(first.updated_at > loaded.updated_at).toBe(true);
    const refused = await updateSaml(grace, loaded, {
      updated_at: loaded.updated_at,
      attribute_mapping: { email: 'mail' },
      saml_group_implicit_role_assignments: [],
    });
    expect(refused.status).toBe(409);
    const stale = expectError(refused);
    expect(stale.error_type).toBe('stale_update');
    expect(stale.error_message).toMatch(/connection was changed by someone else/);
    const stored = await storedSaml(loaded.connection_id);
    expect(stored.saml_group_implicit_role_assignments).toEqual([
      { group: 'engineers', role_id: 'admin' },
    ]);
    expect(stored.attribute_mapping.email).not.toBe('mail');
    // Loaded again, the change goes through.
    expectOk(
      await updateSaml(grace, loaded, {
        updated_at: stored.updated_at,
        attribute_mapping: { email: 'mail' },
      }),
    );
    expect((await storedSaml(loaded.connection_id)).attribute_mapping.email).toBe('mail');
  });

  it('lets exactly one of two concurrent changes from the same screen through', async () => {
    const loaded = await newSaml();
    const answers = await Promise.all(
      [boss, grace].map((token, i) =>
        updateSaml(token, loaded, {
          updated_at: loaded.updated_at,
          saml_group_implicit_role_assignments: [{ group: `group-${i}`, role_id: 'admin' }],
        }),
      ),
    );
    const statuses = answers.map((a) => a.status).sort();
    expect(statuses).toEqual([200, 409]);
    const winner = answers.findIndex((a) => a.status === 200);
    expect((await storedSaml(loaded.connection_id)).saml_group_implicit_role_assignments).toEqual([
      { group: `group-${winner}`, role_id: 'admin' },
    ]);
  });

  it('applies changes without a precondition as before, each on top of the last', async () => {
    const loaded = await newSaml();
    expectOk(await updateSaml(boss, loaded, { display_name: 'Renamed' }));
    expectOk(await updateSaml(grace, loaded, { attribute_mapping: { email: 'mail' } }));
    const stored = await storedSaml(loaded.connection_id);
    expect(stored.display_name).toBe('Renamed');
    expect(stored.attribute_mapping.email).toBe('mail');
  });

  it("answers another organization's connection as unknown, stale or not", async () => {
    const other = await h.admin.createOrganization(h.project.project_id, {
      organization_name: 'Other',
      organization_slug: `other-${Date.now()}`,
    });
    const theirs = await h.admin.createSamlConnection(h.project.project_id, other.organization_id, {
      display_name: 'Theirs',
    });
    const res = await updateSaml(boss, theirs, { updated_at: 'not-it', display_name: 'Mine' });
    expect(res.status).toBe(404);
  });
});

describe('an OIDC connection changed from a loaded screen', () => {
  it('refuses a change loaded before another admin saved, and keeps that one', async () => {
    const loaded: OidcConnection = expectOk(
      await h.call(ENDPOINTS.sdkSsoCreateOidc, {
        token: boss,
        body: {
          display_name: 'Stale OIDC',
          issuer: oidc.issuer,
          client_id: 'client',
          client_secret: 'secret',
        },
      }),
    ).connection;
    const update = (token: string, body: object) =>
      h.call(ENDPOINTS.sdkSsoUpdateOidc, {
        token,
        params: { connection_id: loaded.connection_id },
        body,
      });
    expectOk(await update(boss, { updated_at: loaded.updated_at, custom_scopes: 'openid email' }));
    const refused = await update(grace, {
      updated_at: loaded.updated_at,
      custom_scopes: 'openid groups',
    });
    expect(refused.status).toBe(409);
    const stale = expectError(refused);
    expect(stale.error_type).toBe('stale_update');
    const listed = expectOk(await h.call(ENDPOINTS.sdkSsoList, { token: boss }));
    const stored = listed.oidc_connections.find((c) => c.connection_id === loaded.connection_id)!;
    expect(stored.custom_scopes).toBe('openid email');
  });
});

describe('concurrent changes of one OIDC connection without a precondition', () => {
  it('keeps every one of concurrent changes of different fields, one of them rediscovering', async () => {
    const created: OidcConnection = expectOk(
      await h.call(ENDPOINTS.sdkSsoCreateOidc, {
        token: boss,
        body: {
          display_name: 'Concurrent OIDC',
          issuer: oidc.issuer,
          client_id: 'client',
          client_secret: 'secret',
        },
      }),
    ).connection;
    const update = (token: string, body: object) =>
      h.call(ENDPOINTS.sdkSsoUpdateOidc, {
        token,
        params: { connection_id: created.connection_id },
        body,
      });
    // The client id's change waits on the provider's discovery while the others save.
    const answers = await Promise.all([
      update(boss, { client_id: 'client-2' }),
      update(grace, { custom_scopes: 'openid groups' }),
      update(boss, { attribute_mapping: { email: 'mail' } }),
    ]);
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200]);
    const listed = expectOk(await h.call(ENDPOINTS.sdkSsoList, { token: boss }));
    const stored = listed.oidc_connections.find((c) => c.connection_id === created.connection_id)!;
    expect(stored.client_id).toBe('client-2');
    expect(stored.custom_scopes).toBe('openid groups');
    expect(stored.attribute_mapping.email).toBe('mail');
    expect(stored.issuer).toBe(created.issuer);
    expect(stored.token_url).toBe(created.token_url);
    expect(stored.status).toBe('active');
  });
});
