/**
 * Re-encrypting everything sealed with the server key under a new one, in one transaction: the
 * list of sealed columns lives here, next to the schema, so a new one is added in one place.
 */
import { sql } from 'kysely';
import type { SecretBox } from '../crypto/secret-box.js';
import type { Db } from './schema.js';

/** How many values of one column were re-encrypted. */
export interface ResealCount {
  column: string;
  values: number;
}

/** A sealed value that the old key does not open: the rotation stops and changes nothing. */
export class ResealError extends Error {}

type Reseal = (value: string) => string;

/** One sealed column: reads its values, writes them back re-encrypted. */
interface SealedColumn {
  column: string;
  run(db: Db, reseal: Reseal): Promise<number>;
}

/** A column holding a sealed value, in a table whose rows have an `id`. */
function byId(
  table:
    | 'signing_keys'
    | 'totp_registrations'
    | 'recovery_codes'
    | 'sso_connections'
    | 'sso_requests'
    | 'oauth_requests'
    | 'mail_queue',
  column: string,
): SealedColumn {
  return {
    column: `${table}.${column}`,
    async run(db, reseal) {
      // The column name comes from the fixed list below, never from input.
      const rows = await db
        .selectFrom(table)
        .select(['id', sql<string | null>`${sql.ref(column)}`.as('value')])
        .execute();
      let count = 0;
      for (const row of rows) {
        if (row.value === null || row.value === '') continue;
        await db
          .updateTable(table)
          .set({ [column]: reseal(row.value) })
          .where('id', '=', row.id)
          .execute();
        count += 1;
      }
      return count;
    },
  };
}

/** Every sealed column of the schema. */
const SEALED: readonly SealedColumn[] = [
  byId('signing_keys', 'private_key'),
  byId('totp_registrations', 'secret_encrypted'),
  byId('recovery_codes', 'code_encrypted'),
  byId('sso_connections', 'secret_encrypted'),
  byId('sso_requests', 'code_verifier_encrypted'),
  byId('oauth_requests', 'code_verifier_encrypted'),
  // Queued e-mail bodies, until they are sent or given up.
  byId('mail_queue', 'body_sealed'),
  {
    column: 'oauth_providers.secret_encrypted',
    async run(db, reseal) {
      const rows = await db
        .selectFrom('oauth_providers')
        .select(['project_id', 'provider', 'secret_encrypted'])
        .where('secret_encrypted', 'is not', null)
        .execute();
      for (const row of rows) {
        await db
          .updateTable('oauth_providers')
          .set({ secret_encrypted: reseal(row.secret_encrypted ?? '') })
          .where('project_id', '=', row.project_id)
          .where('provider', '=', row.provider)
          .execute();
      }
      return rows.length;
    },
  },
  {
    column: 'captcha_settings.secret_encrypted',
    async run(db, reseal) {
      const rows = await db
        .selectFrom('captcha_settings')
        .select(['project_id', 'secret_encrypted'])
        .where('secret_encrypted', 'is not', null)
        .execute();
      for (const row of rows) {
        await db
          .updateTable('captcha_settings')
          .set({ secret_encrypted: reseal(row.secret_encrypted ?? '') })
          .where('project_id', '=', row.project_id)
          .execute();
      }
      return rows.length;
    },
  },
  {
    // OAuth tokens carry the provider's tokens sealed inside their JSON details.
    column: 'tokens.details.provider_values',
    async run(db, reseal) {
      const rows = await db
        .selectFrom('tokens')
        .select(['id', 'details'])
        .where('details', 'like', '%"provider_values"%')
        .execute();
      let count = 0;
      for (const row of rows) {
        const details = JSON.parse(row.details ?? '{}') as Record<string, unknown>;
        if (typeof details.provider_values !== 'string') continue;
        details.provider_values = reseal(details.provider_values);
        await db
          .updateTable('tokens')
          .set({ details: JSON.stringify(details) })
          .where('id', '=', row.id)
          .execute();
        count += 1;
      }
      return count;
    },
  },
];

/**
 * Opens every sealed value with `from` and seals it with `to`, all in one transaction: a value
 * the old key does not open aborts it and nothing changes.
 *
 * @example
 * const counts = await resealAll(store.db, new SecretBox(oldKey), new SecretBox(newKey));
 */
export async function resealAll(db: Db, from: SecretBox, to: SecretBox): Promise<ResealCount[]> {
  return db.transaction().execute(async (trx) => {
    const counts: ResealCount[] = [];
    for (const sealed of SEALED) {
      const reseal = (value: string) => {
        let plain: string;
        try {
          plain = from.open(value);
        } catch {
          throw new ResealError(`A value in ${sealed.column} is not sealed with the old key.`);
        }
        return to.seal(plain);
      };
      counts.push({ column: sealed.column, values: await sealed.run(trx, reseal) });
    }
    return counts;
  });
}
