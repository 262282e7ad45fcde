// Passwords and multi-factor authentication.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  // The project's password policy: none, zxcvbn or luds (with its two numbers).
  await db.schema
    .alterTable('projects')
    .addColumn('password_policy', 'text', (c) => c.notNull().defaultTo('zxcvbn'))
    .execute();
  await db.schema
    .alterTable('projects')
    .addColumn('luds_complexity', 'integer', (c) => c.notNull().defaultTo(3))
    .execute();
  await db.schema
    .alterTable('projects')
    .addColumn('luds_minimum_count', 'integer', (c) => c.notNull().defaultTo(8))
    .execute();

  await db.schema
    .createTable('passwords')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('project_id', 'text', (c) => c.notNull())
    .addColumn('member_id', 'text', (c) => c.notNull().unique().references('members.id'))
    .addColumn('hash', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('totp_registrations')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('project_id', 'text', (c) => c.notNull())
    .addColumn('member_id', 'text', (c) => c.notNull().references('members.id'))
    .addColumn('secret_encrypted', 'text', (c) => c.notNull())
    .addColumn('last_used_step', 'integer')
    .addColumn('verified_at', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('totp_registrations_member')
    .on('totp_registrations')
    .column('member_id')
    .execute();

  await db.schema
    .createTable('recovery_codes')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('project_id', 'text', (c) => c.notNull())
    .addColumn('member_id', 'text', (c) => c.notNull().references('members.id'))
    .addColumn('totp_registration_id', 'text', (c) => c.notNull())
    .addColumn('code_hash', 'text', (c) => c.notNull())
    .addColumn('used_at', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('recovery_codes_member')
    .on('recovery_codes')
    .column('member_id')
    .execute();

  await db.schema
    .createTable('otp_codes')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('project_id', 'text', (c) => c.notNull())
    .addColumn('member_id', 'text', (c) => c.notNull().references('members.id'))
    .addColumn('phone_number', 'text', (c) => c.notNull())
    .addColumn('code_hash', 'text', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addColumn('used_at', 'text')
    .execute();
  await db.schema.createIndex('otp_codes_member').on('otp_codes').column('member_id').execute();
}
