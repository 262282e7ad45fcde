/** Intermediate session tokens (§9): a verified e-mail and factors, waiting for an organization or MFA. */
import { INTERMEDIATE_SESSION_MINUTES, type AuthenticationFactor } from '@gatehouse/protocol';
import { isoAt, type Db } from '../context.js';
import { randomUUID } from 'node:crypto';
import { hashToken, newToken } from '../crypto/random.js';
import type { IntermediateSessionsTable } from '../store/schema.js';
import type { FederatedClaims } from './federated/trust.js';
import type { Project } from '../tenancy/projects/service.js';

/** A live intermediate session as the services use it. */
export interface IntermediateSession {
  id: string;
  email: string;
  memberId: string | null;
  organizationId: string | null;
  factors: AuthenticationFactor[];
  /** What a federated provider vouched for, when the address came from one; null otherwise. */
  federated: FederatedClaims | null;
  /**
   * The organizations whose own sign-in the primary factor passed, when several did (a discovery
   * password that more than one membership accepts); empty otherwise.
   */
  factorOrganizationIds: string[];
}

function toIntermediate(row: IntermediateSessionsTable): IntermediateSession {
  return {
    id: row.id,
    email: row.email,
    memberId: row.member_id,
    organizationId: row.organization_id,
    factors: JSON.parse(row.factors) as AuthenticationFactor[],
    federated: row.federated ? (JSON.parse(row.federated) as FederatedClaims) : null,
    factorOrganizationIds: row.factor_organization_ids
      ? (JSON.parse(row.factor_organization_ids) as string[])
      : [],
  };
}

/** Issues an IST for ten minutes; bound to a member and organization when MFA is what remains. */
export async function createIntermediateSession(
  db: Db,
  project: Project,
  input: {
    email: string;
    memberId?: string;
    organizationId?: string;
    factors: AuthenticationFactor[];
    federated?: FederatedClaims | null;
    factorOrganizationIds?: string[];
  },
  now: number,
): Promise<string> {
  const token = newToken();
  await db
    .insertInto('intermediate_sessions')
    .values({
      id: `intermediate-session-${project.environment}-${randomUUID()}`,
      project_id: project.id,
      token_hash: hashToken(token),
      email: input.email,
      member_id: input.memberId ?? null,
      organization_id: input.organizationId ?? null,
      factors: JSON.stringify(input.factors),
      // Left out when null, so the row also fits a database one migration older (upgrades).
      ...(input.federated ? { federated: JSON.stringify(input.federated) } : {}),
      ...(input.factorOrganizationIds?.length
        ? { factor_organization_ids: JSON.stringify(input.factorOrganizationIds) }
        : {}),
      created_at: isoAt(now),
      expires_at: isoAt(now + INTERMEDIATE_SESSION_MINUTES * 60_000),
      used_at: null,
    })
    .execute();
  return token;
}

/** A live IST of the project, or null when unknown, expired, used or foreign. */
export async function findIntermediateSession(
  db: Db,
  projectId: string,
  token: string,
  now: number,
): Promise<IntermediateSession | null> {
  const row = await db
    .selectFrom('intermediate_sessions')
    .selectAll()
    .where('token_hash', '=', hashToken(token))
    .executeTakeFirst();
  if (!row || row.project_id !== projectId || row.used_at !== null || row.expires_at <= isoAt(now))
    return null;
  return toIntermediate(row);
}

/**
 * Voids an IST once it has yielded a full session. Single-use: the conditional update succeeds
 * for exactly one caller.
 */
export async function consumeIntermediateSession(
  db: Db,
  id: string,
  now: number,
): Promise<boolean> {
  const result = await db
    .updateTable('intermediate_sessions')
    .set({ used_at: isoAt(now) })
    .where('id', '=', id)
    .where('used_at', 'is', null)
    .executeTakeFirst();
  return result.numUpdatedRows === 1n;
}
