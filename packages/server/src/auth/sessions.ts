/** Member sessions: opaque tokens hashed at rest, lookups, extension, revocation, and their JWTs. */
import {
  SESSION_JWT_MINUTES,
  type AuthenticationFactor,
  type Member,
  type MemberSession,
  type Organization,
} from '@gatehouse/protocol';
import { isoAt, type Context, type Db } from '../context.js';
import { signRs256 } from '../crypto/jwt-sign.js';
import { hashToken, newId, newToken } from '../crypto/random.js';
import { preparedQuery } from '../store/prepared.js';
import { isDeeplyFrozen } from '../store/read-cache.js';
import type { SessionsTable } from '../store/schema.js';
import { sessionRoleIds } from '../tenancy/members/role-sources.js';
import type { Project } from '../tenancy/projects/service.js';
import type { ClientInfo } from './client-info.js';
import { rememberJwt, reusableJwt } from './jwt-reuse.js';

/**
 * The private claims of a session JWT, named as the hosted provider names them, so that its
 * backend SDKs verify Gatehouse's JWTs locally (docs/protocol.md §4, `session_jwt`).
 */
export const SESSION_CLAIM = 'https://stytch.com/session';
const ORGANIZATION_CLAIM = 'https://stytch.com/organization';

/**
 * The wire form of a session row, with the roles its member holds in it (`sessionRoleIds`: an
 * SSO connection's roles only with a factor of that connection) and its organization's slug.
 */
export function toMemberSession(
  row: SessionsTable,
  member: Member,
  organizationSlug: string,
): MemberSession {
  const factors = JSON.parse(row.factors) as AuthenticationFactor[];
  return {
    member_session_id: row.id,
    member_id: row.member_id,
    organization_id: row.organization_id,
    organization_slug: organizationSlug,
    started_at: row.started_at,
    last_accessed_at: row.last_accessed_at,
    expires_at: row.expires_at,
    custom_claims: {},
    roles: sessionRoleIds(member, factors),
    authentication_factors: factors,
  };
}

/**
 * The expiry of a session asked to last `durationMinutes` from now: never later than its start
 * plus the absolute lifetime, so refreshing cannot keep a (possibly stolen) token alive forever.
 *
 * @example
 * cappedExpiry(Date.parse(row.started_at), Date.now(), 60, 43_200);
 */
export function cappedExpiry(
  startedAt: number,
  now: number,
  durationMinutes: number,
  maxLifetimeMinutes: number,
): string {
  return isoAt(Math.min(now + durationMinutes * 60_000, startedAt + maxLifetimeMinutes * 60_000));
}

// Every sign-in starts one: built once (see `preparedQuery`).
const sessionInserted = preparedQuery((db, p: Pick<SessionsTable, keyof SessionsTable>) =>
  db.insertInto('sessions').values(p),
);

/**
 * Starts a session and returns its token, which exists only in this return value: the table
 * keeps its hash. It expires after `durationMinutes`, at most `maxLifetimeMinutes` after
 * `startedAt` (now, unless it continues an earlier session). It records `client`, the browser
 * of the call that starts it (IP address and user agent; nulls when there is none).
 */
export async function createSession(
  db: Db,
  project: Project,
  member: Member,
  factors: AuthenticationFactor[],
  durationMinutes: number,
  now: number,
  maxLifetimeMinutes: number,
  client: ClientInfo,
  startedAt: number = now,
): Promise<{ token: string; row: SessionsTable }> {
  const token = newToken();
  const row: SessionsTable = {
    id: newId('member-session', project.environment),
    project_id: project.id,
    member_id: member.member_id,
    organization_id: member.organization_id,
    token_hash: hashToken(token),
    factors: JSON.stringify(factors),
    started_at: isoAt(startedAt),
    last_accessed_at: isoAt(now),
    expires_at: cappedExpiry(startedAt, now, durationMinutes, maxLifetimeMinutes),
    revoked_at: null,
    ip_address: client.ipAddress,
    user_agent: client.userAgent,
  };
  await sessionInserted(db, row);
  return { token, row };
}

/**
 * The row when it is a live (known, unexpired, unrevoked) session of the project, else null.
 *
 * @example
 * const live = liveSessionOrNull(row, project.id, ctx.now());
 */
