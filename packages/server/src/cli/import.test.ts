// `gatehouse import` with Gatehouse itself as the source, over a real port: every id, field and
// role comes over; a second run adds nothing; an interrupted run continues; a source that answers
// 429 or 503 is retried; imported members sign in with their migrated password hashes.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { hash as bcryptHash } from '@node-rs/bcrypt';
import type { Member, Organization } from '@gatehouse/protocol';
import { ENDPOINTS } from '@gatehouse/protocol/endpoints';
import { selfSignedKeyPair } from '@gatehouse/testing/idp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../cli.js';
import type { CreatedProject } from '../tenancy/projects/service.js';
import { basic, expectOk, startHarness, type Harness } from '../test/harness.js';

const PASSWORD = 'Quartz-Lantern-Orbit-42';
const files = mkdtempSync(join(tmpdir(), 'gatehouse-import-'));

let source: Harness;
let target: Harness;
/** A second target database: ids are unique across a database's projects. */
let other: Harness;
/** A stand-in in front of the source that can refuse calls, as a flaky or failing source. */
let proxy: Server;
let proxyUrl = '';
let refuse: (path: string, body: string) => { status: number; retryAfter?: string } | null = () =>
  null;
const refused: string[] = [];

beforeAll(async () => {
  [source, target, other] = await Promise.all([
    startHarness({ listen: true }),
    startHarness(),
    startHarness(),
  ]);
  const p = source.project.project_id;
  const policy = await source.admin.rbacPolicy(p);
  await source.admin.setRbacPolicy(p, {
    resources: [
      ...policy.resources,
      { resource_id: 'reports', description: 'Reports', actions: ['read'] },
    ],
    roles: [
      // Every member may also rename the organization and search its members.
      ...policy.roles.map((r) =>
        r.role_id === 'member'
          ? {
              ...r,
              permissions: [
                ...r.permissions,
                { resource_id: 'stytch.organization', actions: ['update.info.name'] },
                { resource_id: 'stytch.member', actions: ['search'] },
              ],
            }
          : r,
      ),
      {
        role_id: 'analyst',
        description: 'Reads reports',
        permissions: [{ resource_id: 'reports', actions: ['read'] }],
      },
    ],
  });
  const acme = source.org.organization_id;
  await source.admin.createMember(p, acme, {
    email_address: 'bob@acme.test',
    name: 'Bob',
    roles: ['analyst'],
  });
  const cy = await source.admin.createMember(p, acme, {
    email_address: 'cy@acme.test',
    roles: ['admin'],
  });
  await source.admin.updateMember(p, cy.member_id, {
    mfa_phone_number: '+14155550123',
    mfa_phone_number_verified: true,
  });
  for (const n of [2, 3, 4, 5]) {
    const org = await source.admin.createOrganization(p, {
      organization_name: `Org ${n}`,
      organization_slug: `org-${n}`,
    });
    for (const who of ['dee', 'eve', 'fay']) {
      await source.admin.createMember(p, org.organization_id, {
        email_address: `${who}${n}@org${n}.test`,
      });
    }
    if (n === 2)
      await source.admin.createOidcConnection(p, org.organization_id, { display_name: 'Entra' });
  }
  await source.admin.createSamlConnection(p, acme, {
    display_name: 'Okta',
    idp_entity_id: 'https://idp.example/entity',
    idp_sso_url: 'https://idp.example/sso',
    x509_certificate: selfSignedKeyPair('idp.example').certificate,
    saml_group_implicit_role_assignments: [{ group: 'analysts', role_id: 'analyst' }],
    saml_connection_implicit_role_assignments: [{ role_id: 'analyst' }],
  });

  proxy = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      const refusal = refuse(req.url ?? '', body);
      if (refusal) {
        refused.push(`${refusal.status} ${req.url ?? ''}`);
        res.writeHead(refusal.status, { 'retry-after': refusal.retryAfter ?? '0' }).end('{}');
        return;
      }
      void fetch(`${source.url}${req.url ?? ''}`, {
        method: req.method,
        headers: {
          authorization: req.headers.authorization ?? '',
          'content-type': 'application/json',
        },
        body: req.method === 'GET' ? undefined : body,
      }).then(async (answer) => {
        res
          .writeHead(answer.status, { 'content-type': 'application/json' })
          .end(await answer.text());
      });
    });
  });
  proxy.listen(0, '127.0.0.1');
  await once(proxy, 'listening');
  proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
});

