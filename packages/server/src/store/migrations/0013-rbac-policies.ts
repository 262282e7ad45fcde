// Custom RBAC: each project's own roles and resources (and extensions of the built-in roles) as
// one JSON document per project, and each organization's e-mail domain → role rules.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('rbac_policies')
    .addColumn('project_id', 'text', (c) => c.primaryKey().references('projects.id'))
    .addColumn('roles', 'text', (c) => c.notNull())
    .addColumn('resources', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .alterTable('organizations')
    .addColumn('rbac_email_implicit_role_assignments', 'text', (c) => c.notNull().defaultTo('[]'))
    .execute();
}