export function liveSessionOrNull(
  row: SessionsTable | undefined,
  projectId: string,
  now: number,
): SessionsTable | null {
  if (!row || row.project_id !== projectId || row.revoked_at !== null) return null;
  return row.expires_at > isoAt(now) ? row : null;
}

// Every SDK call with a session looks it up, and every refresh writes its access time.
const sessionByTokenHash = preparedQuery((db, p: { tokenHash: string }) =>
  db.selectFrom('sessions').selectAll().where('token_hash', '=', p.tokenHash),
);
const sessionById = preparedQuery((db, p: { id: string }) =>
  db.selectFrom('sessions').selectAll().where('id', '=', p.id),
);
const updateSessionAccess = preparedQuery(
  (db, p: { id: string; lastAccessedAt: string; expiresAt: string; factors: string }) =>
    db
      .updateTable('sessions')
      .set({ last_accessed_at: p.lastAccessedAt, expires_at: p.expiresAt, factors: p.factors })
      .where('id', '=', p.id),
);

/** A live session of the project by token, or null. */
export async function findLiveSession(
  db: Db,
  projectId: string,
  token: string,
  now: number,
): Promise<SessionsTable | null> {
  const [row] = await sessionByTokenHash(db, { tokenHash: hashToken(token) });
  return liveSessionOrNull(row, projectId, now);
}

/** A live session of the project by id, or null. */
export async function findLiveSessionById(
  db: Db,
  projectId: string,
  id: string,
  now: number,
): Promise<SessionsTable | null> {
  const [row] = await sessionById(db, { id });
  return liveSessionOrNull(row, projectId, now);
}

/** What an access changes besides `last_accessed_at`. */
export interface SessionTouch {
  /** Resets the expiry to now + N minutes; absent keeps it. */
  durationMinutes?: number | undefined;
  /** Factors to merge in. */
  factors?: AuthenticationFactor[];
  /** The absolute lifetime: the expiry never passes `started_at` plus this. */
  maxLifetimeMinutes: number;
}

/**
 * The absolute lifetime of a project's sessions in minutes: the project's own, else the server's.
 *
 * @example
 * touchSession(db, row, now, { maxLifetimeMinutes: sessionLifetime(ctx, project) });
 */
export function sessionLifetime(ctx: Context, project: Project): number {
  return project.sessionMaxLifetimeMinutes ?? ctx.config.sessionMaxLifetimeMinutes;
}

/**
 * The absolute lifetime of a session in an organization: the project's, or the organization's
 * own limit (`session_max_duration_minutes`) when that is shorter. Counted from `started_at`, so
 * neither a sign-in's nor a refresh's `session_duration_minutes` passes it.
 *
 * @example
 * touchSession(db, row, now, { maxLifetimeMinutes: organizationSessionLifetime(ctx, project, org) });
 */
export function organizationSessionLifetime(
  ctx: Context,
  project: Project,
  organization: Pick<Organization, 'session_max_duration_minutes'>,
): number {
  const own = organization.session_max_duration_minutes;
  const lifetime = sessionLifetime(ctx, project);
  return own === null ? lifetime : Math.min(own, lifetime);
}

/**
 * How finely `last_accessed_at` (and an expiry moved by a refresh) is kept: a refresh within
 * 30 seconds of the last recorded one, moving the expiry by less, does not write.
 */
export const ACCESS_RESOLUTION_MS = 30_000;

/**
 * Records an access: `last_accessed_at` moves to now; a duration resets the expiry to now + N
 * minutes, capped by the absolute lifetime counted from `started_at`; new factors are merged in
 * (a later factor of the same type replaces the earlier one). Within {@link ACCESS_RESOLUTION_MS}
 * of the last recorded access, a refresh that changes nothing else writes nothing.
 */
export async function touchSession(
  db: Db,
  row: SessionsTable,
  now: number,
  touch: SessionTouch,
): Promise<SessionsTable> {
  const times = timesOf(row);
  const expiresAtMs = expiryAfter(times, now, touch);
  const newFactors = touch.factors ?? [];
  // Stored factors are already merged, so a plain refresh keeps the text as it is.
  const factors =
    newFactors.length === 0
      ? row.factors
      : JSON.stringify(mergeFactors(JSON.parse(row.factors) as AuthenticationFactor[], newFactors));
  if (factors === row.factors && withinResolution(times, expiresAtMs, now)) return row;
  const updated: SessionsTable = {
    ...row,
    last_accessed_at: isoAt(now),
    expires_at: isoAt(expiresAtMs),
    factors,
  };
  await updateSessionAccess(db, {
    id: row.id,
    lastAccessedAt: updated.last_accessed_at,
    expiresAt: updated.expires_at,
    factors: updated.factors,
  });
  return updated;
}

