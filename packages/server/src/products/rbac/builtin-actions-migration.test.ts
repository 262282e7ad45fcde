// Stored policies written with the built-in resources' coarse actions of earlier releases keep
// allowing what they allowed once migrated to the provider's fine-grained actions, and every
// existing project's members keep searching the organization.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore } from '../../store/db.js';
import { MIGRATIONS } from '../../store/migrations/index.js';
import { migrateTo, migrateToLatest } from '../../store/migrations.js';
import { testDatabase } from '../../test/database.js';
import { ProjectService } from '../../tenancy/projects/service.js';
import { effectivePolicy, isAllowed, policyProblem } from '../../tenancy/rbac/policy.js';
import { customPolicyOf } from '../../tenancy/rbac/store.js';

const NAME = '0027_fine_grained_builtin_actions';
const names = Object.keys(MIGRATIONS);
const BEFORE = names[names.indexOf(NAME) - 1] ?? '';

const dir = mkdtempSync(join(tmpdir(), 'gatehouse-actions-'));
let database: Awaited<ReturnType<typeof testDatabase>>;
let store: ReturnType<typeof openStore>;
const ids = { custom: '', plain: '' };

const OLD_ROLES = [
  {
    role_id: 'editor',
    description: 'Edits members',
    permissions: [
      { resource_id: 'stytch.member', actions: ['update', 'search'] },
      { resource_id: 'stytch.organization', actions: ['update'] },
      { resource_id: 'stytch.self', actions: ['update', 'delete'] },
      { resource_id: 'invoices', actions: ['update'] },
    ],
  },
  {
    role_id: 'admin',
    description: '',
    permissions: [{ resource_id: 'invoices', actions: ['*'] }],
  },
  {
    role_id: 'owner',
    description: '',
    permissions: [{ resource_id: 'stytch.organization', actions: ['*'] }],
  },
];

beforeAll(async () => {
  database = await testDatabase(dir);
  store = openStore(database.url);
  await migrateTo(store.db, BEFORE, await store.migrationSchema());
  const projects = new ProjectService(store.db, () => Date.now());
  const redirectUrls = {
    login: ['http://localhost:3000/in'],
    signup: ['http://localhost:3000/in'],
  };
  ids.custom = (await projects.create({ name: 'Custom roles', redirectUrls })).project_id;
  ids.plain = (await projects.create({ name: 'No policy', redirectUrls })).project_id;
  await store.db
    .insertInto('rbac_policies')
    .values({
      project_id: ids.custom,
      roles: JSON.stringify(OLD_ROLES),
      resources: JSON.stringify([
        { resource_id: 'invoices', description: '', actions: ['update', 'read'] },
      ]),
      updated_at: new Date().toISOString(),
    })
    .execute();
  expect(await migrateToLatest(store.db, await store.migrationSchema())).toContain(NAME);
});

afterAll(async () => {
  await store.close();
  await database.drop();
  rmSync(dir, { recursive: true, force: true });
});

describe('migrating stored policies to the fine-grained built-in actions', () => {
  it('replaces each coarse action by the fine actions it covered, and the result is valid', async () => {
    const custom = await customPolicyOf(store.db, ids.custom);
    expect(policyProblem(custom)).toBeNull();
    const editor = custom.roles.find((r) => r.role_id === 'editor');
    const actionsOf = (resource: string) =>
      editor?.permissions.find((p) => p.resource_id === resource)?.actions ?? [];
    expect(actionsOf('stytch.member')).toEqual(
      expect.arrayContaining(['search', 'update.info.name', 'update.settings.roles']),
    );
    expect(actionsOf('stytch.member')).not.toContain('update');
    expect(actionsOf('stytch.organization')).toContain('update.settings.mfa-policy');
    // `update` never covered the e-mail role rules: they had an action of their own.
    expect(actionsOf('stytch.organization')).not.toContain('update.settings.implicit-roles');
    expect(actionsOf('stytch.self')).toEqual(
      expect.arrayContaining(['delete', 'update.info.name']),
    );
    // A custom resource's actions are the project's own and keep their names.
    expect(actionsOf('invoices')).toEqual(['update']);
    expect(custom.roles.find((r) => r.role_id === 'owner')?.permissions).toEqual([
      { resource_id: 'stytch.organization', actions: ['*'] },
    ]);
  });

  it('lets a migrated role do what the coarse action allowed, and no more', async () => {
    const policy = effectivePolicy(await customPolicyOf(store.db, ids.custom));
    expect(isAllowed(policy, ['editor'], 'stytch.member', 'update.info.email')).toBe(true);
    expect(isAllowed(policy, ['editor'], 'stytch.organization', 'update.info.slug')).toBe(true);
    expect(isAllowed(policy, ['editor'], 'stytch.member', 'delete')).toBe(false);
    expect(
      isAllowed(policy, ['editor'], 'stytch.organization', 'update.settings.implicit-roles'),
    ).toBe(false);
  });

  it("keeps every existing project's members searching, with a stored policy or without", async () => {
    for (const projectId of [ids.custom, ids.plain]) {
      const policy = effectivePolicy(await customPolicyOf(store.db, projectId));
      expect(isAllowed(policy, ['member'], 'stytch.member', 'search')).toBe(true);
      expect(isAllowed(policy, ['member'], 'stytch.member', 'update.info.name')).toBe(false);
      expect(isAllowed(policy, ['member'], 'stytch.self', 'update.info.name')).toBe(true);
    }
  });
});
