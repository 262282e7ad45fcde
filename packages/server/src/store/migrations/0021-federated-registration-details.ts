// What a member's linked provider identities show in member answers (`oauth_registrations`,
// `sso_registrations`): the OAuth profile picture and locale, and the attributes an SSO
// connection's IdP sent, each as of the identity's last sign-in.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('member_federated_identities')
    .addColumn('profile_picture_url', 'text')
    .execute();
  await db.schema.alterTable('member_federated_identities').addColumn('locale', 'text').execute();
  await db.schema
    .alterTable('member_federated_identities')
    .addColumn('attributes', 'text')
    .execute();
}
