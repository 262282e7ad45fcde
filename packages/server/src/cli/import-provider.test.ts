// `gatehouse import` against a stand-in for the provider's backend API (its answers as the
// provider shapes them): cursor pages, HTTP Basic credentials, ids that cannot be kept, deleted
// members, an address two member ids claim, connection kinds Gatehouse lacks, and calls the
// source does not offer — each skipped or reported with its reason, the rest imported.
import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { mkdtempSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RbacPolicy } from '@gatehouse/protocol';
import { member, organization } from '@gatehouse/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../cli.js';
import { startHarness, type Harness } from '../test/harness.js';

const SECRET = 'secret-test-provider-stand-in-credential';
const files = mkdtempSync(join(tmpdir(), 'gatehouse-import-provider-'));
const id = (kind: string, env = 'test') => `${kind}-${env}-${randomUUID()}`;

const good = organization({
  organization_id: id('organization'),
  organization_slug: 'good',
  organization_name: 'Good',
  email_allowed_domains: ['good.test'],
});
const second = organization({
  organization_id: id('organization'),
  organization_slug: 'second',
  organization_name: 'Second',
  email_allowed_domains: [],
  email_jit_provisioning: 'NOT_ALLOWED',
});
const malformed = organization({ organization_id: 'org_12345', organization_slug: 'bad' });
const ada = member({
  organization_id: good.organization_id,
  member_id: id('member'),
  email_address: 'ada@good.test',
  roles: [
    { role_id: 'member', sources: [{ type: 'direct_assignment', details: {} }] },
    { role_id: 'auditor', sources: [{ type: 'direct_assignment', details: {} }] },
    { role_id: 'stytch_admin', sources: [{ type: 'direct_assignment', details: {} }] },
  ],
});
/** An OIDC connection as the provider answers it: its scopes URL-encoded, a free-form mapping. */
const okta = {
  organization_id: good.organization_id,
  connection_id: id('oidc-connection'),
  status: 'pending',
  display_name: 'Okta',
  identity_provider: 'okta',
  redirect_url: 'https://provider.test/v1/sso/callback',
  issuer: '',
  client_id: '',
  client_secret: '',
  authorization_url: '',
  token_url: '',
  userinfo_url: '',
  jwks_url: '',
  custom_scopes: 'openid%20email%20profile%20groups',
  attribute_mapping: { groups: 'roles', first_name: 'givenName', department: 'dept', email: 7 },
  oidc_group_implicit_role_assignments: [{ group: 'auditors', role_id: 'auditor' }],
};
/** A pending SAML connection whose members all get the provider's admin role. */
const entra = {
  organization_id: good.organization_id,
  connection_id: id('saml-connection'),
  status: 'pending',
  display_name: 'Entra',
  identity_provider: 'microsoft-entra',
  audience_uri: 'https://provider.test/v1/sso/saml',
  acs_url: 'https://provider.test/v1/sso/saml/acs',
  idp_entity_id: '',
  idp_sso_url: '',
  verification_certificates: [],
  attribute_mapping: {
    email: 'email',
    first_name: 'firstName',
    last_name: 'lastName',
    groups: 'groups',
  },
  saml_group_implicit_role_assignments: [{ group: 'auditors', role_id: 'auditor' }],
  saml_connection_implicit_role_assignments: [{ role_id: 'stytch_admin' }],
  allow_idp_initiated: false,
};
const members = [
  ada,
  // The same address under another id: the provider's data is not what Gatehouse can hold.
  member({ ...ada, member_id: id('member'), name: 'Ada again' }),
  member({
    organization_id: good.organization_id,
    member_id: id('member', 'live'),
    email_address: 'live@good.test',
  }),
  member({
    organization_id: good.organization_id,
    member_id: id('member'),
    email_address: 'gone@good.test',
    status: 'deleted',
  }),
];

let target: Harness;
let provider: Server;
let providerUrl = '';
const offered = { rbac: true, sso: true };
const seen: { path: string; authorization: string; body: Record<string, unknown> }[] = [];

const send = (res: import('node:http').ServerResponse, status: number, body: object) =>
  res
    .writeHead(status, { 'content-type': 'application/json' })
    .end(JSON.stringify({ request_id: 'request-id-test-1', status_code: status, ...body }));