afterAll(async () => {
  proxy?.close();
  await Promise.all([source?.close(), target?.close(), other?.close()]);
});

/** `gatehouse …` on the database of `db` (the target's by default). */
async function cliOn(db: Harness, argv: string[]) {
  let stdout = '';
  let stderr = '';
  const code = await runCli(argv, {
    stdout: (t) => void (stdout += t),
    stderr: (t) => void (stderr += t),
    env: { DATABASE_URL: db.databaseUrl, GATEHOUSE_SERVER_KEY: db.serverKey },
  });
  return { code, stdout, stderr };
}
const cli = (...argv: string[]) => cliOn(target, argv);

/** `gatehouse import` from the source (through the proxy) into `into`, two per page. */
const importInto = (into: CreatedProject, more: string[] = [], db = target) =>
  cliOn(db, [
    'import',
    '--from',
    proxyUrl,
    '--project-id',
    source.project.project_id,
    '--secret',
    source.project.secret,
    '--into',
    into.project_id,
    '--page-size',
    '2',
    '--state',
    join(files, `${into.project_id}.json`),
    ...more,
  ]);

const newTarget = (name: string, db = target) => db.admin.createProject({ name });

async function organizationsOf(h: Harness, projectId: string): Promise<Organization[]> {
  return (await h.admin.searchOrganizations(projectId, {})).organizations;
}

async function membersOf(h: Harness, projectId: string, orgs: Organization[]): Promise<Member[]> {
  const found = await h.admin.searchMembers(projectId, {
    organization_ids: orgs.map((o) => o.organization_id),
  });
  return found.members;
}

const orgFields = (o: Organization) => ({
  organization_id: o.organization_id,
  organization_slug: o.organization_slug,
  organization_name: o.organization_name,
  email_jit_provisioning: o.email_jit_provisioning,
  email_allowed_domains: o.email_allowed_domains,
  mfa_policy: o.mfa_policy,
  auth_methods: o.auth_methods,
  sso_active_connections: o.sso_active_connections,
  sso_default_connection_id: o.sso_default_connection_id,
});

const memberFields = (m: Member) => ({
  member_id: m.member_id,
  organization_id: m.organization_id,
  email_address: m.email_address,
  name: m.name,
  status: m.status,
  roles: m.roles.map((r) => r.role_id).sort(),
  mfa_phone_number: m.mfa_phone_number,
  mfa_phone_number_verified: m.mfa_phone_number_verified,
});

/** Asserts the target project holds what the source does, with the same ids. */
async function expectSameAsSource(into: CreatedProject, db = target): Promise<void> {
  const p = source.project.project_id;
  const from = await organizationsOf(source, p);
  const to = await organizationsOf(db, into.project_id);
  expect(to.map(orgFields)).toEqual(from.map(orgFields));
  const byId = (a: Member, b: Member) => a.member_id.localeCompare(b.member_id);
  const fromMembers = (await membersOf(source, p, from)).sort(byId);
  expect((await membersOf(db, into.project_id, to)).sort(byId).map(memberFields)).toEqual(
    fromMembers.map(memberFields),
  );
  expect(await db.admin.rbacPolicy(into.project_id)).toEqual(await source.admin.rbacPolicy(p));
  const acme = source.org.organization_id;
  const [saml] = (await source.admin.listSsoConnections(p, acme)).saml_connections;
  const [copy] = (await db.admin.listSsoConnections(into.project_id, acme)).saml_connections;
  expect(copy).toMatchObject({
    connection_id: saml?.connection_id,
    status: 'active',
    display_name: 'Okta',
    idp_entity_id: saml?.idp_entity_id,
    idp_sso_url: saml?.idp_sso_url,
    saml_group_implicit_role_assignments: saml?.saml_group_implicit_role_assignments,
    saml_connection_implicit_role_assignments: [{ role_id: 'analyst' }],
  });
  expect(copy?.verification_certificates.map((c) => c.certificate)).toEqual(
    saml?.verification_certificates.map((c) => c.certificate),
  );
}

