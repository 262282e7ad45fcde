// E-mail is queued in the database before the send endpoints answer, so that a message accepted
// is delivered or visibly failed, whichever instance or restart it survives: the queue holds its
// body sealed with the server key (the links in it sign people in) until it is sent or given up,
// and the attempts, the next one's time and the last error for operators.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('mail_queue')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('recipient', 'text', (c) => c.notNull())
    .addColumn('subject', 'text', (c) => c.notNull())
    .addColumn('body_sealed', 'text')
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull())
    .addColumn('next_attempt_at', 'text', (c) => c.notNull())
    .addColumn('claim_id', 'text')
    .addColumn('last_error', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('finished_at', 'text')
    .execute();
  // The workers' scan: pending messages that are due, oldest first.
  await db.schema
    .createIndex('mail_queue_due')
    .on('mail_queue')
    .columns(['status', 'next_attempt_at'])
    .execute();
}
