// Progressive back-off of password guesses per e-mail and client IP, replacing the hard lockout
// (password_failures stays, unused: migrations only add); and finding reset links by address.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('rate_limit_backoffs')
    .addColumn('scope', 'text', (c) => c.notNull())
    .addColumn('subject', 'text', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull())
    .addColumn('delay_seconds', 'integer', (c) => c.notNull())
    .addColumn('blocked_until', 'integer', (c) => c.notNull())
    .addColumn('last_attempt', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('rate_limit_backoffs_pk', ['scope', 'subject'])
    .execute();
  // A saved password voids the member's outstanding reset links, found by address.
  await db.schema.createIndex('tokens_email').on('tokens').column('email').execute();
}
