/** The SSO product's queries: connections, their certificates, requests sent to IdPs, and used assertions. */
import { isoAt, type Db } from '../../context.js';
import type {
  SsoCertificatesTable,
  SsoConnectionsTable,
  SsoRequestsTable,
} from '../../store/schema.js';
import { insertUnlessDuplicate } from '../../store/unique.js';
import { usableForSignIn } from './connections.js';

/** A connection of the project by id, or undefined (ids of other projects are not found). */
export async function connectionRow(
  db: Db,
  projectId: string,
  connectionId: string,
): Promise<SsoConnectionsTable | undefined> {
  return db
    .selectFrom('sso_connections')
    .selectAll()
    .where('id', '=', connectionId)
    .where('project_id', '=', projectId)
    .executeTakeFirst();
}

/** Locks a connection's row for the rest of the transaction by a write that changes nothing. */
export async function touchConnectionRow(
  db: Db,
  projectId: string,
  connectionId: string,
): Promise<void> {
  await db
    .updateTable('sso_connections')
    .set((eb) => ({ updated_at: eb.ref('updated_at') }))
    .where('id', '=', connectionId)
    .where('project_id', '=', projectId)
    .execute();
}

/** A connection by id alone: for the IdP-facing routes, which learn the project from it. */
export async function connectionRowById(
  db: Db,
  connectionId: string,
): Promise<SsoConnectionsTable | undefined> {
  return db
    .selectFrom('sso_connections')
    .selectAll()
    .where('id', '=', connectionId)
    .executeTakeFirst();
}

