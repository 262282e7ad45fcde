// The built-in resources' actions became the provider's fine-grained ones (`update.info.name`,
// `update.settings.mfa-policy`, …) and the built-in `member` role the provider's `stytch_member`
// (every action on oneself, no longer `stytch.member` `search`). Stored policies are rewritten so
// that they keep allowing what they allowed: each coarse `update` becomes the fine actions it
// covered, and every existing project's `member` role keeps `stytch.member` `search`. The lists
// are written out here, as they stood, so that later changes of the policy never change this.
import type { Kysely } from 'kysely';

interface Permission {
  resource_id: string;
  actions: string[];
}

interface Role {
  role_id: string;
  description: string;
  permissions: Permission[];
}

interface Tables {
  projects: { id: string };
  rbac_policies: { project_id: string; roles: string; resources: string; updated_at: string };
}

/** What each coarse action covered, by built-in resource; other actions kept their names. */
const COVERED: Readonly<Record<string, Readonly<Record<string, readonly string[]>>>> = {
  'stytch.organization': {
    update: [
      'update.info.name',
      'update.info.slug',
      'update.info.logo-url',
      'update.settings.allowed-auth-methods',
      'update.settings.allowed-mfa-methods',
      'update.settings.mfa-policy',
      'update.settings.email-jit-provisioning',
      'update.settings.email-invites',
      'update.settings.allowed-domains',
      'update.settings.sso-jit-provisioning',
      'update.settings.default-sso-connection',
      'update.settings.oauth-tenant-jit-provisioning',
      'update.settings.allowed-oauth-tenants',
    ],
  },
  'stytch.member': {
    update: [
      'update.info.name',
      'update.info.email',
      'update.info.untrusted-metadata',
      'update.info.mfa-phone',
      'update.info.delete.mfa-phone',
      'update.info.delete.password',
      'update.info.delete.mfa-totp',
      'update.info.unlink.retired-email',
      'update.settings.mfa-enrolled',
      'update.settings.default-mfa-method',
      'update.settings.is-breakglass',
      'update.settings.roles',
    ],
  },
  'stytch.self': {
    update: [
      'update.info.name',
      'update.info.email',
      'update.info.untrusted-metadata',
      'update.info.mfa-phone',
      'update.info.delete.mfa-phone',
      'update.info.delete.password',
      'update.info.delete.mfa-totp',
      'update.info.unlink.retired-email',
      'update.settings.mfa-enrolled',
      'update.settings.default-mfa-method',
    ],
  },
};

/** A permission with each coarse action replaced by the fine ones it covered. */
function finePermission(p: Permission): Permission {
  const covered = COVERED[p.resource_id];
  if (!covered || p.actions.includes('*')) return p;
  const actions = [...new Set(p.actions.flatMap((a) => covered[a] ?? [a]))];
  return { resource_id: p.resource_id, actions };
}

/** The roles rewritten, `member` keeping the search every member had. */
function migratedRoles(roles: readonly Role[]): Role[] {
  const fine = roles.map((r) => ({ ...r, permissions: r.permissions.map(finePermission) }));
  const member = fine.find((r) => r.role_id === 'member');
  const search: Permission = { resource_id: 'stytch.member', actions: ['search'] };
  if (!member) return [...fine, { role_id: 'member', description: '', permissions: [search] }];
  const own = member.permissions.find((p) => p.resource_id === 'stytch.member');
  if (!own) member.permissions.push(search);
  else if (!own.actions.includes('*') && !own.actions.includes('search'))
    own.actions.push('search');
  return fine;
}

export async function up(kysely: Kysely<unknown>): Promise<void> {
  const db = kysely as unknown as Kysely<Tables>;
  const at = new Date().toISOString();
  const rows = await db.selectFrom('rbac_policies').select(['project_id', 'roles']).execute();
  for (const row of rows) {
    const roles = migratedRoles(JSON.parse(row.roles) as Role[]);
    await db
      .updateTable('rbac_policies')
      .set({ roles: JSON.stringify(roles), updated_at: at })
      .where('project_id', '=', row.project_id)
      .execute();
  }
  const stored = new Set(rows.map((r) => r.project_id));
  const projects = await db.selectFrom('projects').select('id').execute();
  for (const project of projects.filter((p) => !stored.has(p.id))) {
    await db
      .insertInto('rbac_policies')
      .values({
        project_id: project.id,
        roles: JSON.stringify(migratedRoles([])),
        resources: '[]',
        updated_at: at,
      })
      .execute();
  }
}
