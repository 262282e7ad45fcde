/** The queries of test sign-ins: requests of sso_requests marked by the admin who started them. */
import { isoAt, type Db } from '../../context.js';
import type { SsoRequestsTable } from '../../store/schema.js';

/** A test sign-in of one connection by its id, answered or not; undefined for anything else. */
export async function testRequestById(
  db: Db,
  connectionId: string,
  id: string,
): Promise<SsoRequestsTable | undefined> {
  return db
    .selectFrom('sso_requests')
    .selectAll()
    .where('id', '=', id)
    .where('connection_id', '=', connectionId)
    .where('test_member_id', 'is not', null)
    .executeTakeFirst();
}

/**
 * Stores a test's report and marks it answered; true for exactly one caller, however many race
 * for it, and false once it has expired.
 */
export async function finishTestRequest(
  db: Db,
  id: string,
  report: string,
  now: number,
): Promise<boolean> {
  const result = await db
    .updateTable('sso_requests')
    .set({ used_at: isoAt(now), test_report: report })
    .where('id', '=', id)
    .where('test_member_id', 'is not', null)
    .where('used_at', 'is', null)
    .where('expires_at', '>', isoAt(now))
    .executeTakeFirst();
  return result.numUpdatedRows === 1n;
}

/**
 * Stores the report of a test whose request the OIDC callback has claimed (`claimRequest`); true
 * once, false when it has a report already.
 */
export async function storeTestReport(db: Db, id: string, report: string): Promise<boolean> {
  const result = await db
    .updateTable('sso_requests')
    .set({ test_report: report })
    .where('id', '=', id)
    .where('test_member_id', 'is not', null)
    .where('used_at', 'is not', null)
    .where('test_report', 'is', null)
    .executeTakeFirst();
  return result.numUpdatedRows === 1n;
}