describe('gatehouse import', () => {
  let into: CreatedProject;
  beforeAll(async () => {
    into = await newTarget('Imported');
  });

  it('imports the policy, every organization with its members and connections, keeping ids', async () => {
    const run = await importInto(into);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('RBAC policy: updated (1 custom roles)\n');
    expect(run.stdout).not.toContain('Skipped');
    // What the source's member role adds to the built-in one comes over, beside it.
    const policy = await target.admin.rbacPolicy(into.project_id);
    expect(policy.roles.find((r) => r.role_id === 'member')?.permissions).toEqual([
      { resource_id: 'stytch.self', actions: ['*'] },
      { resource_id: 'stytch.organization', actions: ['update.info.name'] },
      { resource_id: 'stytch.member', actions: ['search'] },
    ]);
    expect(run.stdout).toMatch(
      /^organization acme \(organization-test-[-0-9a-f]+\): created; members 3 new, 0 updated, 0 unchanged, 0 skipped; SSO connections 1 new, /m,
    );
    expect(run.stdout.match(/^organization org-\d .*: created; members 3 new/gm)).toHaveLength(4);
    expect(run.stdout).toContain('  organizations: 5 new, 0 updated, 0 unchanged, 0 skipped\n');
    expect(run.stdout).toContain('  members: 15 new, 0 updated, 0 unchanged, 0 skipped\n');
    expect(run.stdout).toContain('  SSO connections: 2 new, 0 updated, 0 unchanged, 0 skipped\n');
    expect(run.stdout).toMatch(
      /oidc-connection-test-\S+: set its client secret with gatehouse sso update/,
    );
    expect(run.stdout).not.toContain(source.project.secret);
    await expectSameAsSource(into);
  });

  it('adds nothing when run again', async () => {
    const count = async () =>
      (
        await target.db
          .selectFrom('members')
          .select('id')
          .where('project_id', '=', into.project_id)
          .execute()
      ).length;
    const before = await count();
    const run = await importInto(into);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('RBAC policy: unchanged');
    // The project keeps, for its member role, only what it adds to the built-in one, once.
    const stored = await target.db
      .selectFrom('rbac_policies')
      .select('roles')
      .where('project_id', '=', into.project_id)
      .executeTakeFirstOrThrow();
    const roles = JSON.parse(stored.roles) as { role_id: string; permissions: unknown[] }[];
    expect(roles.find((r) => r.role_id === 'member')?.permissions).toEqual([
      { resource_id: 'stytch.organization', actions: ['update.info.name'] },
      { resource_id: 'stytch.member', actions: ['search'] },
    ]);
    expect(run.stdout).toContain('  organizations: 0 new, 0 updated, 5 unchanged, 0 skipped\n');
    expect(run.stdout).toContain('  members: 0 new, 0 updated, 15 unchanged, 0 skipped\n');
    expect(run.stdout).toContain('  SSO connections: 0 new, 0 updated, 2 unchanged, 0 skipped\n');
    expect(await count()).toBe(before);
    await expectSameAsSource(into);
  });

  it('continues after an interruption, and retries a source that asks it to wait', async () => {
    const resumed = await newTarget('Resumed', other);
    const order = await organizationsOf(source, source.project.project_id);
    const third = order[2]?.organization_id ?? '';
    // The source fails on the third organization's members, every time, until it recovers.
    refuse = (path, body) =>
      path.endsWith('/members/search') && body.includes(third) ? { status: 503 } : null;
    const broken = await importInto(resumed, ['--concurrency', '1'], other);
    expect(broken.code).toBe(1);
    expect(broken.stderr).toContain('The import stopped; what is done is kept');
    expect(broken.stderr).toMatch(/503 after 5 attempts/);
    expect(broken.stdout.match(/^organization .*: created/gm)).toHaveLength(2);
    expect(
      (await organizationsOf(other, resumed.project_id)).map((o) => o.organization_id),
    ).toEqual(order.slice(0, 2).map((o) => o.organization_id));

    // Recovered, but it asks the first call to wait once.
    let first = true;
    refuse = () => (first ? ((first = false), { status: 429, retryAfter: '0' }) : null);
    refused.length = 0;
    const rerun = await importInto(resumed, [], other);
    expect(refused).toEqual(['429 /v1/b2b/organizations/search']);
    expect(rerun.stderr).toBe('');
    expect(rerun.code).toBe(0);
    expect(rerun.stdout).toContain('Continuing an interrupted import: 2 organizations done');
    expect(rerun.stdout).toContain(
      '  organizations: 3 new, 0 updated, 0 unchanged, 0 skipped, 2 done by an earlier run\n',
    );
    await expectSameAsSource(resumed, other);
    refuse = () => null;
  });

  it('gives members their passwords from the hashes file, and keeps a password they have', async () => {
    const acme = source.org.organization_id;
    const bcrypt = await bcryptHash(PASSWORD, { cost: 4 });
    const hashes = join(files, 'hashes.jsonl');
    writeFileSync(
      hashes,
      [
        JSON.stringify({
          email: 'bob@acme.test',
          organization_id: acme,
          hash: bcrypt,
          hash_type: 'bcrypt',
        }),
        JSON.stringify({
          email: 'dee2@org2.test',
          organization: 'org-2',
          hash: bcrypt,
          hash_type: 'bcrypt',
        }),
        JSON.stringify({
          email: 'eve2@org2.test',
          organization: 'org-2',
          hash: 'nope',
          hash_type: 'md4',
        }),
      ].join('\n'),
    );
    const run = await importInto(into, ['--password-hashes', hashes]);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('  password hashes: 2 new, 0 updated, 0 unchanged, 1 skipped\n');
    expect(run.stdout).toMatch(/hashes line 3: hash_type: /);
    const org2 =
      (await target.admin.getOrganizationBySlug(into.project_id, 'org-2'))?.organization_id ?? '';
    for (const [email, organization_id] of [
      ['bob@acme.test', acme],
      ['dee2@org2.test', org2],
    ] as const) {
      const signedIn = expectOk(
        await target.call(ENDPOINTS.backendPasswordsAuthenticate, {
          body: {
            organization_id,
            email_address: email,
            password: PASSWORD,
            session_duration_minutes: 60,
          },
          authorization: basic(into.project_id, into.secret),
        }),
      );
      expect(signedIn.member.email_address).toBe(email);
    }

    const again = await importInto(into, ['--password-hashes', hashes]);
    expect(again.stdout).toContain('  password hashes: 0 new, 0 updated, 0 unchanged, 3 skipped\n');
    expect(again.stdout).toContain('(bob@acme.test): the member already has a password here');
  });

  it('refuses plain http to a host that is not loopback, and a missing secret, before reading', async () => {
    const http = await cli(
      'import',
      '--from',
      'http://api.example.com',
      '--project-id',
      'p',
      '--secret',
      's',
      '--into',
      'x',
    );
    expect(http.code).toBe(2);
    expect(http.stderr).toContain('--from must be an https URL (http only on a loopback host)');
    const secretless = await cli(
      'import',
      '--from',
      'https://api.example.com',
      '--project-id',
      'p',
      '--into',
      'x',
    );
    expect(secretless.code).toBe(2);
    expect(secretless.stderr).toContain('--secret (or GATEHOUSE_IMPORT_SECRET) is required');
  });
});