/** A session row's times as milliseconds. */
interface SessionTimes {
  startedAt: number;
  expiresAt: number;
  lastAccessedAt: number;
}

/** The times of remembered (frozen) rows: every check of a session reads the same three. */
const rememberedTimes = new WeakMap<SessionsTable, SessionTimes>();

function timesOf(row: SessionsTable): SessionTimes {
  const known = rememberedTimes.get(row);
  if (known) return known;
  const times = {
    startedAt: Date.parse(row.started_at),
    expiresAt: Date.parse(row.expires_at),
    lastAccessedAt: Date.parse(row.last_accessed_at),
  };
  if (isDeeplyFrozen(row)) rememberedTimes.set(row, times);
  return times;
}

/**
 * The expiry a touch gives: without a duration the stored one, still capped (the lifetime may
 * have been lowered since); with one, now + the duration, capped. As milliseconds, truncated as a
 * Date keeps them.
 */
function expiryAfter(times: SessionTimes, now: number, touch: SessionTouch): number {
  const cap = times.startedAt + touch.maxLifetimeMinutes * 60_000;
  return Math.trunc(
    touch.durationMinutes === undefined
      ? Math.min(times.expiresAt, cap)
      : Math.min(now + touch.durationMinutes * 60_000, cap),
  );
}

/**
 * The row itself when a touch would change nothing but the access time within its resolution,
 * so that nothing is written (on PostgreSQL every write is a commit to wait for, and refreshes
 * are the hottest call); null when {@link touchSession} must write.
 *
 * @example
 * const row = settledTouch(current, now, { maxLifetimeMinutes }) ?? (await touchSession(db, current, now, touch));
 */
export function settledTouch(
  row: SessionsTable,
  now: number,
  touch: SessionTouch,
): SessionsTable | null {
  if (touch.factors !== undefined && touch.factors.length > 0) return null;
  const times = timesOf(row);
  return withinResolution(times, expiryAfter(times, now, touch), now) ? row : null;
}

/** Whether the access time and the expiry a touch gives are within the resolution of the stored. */
function withinResolution(times: SessionTimes, expiresAtMs: number, now: number): boolean {
  return (
    Math.abs(expiresAtMs - times.expiresAt) < ACCESS_RESOLUTION_MS &&
    now - times.lastAccessedAt < ACCESS_RESOLUTION_MS
  );
}

/** Ends a session now. */
export async function revokeSession(db: Db, id: string, now: number): Promise<void> {
  await db
    .updateTable('sessions')
    .set({ revoked_at: isoAt(now) })
    .where('id', '=', id)
    .execute();
}

/** Merges factor lists, keeping one entry per (type, delivery method), the newest winning. */
export function mergeFactors(
  a: AuthenticationFactor[],
  b: AuthenticationFactor[],
): AuthenticationFactor[] {
  const byKey = new Map<string, AuthenticationFactor>();
  for (const f of [...a, ...b]) byKey.set(`${f.type}:${f.delivery_method}`, f);
  return [...byKey.values()];
}

/** What a remembered session's fingerprint was computed from, beside the session itself. */
interface Fingerprinted {
  ctx: Context;
  kid: string;
  project: Project;
  organization: Organization;
  client: object;
  fingerprint: string;
}

const fingerprints = new WeakMap<MemberSession, Fingerprinted>();

/**
 * The JWT's fingerprint. A remembered check answers the same deeply frozen member session,
 * organization and session row each time (`store/read-cache.ts`); from the same ones, with the
 * same key and project, the fingerprint is the same, so it is computed once for them.
 */
