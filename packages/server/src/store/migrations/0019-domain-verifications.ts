// E-mail domains an organization proves it controls by publishing a DNS TXT record
// (docs/protocol.md §7.12). A domain may be verified by one organization of a project at a time:
// `verified_domain` holds the domain only while verified, and a unique index over it with the
// project decides between two organizations verifying at the same moment (NULLs never collide).
// Organizations keep their verified domains in `claimed_email_domains` for their wire shape.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('domain_verifications')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('project_id', 'text', (c) => c.notNull())
    .addColumn('organization_id', 'text', (c) => c.notNull())
    .addColumn('domain', 'text', (c) => c.notNull())
    .addColumn('token', 'text', (c) => c.notNull())
    .addColumn('verified_domain', 'text')
    .addColumn('verified_at', 'text')
    .addColumn('last_checked_at', 'text')
    .addColumn('check_failures', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('domain_verifications_org_domain')
    .on('domain_verifications')
    .columns(['organization_id', 'domain'])
    .unique()
    .execute();
  await db.schema
    .createIndex('domain_verifications_verified')
    .on('domain_verifications')
    .columns(['project_id', 'verified_domain'])
    .unique()
    .execute();
  // The daily re-check's scan: verified domains least recently checked first.
  await db.schema
    .createIndex('domain_verifications_recheck')
    .on('domain_verifications')
    .columns(['verified_at', 'last_checked_at'])
    .execute();
  await db.schema
    .alterTable('organizations')
    .addColumn('claimed_email_domains', 'text', (c) => c.notNull().defaultTo('[]'))
    .execute();
}
