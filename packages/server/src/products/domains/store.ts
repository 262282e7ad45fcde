/** The domains product's queries: `domain_verifications` rows (docs/protocol.md §7.12). */
import type { Db } from '../../context.js';
import type { DomainVerificationsTable } from '../../store/schema.js';
import { insertUnlessDuplicate } from '../../store/unique.js';

export type DomainRow = DomainVerificationsTable;

/** The organization's domains, oldest first. */
export async function domainRows(
  db: Db,
  projectId: string,
  organizationId: string,
): Promise<DomainRow[]> {
  return db
    .selectFrom('domain_verifications')
    .selectAll()
    .where('project_id', '=', projectId)
    .where('organization_id', '=', organizationId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

/** How many domains the organization lists. */
export async function countDomains(
  db: Db,
  projectId: string,
  organizationId: string,
): Promise<number> {
  const row = await db
    .selectFrom('domain_verifications')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('project_id', '=', projectId)
    .where('organization_id', '=', organizationId)
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

/** One domain of the organization, or undefined (another organization's ids are not found). */
export async function domainRow(
  db: Db,
  projectId: string,
  organizationId: string,
  id: string,
): Promise<DomainRow | undefined> {
  return db
    .selectFrom('domain_verifications')
    .selectAll()
    .where('id', '=', id)
    .where('project_id', '=', projectId)
    .where('organization_id', '=', organizationId)
    .executeTakeFirst();
}

/** Whether an organization of the project other than this one has verified the domain. */
export async function verifiedElsewhere(
  db: Db,
  projectId: string,
  organizationId: string,
  domain: string,
): Promise<boolean> {
  const row = await db
    .selectFrom('domain_verifications')
    .select('id')
    .where('project_id', '=', projectId)
    .where('verified_domain', '=', domain)
    .where('organization_id', '!=', organizationId)
    .executeTakeFirst();
  return row !== undefined;
}

/** Inserts a domain; false when the organization already lists it (the unique index decides). */
export async function insertDomain(db: Db, row: DomainRow): Promise<boolean> {
  return insertUnlessDuplicate(db, (d) =>
    d.insertInto('domain_verifications').values(row).execute(),
  );
}

/** Deletes one domain of the organization; false when there was none. */
export async function deleteDomain(
  db: Db,
  projectId: string,
  organizationId: string,
  id: string,
): Promise<boolean> {
  const result = await db
    .deleteFrom('domain_verifications')
    .where('id', '=', id)
    .where('project_id', '=', projectId)
    .where('organization_id', '=', organizationId)
    .executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/**
 * Marks a domain verified as of `at`; false when another organization of the project verified
 * it first, even concurrently (the unique index over the project and `verified_domain` decides).
 * A domain already verified keeps its first `verified_at`.
 */
export async function markVerified(db: Db, row: DomainRow, at: string): Promise<boolean> {
  return insertUnlessDuplicate(db, (d) =>
    d
      .updateTable('domain_verifications')
      .set({
        verified_domain: row.domain,
        verified_at: row.verified_at ?? at,
        last_checked_at: at,
        check_failures: 0,
      })
      .where('id', '=', row.id)
      .execute(),
  );
}

/** Records a lookup that did not find the token: its time, and one more failure in a row. */
export async function recordFailedCheck(db: Db, id: string, at: string): Promise<number> {
  const row = await db
    .updateTable('domain_verifications')
    .set((eb) => ({ last_checked_at: at, check_failures: eb('check_failures', '+', 1) }))
    .where('id', '=', id)
    .returning('check_failures')
    .executeTakeFirst();
  return row?.check_failures ?? 0;
}

/** Takes a domain's verification away; it stays listed, pending, with its token. */
export async function unverify(db: Db, id: string): Promise<void> {
  await db
    .updateTable('domain_verifications')
    .set({ verified_domain: null, verified_at: null })
    .where('id', '=', id)
    .execute();
}

/** The organization's verified domains, sorted: its `claimed_email_domains`. */
export async function verifiedDomainsOf(
  db: Db,
  projectId: string,
  organizationId: string,
): Promise<string[]> {
  const rows = await db
    .selectFrom('domain_verifications')
    .select('domain')
    .where('project_id', '=', projectId)
    .where('organization_id', '=', organizationId)
    .where('verified_domain', 'is not', null)
    .orderBy('domain')
    .execute();
  return rows.map((r) => r.domain);
}

/** Verified domains last checked before `before` (or never), least recently checked first. */
export async function domainsDueForRecheck(
  db: Db,
  before: string,
  limit: number,
): Promise<DomainRow[]> {
  return db
    .selectFrom('domain_verifications')
    .selectAll()
    .where('verified_at', 'is not', null)
    .where((eb) => eb.or([eb('last_checked_at', 'is', null), eb('last_checked_at', '<', before)]))
    .orderBy('last_checked_at')
    .orderBy('id')
    .limit(limit)
    .execute();
}