function fingerprintOf(
  ctx: Context,
  kid: string,
  project: Project,
  session: MemberSession,
  organization: Organization,
  client: object,
  compute: () => string,
): string {
  const frozen = isDeeplyFrozen(session) && isDeeplyFrozen(organization) && isDeeplyFrozen(client);
  if (!frozen) return compute();
  const known = fingerprints.get(session);
  if (
    known?.ctx === ctx &&
    known.kid === kid &&
    known.project === project &&
    known.organization === organization &&
    known.client === client
  ) {
    return known.fingerprint;
  }
  const fingerprint = compute();
  fingerprints.set(session, { ctx, kid, project, organization, client, fingerprint });
  return fingerprint;
}

/** What a session JWT's claims depend on, but the access time, and the claim of its browser. */
function jwtFingerprint(
  ctx: Context,
  kid: string,
  project: Project,
  session: MemberSession,
  organization: Organization,
  client: Pick<SessionsTable, 'ip_address' | 'user_agent'>,
): { fingerprint: string; attributes: { ip_address: string; user_agent: string } } {
  // The browser that started the session, as the provider's claim names it ('' for none: a
  // session a host backend started).
  const attributes = { ip_address: client.ip_address ?? '', user_agent: client.user_agent ?? '' };
  const fingerprint = fingerprintOf(ctx, kid, project, session, organization, client, () =>
    JSON.stringify([
      kid,
      project.id,
      session.member_id,
      session.expires_at,
      session.roles,
      session.authentication_factors,
      organization.organization_id,
      organization.organization_slug,
      ctx.config.publicUrl,
      attributes,
    ]),
  );
  return { fingerprint, attributes };
}

/**
 * The session JWT {@link signSessionJwt} would hand out again now, without waiting: one signed
 * in the last 30 seconds for this session as it is; null when a new one must be signed.
 *
 * @example
 * const jwt = reusableSessionJwt(ctx, project, memberSession, organization, row) ?? (await signSessionJwt(…));
 */
export function reusableSessionJwt(
  ctx: Context,
  project: Project,
  session: MemberSession,
  organization: Organization,
  client: Pick<SessionsTable, 'ip_address' | 'user_agent'>,
): string | null {
  const key = ctx.keys.activeNow();
  if (!key) return null;
  const { fingerprint } = jwtFingerprint(ctx, key.kid, project, session, organization, client);
  return reusableJwt(ctx, session.member_session_id, fingerprint, ctx.now());
}

/**
 * Signs the session JWT: RS256, `sub` member, `aud` project, `iss` public URL (no trailing slash,
 * as the provider's SDKs compare it with their base URL), valid for five
 * minutes but never past the session's expiry; the session claim's `attributes` are the IP address
 * and user agent of the browser that started the session. A JWT signed for the same session in
 * the last 30 seconds, with the same expiry, factors, roles and organization, is returned again.
 */
export async function signSessionJwt(
  ctx: Context,
  project: Project,
  session: MemberSession,
  organization: Organization,
  client: Pick<SessionsTable, 'ip_address' | 'user_agent'>,
): Promise<string> {
  const key = ctx.keys.activeNow() ?? (await ctx.keys.active());
  const now = ctx.now();
  const { fingerprint, attributes } = jwtFingerprint(
    ctx,
    key.kid,
    project,
    session,
    organization,
    client,
  );
  const reused = reusableJwt(ctx, session.member_session_id, fingerprint, now);
  if (reused) return reused;

  const nowSeconds = Math.floor(now / 1000);
  const sessionEnd = Math.floor(Date.parse(session.expires_at) / 1000);
  const exp = Math.min(nowSeconds + SESSION_JWT_MINUTES * 60, sessionEnd);
  const jwt = signRs256(
    key.privateKey,
    { kid: key.kid, typ: 'JWT' },
    {
      [SESSION_CLAIM]: {
        id: session.member_session_id,
        started_at: session.started_at,
        last_accessed_at: session.last_accessed_at,
        expires_at: session.expires_at,
        attributes,
        authentication_factors: session.authentication_factors,
        roles: session.roles,
      },
      [ORGANIZATION_CLAIM]: {
        organization_id: organization.organization_id,
        slug: organization.organization_slug,
      },
      sub: session.member_id,
      iss: ctx.config.publicUrl,
      aud: project.id,
      iat: nowSeconds,
      nbf: nowSeconds,
      exp,
    },
  );
  rememberJwt(ctx, session.member_session_id, fingerprint, jwt, now);
  return jwt;
}