beforeAll(async () => {
  target = await startHarness();
  provider = createServer((req, res) => {
    let text = '';
    req.on('data', (chunk: Buffer) => (text += chunk.toString()));
    req.on('end', () => {
      const path = req.url ?? '';
      const body = (text ? JSON.parse(text) : {}) as Record<string, unknown>;
      seen.push({ path, authorization: req.headers.authorization ?? '', body });
      const notFound = () =>
        send(res, 404, { error_type: 'endpoint_not_found', error_message: 'No such endpoint.' });
      if (path === '/v1/b2b/organizations/search') {
        const first = !body.cursor;
        send(res, 200, {
          organizations: first ? [good, malformed] : [second],
          results_metadata: { total: 3, next_cursor: first ? 'page-2' : null },
        });
      } else if (path === '/v1/b2b/organizations/members/search') {
        const orgs = body.organization_ids as string[];
        send(res, 200, {
          members: members.filter((m) => orgs.includes(m.organization_id)),
          results_metadata: { total: 4, next_cursor: null },
          organizations: {},
        });
      } else if (path.startsWith('/v1/b2b/sso/') && offered.sso) {
        send(res, 200, {
          saml_connections: path.endsWith(good.organization_id) ? [entra] : [],
          oidc_connections: path.endsWith(good.organization_id) ? [okta] : [],
          external_connections: path.endsWith(good.organization_id)
            ? [
                {
                  connection_id: 'external-connection-test-1',
                  organization_id: good.organization_id,
                },
              ]
            : [],
        });
      } else if (path === '/v1/b2b/rbac/policy' && offered.rbac) {
        send(res, 200, {
          policy: {
            // The provider's built-in roles and resources, as it lists them beside the project's.
            roles: [
              // Given more on built-in resources than its default, and an action Gatehouse lacks.
              {
                role_id: 'stytch_member',
                description: 'Every member',
                permissions: [
                  { resource_id: 'stytch.self', actions: ['*'] },
                  {
                    resource_id: 'stytch.organization',
                    actions: ['update.info.name', 'update.info.motto'],
                  },
                ],
              },
              // The provider's default for its admin, SCIM included, and a project resource.
              {
                role_id: 'stytch_admin',
                description: 'Administrators',
                permissions: [
                  { resource_id: 'stytch.organization', actions: ['*'] },
                  { resource_id: 'stytch.member', actions: ['*'] },
                  { resource_id: 'stytch.sso', actions: ['*'] },
                  { resource_id: 'stytch.scim', actions: ['*'] },
                  { resource_id: 'stytch.self', actions: ['*'] },
                  { resource_id: 'ledger', actions: ['read'] },
                ],
              },
              {
                role_id: 'auditor',
                description: 'Audits',
                permissions: [
                  { resource_id: 'ledger', actions: ['read'] },
                  { resource_id: 'stytch.member', actions: ['search'] },
                  { resource_id: 'stytch.scim', actions: ['get'] },
                ],
              },
            ],
            resources: [
              { resource_id: 'stytch.self', description: '', actions: ['*'] },
              { resource_id: 'stytch.scim', description: '', actions: ['*'] },
              { resource_id: 'ledger', description: 'The ledger', actions: ['read'] },
            ],
            scopes: [],
          },
        });
      } else {
        notFound();
      }
    });
  });
  provider.listen(0, '127.0.0.1');
  await once(provider, 'listening');
  providerUrl = `http://127.0.0.1:${(provider.address() as AddressInfo).port}`;
});

afterAll(async () => {
  provider?.close();
  await target?.close();
});

async function importFromProvider(into: string) {
  let stdout = '';
  let stderr = '';
  const code = await runCli(
    [
      'import',
      '--from',
      providerUrl,
      '--project-id',
      'project-test-provider',
      '--into',
      into,
      '--state',
      join(files, `${into}.json`),
    ],
    {
      stdout: (t) => void (stdout += t),
      stderr: (t) => void (stderr += t),
      env: {
        DATABASE_URL: target.databaseUrl,
        GATEHOUSE_SERVER_KEY: target.serverKey,
        GATEHOUSE_IMPORT_SECRET: SECRET,
      },
    },
  );
  return { code, stdout, stderr };
}

/**
 * The stand-in's policy as Gatehouse holds it: each built-in role with its built-in permissions
 * and, once, what the source adds to them; nothing on the provider's SCIM or unknown actions.
 */
function expectPolicyAsImported(policy: RbacPolicy) {
  const permissions = (roleId: string) =>
    policy.roles.find((r) => r.role_id === roleId)?.permissions;
  expect(permissions('member')).toEqual([
    { resource_id: 'stytch.self', actions: ['*'] },
    { resource_id: 'stytch.organization', actions: ['update.info.name'] },
  ]);
  expect(permissions('admin')).toEqual([
    { resource_id: 'stytch.organization', actions: ['*'] },
    { resource_id: 'stytch.member', actions: ['*'] },
    { resource_id: 'stytch.sso', actions: ['*'] },
    { resource_id: 'stytch.self', actions: ['*'] },
    { resource_id: 'ledger', actions: ['read'] },
  ]);
  expect(permissions('auditor')).toEqual([
    { resource_id: 'ledger', actions: ['read'] },
    { resource_id: 'stytch.member', actions: ['search'] },
  ]);
  expect(policy.resources.map((r) => r.resource_id)).not.toContain('stytch.scim');
}