/** The connections of one organization, oldest first. */
export async function connectionRowsOf(
  db: Db,
  projectId: string,
  organizationId: string,
): Promise<SsoConnectionsTable[]> {
  return db
    .selectFrom('sso_connections')
    .selectAll()
    .where('project_id', '=', projectId)
    .where('organization_id', '=', organizationId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

/** The verification certificates of some connections, oldest first. */
export async function certificateRowsOf(
  db: Db,
  connectionIds: readonly string[],
): Promise<SsoCertificatesTable[]> {
  if (connectionIds.length === 0) return [];
  return db
    .selectFrom('sso_certificates')
    .selectAll()
    .where('connection_id', 'in', connectionIds)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

export async function insertConnection(db: Db, row: SsoConnectionsTable): Promise<void> {
  await db.insertInto('sso_connections').values(row).execute();
}

/** Writes a connection's changed columns. */
export async function updateConnectionRow(
  db: Db,
  id: string,
  set: Partial<Omit<SsoConnectionsTable, 'id' | 'project_id' | 'organization_id' | 'kind'>>,
): Promise<void> {
  await db.updateTable('sso_connections').set(set).where('id', '=', id).execute();
}

/** Deletes a connection with its certificates and pending requests. */
export async function deleteConnectionRow(db: Db, id: string): Promise<void> {
  await db.deleteFrom('sso_certificates').where('connection_id', '=', id).execute();
  await db.deleteFrom('sso_requests').where('connection_id', '=', id).execute();
  await db.deleteFrom('sso_connections').where('id', '=', id).execute();
}

export async function insertCertificate(db: Db, row: SsoCertificatesTable): Promise<void> {
  await db.insertInto('sso_certificates').values(row).execute();
}

/** Deletes one certificate of a connection; false when the connection has no such certificate. */
export async function deleteCertificateRow(
  db: Db,
  connectionId: string,
  certificateId: string,
): Promise<boolean> {
  const result = await db
    .deleteFrom('sso_certificates')
    .where('id', '=', certificateId)
    .where('connection_id', '=', connectionId)
    .executeTakeFirst();
  return result.numDeletedRows === 1n;
}

/**
 * Writes the organization's `sso_active_connections` from its active connections that are on, and
 * keeps its default connection pointing at one of them: the first becomes the default when there
 * is none, and a default that is no longer active or was turned off is replaced. Run it in the
 * transaction that changed a connection.
 */
export async function refreshOrganizationConnections(
  db: Db,
  projectId: string,
  organizationId: string,
  now: number,
): Promise<void> {
  // Lock the organization row first (an update holds it until commit on PostgreSQL; SQLite
  // writes one at a time anyway): concurrent writers then read each other's committed
  // connections, so the last to commit writes the complete list.
  await db
    .updateTable('organizations')
    .set({ updated_at: isoAt(now) })
    .where('id', '=', organizationId)
    .where('project_id', '=', projectId)
    .execute();
  const rows = await connectionRowsOf(db, projectId, organizationId);
  const active = rows.filter(usableForSignIn);
  const org = await db
    .selectFrom('organizations')
    .select(['sso_default_connection_id', 'sso_jit_provisioning_allowed_connections'])
    .where('id', '=', organizationId)
    .where('project_id', '=', projectId)
    .executeTakeFirst();
  if (!org) return;
  const current = org.sso_default_connection_id;
  const defaultId =
    current !== null && active.some((r) => r.id === current) ? current : (active[0]?.id ?? null);
  const existing = new Set(rows.map((r) => r.id));
  const allowed = (JSON.parse(org.sso_jit_provisioning_allowed_connections) as string[]).filter(
    (id) => existing.has(id),
  );
  await db
    .updateTable('organizations')
    .set({
      sso_active_connections: JSON.stringify(
        active.map((r) => ({
          connection_id: r.id,
          display_name: r.display_name,
          identity_provider: r.identity_provider,
        })),
      ),
      sso_default_connection_id: defaultId,
      sso_jit_provisioning_allowed_connections: JSON.stringify(allowed),
      updated_at: isoAt(now),
    })
    .where('id', '=', organizationId)
    .execute();
}

export async function insertRequest(db: Db, row: SsoRequestsTable): Promise<void> {
  await db.insertInto('sso_requests').values(row).execute();
}

/** A live, unanswered sign-in request by its id (the SAML AuthnRequest ID) for one connection. */
export async function liveRequestById(
  db: Db,
  connectionId: string,
  id: string,
  now: number,
): Promise<SsoRequestsTable | undefined> {
  // A test sign-in's request never answers a real sign-in (store-tests.ts has its own).
  return db
    .selectFrom('sso_requests')
    .selectAll()
    .where('id', '=', id)
    .where('connection_id', '=', connectionId)
    .where('test_member_id', 'is', null)
    .where('used_at', 'is', null)
    .where('expires_at', '>', isoAt(now))
    .executeTakeFirst();
}

/** A live, unanswered request by the hash of its OIDC state. */
export async function liveRequestByState(
  db: Db,
  stateHash: string,
  now: number,
): Promise<SsoRequestsTable | undefined> {
  return db
    .selectFrom('sso_requests')
    .selectAll()
    .where('state_hash', '=', stateHash)
    .where('used_at', 'is', null)
    .where('expires_at', '>', isoAt(now))
    .executeTakeFirst();
}

/** Marks a request answered; true for exactly one caller, however many race for it. */
export async function claimRequest(db: Db, id: string, now: number): Promise<boolean> {
  const result = await db
    .updateTable('sso_requests')
    .set({ used_at: isoAt(now) })
    .where('id', '=', id)
    .where('used_at', 'is', null)
    .where('expires_at', '>', isoAt(now))
    .executeTakeFirst();
  return result.numUpdatedRows === 1n;
}

/**
 * Records an accepted assertion ID until it expires; false when it was already recorded (a
 * replay), by this instance or any other over the same database.
 */
export async function recordAssertion(
  db: Db,
  connectionId: string,
  assertionId: string,
  expiresAt: number,
): Promise<boolean> {
  return insertUnlessDuplicate(db, (d) =>
    d
      .insertInto('sso_assertions')
      .values({
        connection_id: connectionId,
        assertion_id: assertionId,
        expires_at: isoAt(expiresAt),
      })
      .execute(),
  );
}
