/**
 * One-time sign-in tokens: magic, discovery and password-reset links, and the tokens that OAuth
 * and SSO hand the app. Issued hashed, redeemed once, PKCE-bound; every sign-in method redeems
 * through {@link redeemForSignIn}, so a PKCE mismatch is answered one way.
 */
import { randomUUID } from 'node:crypto';
import { isoAt, type Db } from '../context.js';
import { hashToken, newToken, pkceMatches } from '../crypto/random.js';
import { fail, type Failure } from '../result.js';
import type { TokensTable } from '../store/schema.js';

/** The kinds of link token. */
export type LinkTokenKind =
  | 'magic_link'
  | 'discovery'
  | 'password_reset'
  | 'discovery_password_reset'
  | 'sso'
  | 'oauth'
  | 'discovery_oauth';

/** Issues a link token; returns the token itself, which only the e-mail will carry. */
export async function issueLinkToken(
  db: Db,
  input: {
    projectId: string;
    kind: LinkTokenKind;
    email: string;
    organizationId: string | null;
    pkceChallenge: string | null;
    lifetimeMinutes: number;
    /** Kind-specific JSON stored with the token (an SSO token's connection). */
    details?: string;
  },
  now: number,
): Promise<string> {
  const token = newToken();
  await db
    .insertInto('tokens')
    .values({
      id: randomUUID(),
      project_id: input.projectId,
      kind: input.kind,
      token_hash: hashToken(token),
      email: input.email,
      organization_id: input.organizationId,
      pkce_challenge: input.pkceChallenge,
      created_at: isoAt(now),
      expires_at: isoAt(now + input.lifetimeMinutes * 60_000),
      used_at: null,
      details: input.details ?? null,
    })
    .execute();
  return token;
}

/** Why a token could not be redeemed. */
export type RedeemFailure = 'not_found' | 'pkce_mismatch';

/**
 * Reads a live link token of the project and checks its PKCE binding, without using it up: for
 * checks that must pass before a token is spent (a new password's strength). Redeem it afterwards.
 */
export async function peekLinkToken(
  db: Db,
  projectId: string,
  kind: LinkTokenKind,
  token: string,
  verifier: string | undefined,
  now: number,
): Promise<TokensTable | RedeemFailure> {
  const row = await db
    .selectFrom('tokens')
    .selectAll()
    .where('token_hash', '=', hashToken(token))
    .executeTakeFirst();
  if (
    !row ||
    row.project_id !== projectId ||
    row.kind !== kind ||
    row.used_at !== null ||
    row.expires_at <= isoAt(now)
  ) {
    return 'not_found';
  }
  if (
    row.pkce_challenge !== null &&
    (verifier === undefined || !pkceMatches(verifier, row.pkce_challenge))
  ) {
    return 'pkce_mismatch';
  }
  return row;
}

/**
 * Redeems a link token of the project. Run it inside the transaction that acts on the token:
 * the conditional update marks it used for exactly one caller, and a PKCE mismatch returns
 * before that update so the token stays usable (§10).
 */
export async function redeemLinkToken(
  db: Db,
  projectId: string,
  kind: LinkTokenKind,
  token: string,
  verifier: string | undefined,
  now: number,
): Promise<TokensTable | RedeemFailure> {
  const row = await peekLinkToken(db, projectId, kind, token, verifier, now);
  if (typeof row === 'string') return row;
  const result = await db
    .updateTable('tokens')
    .set({ used_at: isoAt(now) })
    .where('id', '=', row.id)
    .where('used_at', 'is', null)
    .executeTakeFirst();
  return result.numUpdatedRows === 1n ? row : 'not_found';
}

/**
 * The answer to a verifier that does not match the token's challenge. It names `pkce`: the
 * client retries with its other verifier on that (§10). The token stays usable.
 */
export const pkceMismatch = (): Failure =>
  fail(
    'pkce_mismatch',
    'The pkce_code_verifier does not match the pkce_code_challenge this sign-in started with.',
  );

/**
 * Redeems a token for a sign-in: the token, or the failure to answer (`notFound` for an unknown,
 * expired, used or foreign one). Run it inside the transaction that acts on the token.
 *
 * @example
 * const token = await redeemForSignIn(trx, project.id, 'sso', input.sso_token, verifier, now, ssoTokenNotFound);
 * if (isFailure(token)) return token;
 */
export async function redeemForSignIn(
  db: Db,
  projectId: string,
  kind: LinkTokenKind,
  token: string,
  verifier: string | undefined,
  now: number,
  notFound: () => Failure,
): Promise<TokensTable | Failure> {
  const row = await redeemLinkToken(db, projectId, kind, token, verifier, now);
  if (row === 'pkce_mismatch') return pkceMismatch();
  if (row === 'not_found') return notFound();
  return row;
}

/**
 * Voids every live token of one kind issued to an address for an organization (or for none, a
 * discovery link: `null`), e.g. all outstanding reset links once a new password is saved: a link
 * must not outlive the password it was sent to replace. Run it in the transaction that makes them
 * obsolete.
 *
 * @example
 * await voidLinkTokens(trx, { projectId, kind: 'password_reset', email, organizationId }, now);
 */
export async function voidLinkTokens(
  db: Db,
  input: { projectId: string; kind: LinkTokenKind; email: string; organizationId: string | null },
  now: number,
): Promise<void> {
  await db
    .updateTable('tokens')
    .set({ used_at: isoAt(now) })
    .where('project_id', '=', input.projectId)
    .where('kind', '=', input.kind)
    .where('email', '=', input.email)
    .where((eb) =>
      input.organizationId === null
        ? eb('organization_id', 'is', null)
        : eb('organization_id', '=', input.organizationId),
    )
    .where('used_at', 'is', null)
    .execute();
}