describe('gatehouse import from the provider', () => {
  it('follows cursors with Basic credentials and skips what cannot be kept, saying why', async () => {
    const into = (await target.admin.createProject({ name: 'From the provider' })).project_id;
    const run = await importFromProvider(into);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const basic = `Basic ${Buffer.from(`project-test-provider:${SECRET}`).toString('base64')}`;
    expect(new Set(seen.map((s) => s.authorization))).toEqual(new Set([basic]));
    expect(
      seen.filter((s) => s.path === '/v1/b2b/organizations/search').map((s) => s.body.cursor),
    ).toEqual([undefined, 'page-2']);
    expect(run.stdout + run.stderr).not.toContain(SECRET);

    expect(run.stdout).toContain('  organizations: 2 new, 0 updated, 0 unchanged, 1 skipped\n');
    expect(run.stdout).toContain('  members: 1 new, 0 updated, 0 unchanged, 3 skipped\n');
    expect(run.stdout).toContain('  SSO connections: 2 new, 0 updated, 0 unchanged, 1 skipped\n');
    expect(run.stdout).toContain(
      'organization bad (org_12345): "org_12345" is not of the form organization-{test|live}-{uuid}',
    );
    expect(run.stdout).toContain(`ada@good.test already belongs to member ${ada.member_id}`);
    expect(run.stdout).toMatch(
      /member member-live-\S+ \(live@good\.test\): member-live-\S+ is a live id; the project is test/,
    );
    expect(run.stdout).toContain('(gone@good.test): deleted in the source');
    expect(run.stdout).toContain(
      'connection external-connection-test-1: external connections are not supported',
    );

    const imported = await target.admin.getMemberByEmail(
      into,
      good.organization_id,
      'ada@good.test',
    );
    expect(imported?.member_id).toBe(ada.member_id);
    // The provider's stytch_admin is admin here, with its permission on the project's resource.
    expect(imported?.roles.map((r) => r.role_id).sort()).toEqual(['admin', 'auditor', 'member']);
    const policy = await target.admin.rbacPolicy(into);
    expect(policy.roles.map((r) => r.role_id)).toEqual(['member', 'admin', 'auditor']);
    expect(policy.roles.find((r) => r.role_id === 'admin')?.permissions).toContainEqual({
      resource_id: 'ledger',
      actions: ['read'],
    });
    expectPolicyAsImported(policy);
    // Permissions on what Gatehouse lacks are left out, each named; the rest of the policy came.
    expect(run.stdout).toContain(
      'RBAC policy: updated (1 custom roles; 3 permissions left out, see the summary)\n',
    );
    expect(run.stdout).toContain('  RBAC policy: 0 new, 1 updated, 0 unchanged, 0 skipped\n');
    expect(run.stdout).toContain(
      "  role stytch_member: stytch.organization update.info.motto — Gatehouse's stytch.organization has no such action\n",
    );
    expect(run.stdout).toContain('  role stytch_admin: stytch.scim * — Gatehouse has no SCIM\n');
    expect(run.stdout).toContain('  role auditor: stytch.scim get — Gatehouse has no SCIM\n');
    expect((await target.admin.getOrganizationBySlug(into, 'second'))?.organization_id).toBe(
      second.organization_id,
    );
    // The OIDC connection keeps its scopes and the claims of the fields Gatehouse reads.
    expect(
      await target.admin.getSsoConnection(into, good.organization_id, okta.connection_id),
    ).toMatchObject({
      custom_scopes: 'openid email profile groups',
      attribute_mapping: {
        email: 'email',
        first_name: 'givenName',
        last_name: 'family_name',
        groups: 'roles',
      },
      oidc_group_implicit_role_assignments: [{ group: 'auditors', role_id: 'auditor' }],
    });
    // The SAML connection keeps the roles of everyone who signs in through it, by ids of here.
    expect(
      await target.admin.getSsoConnection(into, good.organization_id, entra.connection_id),
    ).toMatchObject({
      saml_group_implicit_role_assignments: [{ group: 'auditors', role_id: 'auditor' }],
      saml_connection_implicit_role_assignments: [{ role_id: 'admin' }],
    });
    // Imported again, they are unchanged.
    const again = await importFromProvider(into);
    expect(again.stdout).toContain('  SSO connections: 0 new, 0 updated, 2 unchanged, 1 skipped\n');
    expect(again.stdout).toContain('  RBAC policy: 0 new, 0 updated, 1 unchanged, 0 skipped\n');
    expect(again.stdout).toContain('  role stytch_admin: stytch.scim * — Gatehouse has no SCIM\n');
    expectPolicyAsImported(await target.admin.rbacPolicy(into));
  });

  it('skips the parts the source does not offer, and says so', async () => {
    offered.rbac = false;
    offered.sso = false;
    const into = (await target.admin.createProject({ name: 'Partial provider' })).project_id;
    // Its own ids: the first test's organizations belong to another project of this database.
    const run = await importFromProvider(into);
    offered.rbac = true;
    offered.sso = true;
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('  RBAC policy: not offered by the source\n');
    expect(run.stdout).toContain('  SSO connections: not offered by the source\n');
    expect(run.stdout).toContain('  organizations: 0 new, 0 updated, 0 unchanged, 3 skipped\n');
    expect(run.stdout).toMatch(/belongs to another project/);
  });
});
