/**
 * Password reset in discovery (§7.2, §7.3): a reset link sent to an address, not to one
 * organization's member, and the new password set with it in every membership of the address
 * that signs in with a password, answered as a discovery sign-in (result DR).
 */
import {
  isValidEmail,
  RESET_LINK_DEFAULT_MINUTES,
  type AuthenticationFactor,
  type DiscoveryResult,
  type Member,
} from '@gatehouse/protocol';
import { isoAt, type Context, type Db } from '../../context.js';
import { hashPassword } from '../../crypto/password-hash.js';
import { passwordResetEmail } from '../../delivery/templates.js';
import {
  issueLinkToken,
  peekLinkToken,
  pkceMismatch,
  redeemLinkToken,
  type RedeemFailure,
} from '../../auth/link-tokens.js';
import { allOrNothing, fail, type Failure } from '../../result.js';
import { invalidEmail } from '../../tenancy/members/errors.js';
import { membersByEmail, normalizeEmail } from '../../tenancy/members/store.js';
import { allowsAuthMethod } from '../../tenancy/organizations/service.js';
import { organizationsByIds } from '../../tenancy/organizations/store.js';
import { resolveRedirectUrl, withToken } from '../../tenancy/projects/policy.js';
import type { Project } from '../../tenancy/projects/service.js';
import { startDiscovery } from '../discovery/service.js';
import { pkceRequired } from './errors.js';
import { acceptableNewPassword } from './rules.js';
import { savePassword } from './store.js';
import { forgetGuesses } from './throttle.js';

/** Input of {@link startDiscoveryPasswordReset}, as the provider's SDKs send it. */
export interface DiscoveryResetStartInput {
  email_address: string;
  reset_password_redirect_url?: string | undefined;
  discovery_redirect_url?: string | undefined;
  reset_password_expiration_minutes?: number | undefined;
  pkce_code_challenge?: string | undefined;
  /** The language of the e-mail (docs/protocol.md §7); English when the server has no copy. */
  locale?: string | undefined;
}

/** Input of {@link resetDiscoveryPassword}. */
export interface DiscoveryResetInput {
  password_reset_token: string;
  password: string;
  pkce_code_verifier?: string | undefined;
}

/**
 * The memberships a discovery reset sets the password of: the address's active members whose
 * organization signs in with passwords, as `discovery/authenticate` checks a password against.
 */
async function resettableMembers(db: Db, project: Project, email: string): Promise<Member[]> {
  const members = (await membersByEmail(db, project.id, email)).filter(
    (m) => m.status === 'active',
  );
  const orgs = await organizationsByIds(
    db,
    project.id,
    members.map((m) => m.organization_id),
  );
  const allowing = new Set(
    orgs.filter((o) => allowsAuthMethod(o, 'password')).map((o) => o.organization_id),
  );
  return members.filter((m) => allowing.has(m.organization_id));
}

/**
 * E-mails a single-use link to the reset page (`stytch_token_type=discovery`, as the provider's
 * prebuilt UI expects) when the address has a membership a new password would sign in to. The
 * answer is the same whether or not anything was sent, so it tells no one whether the address is
 * known; only what is wrong with the request itself (an address that is not one, a redirect URL
 * off the allow-list, a missing PKCE challenge the project requires) is refused.
 *
 * @example
 * unwrap(await startDiscoveryPasswordReset(ctx, project, { email_address: 'ada@acme.test' }));
 */
export async function startDiscoveryPasswordReset(
  ctx: Context,
  project: Project,
  input: DiscoveryResetStartInput,
): Promise<Record<string, never> | Failure> {
  const email = normalizeEmail(input.email_address);
  if (!isValidEmail(email)) return invalidEmail();
  if (project.pkceRequired.password_resets && !input.pkce_code_challenge) return pkceRequired();
  const target = resolveRedirectUrl(project, 'reset_password', input.reset_password_redirect_url);
  if (!target.ok) return fail('invalid_redirect_url', target.message);
  if (input.discovery_redirect_url !== undefined) {
    const discovery = resolveRedirectUrl(project, 'discovery', input.discovery_redirect_url);
    if (!discovery.ok) return fail('invalid_redirect_url', discovery.message);
  }
  if ((await resettableMembers(ctx.db, project, email)).length === 0) return {};
  const now = ctx.now();
  const lifetime = input.reset_password_expiration_minutes ?? RESET_LINK_DEFAULT_MINUTES;
  const token = await issueLinkToken(
    ctx.db,
    {
      projectId: project.id,
      kind: 'discovery_password_reset',
      email,
      organizationId: null,
      pkceChallenge: input.pkce_code_challenge ?? null,
      lifetimeMinutes: lifetime,
    },
    now,
  );
  const link = withToken(target.url, 'discovery', token, input.locale);
  await ctx.mailer.send(email, passwordResetEmail(link, project.name, lifetime, input.locale));
  return {};
}

const TOKEN_NOT_FOUND = 'The password reset link is unknown, expired or already used.';

function tokenFailure(reason: RedeemFailure): Failure {
  return reason === 'pkce_mismatch'
    ? pkceMismatch()
    : fail('password_reset_token_not_found', TOKEN_NOT_FOUND);
}

/** A new password set from a discovery reset link: it proves control of the address too. */
function discoveryResetFactor(email: string, now: number): AuthenticationFactor {
  return {
    type: 'password',
    delivery_method: 'email',
    last_authenticated_at: isoAt(now),
    sequence_order: 'PRIMARY',
    email_factor: { email_id: '', email_address: email },
  };
}

/**
 * Sets the new password of every membership of the link's address that signs in with a
 * password (active members of organizations that allow passwords; an invited or pending
 * membership is entered through discovery and gets a password its own way), and answers result
 * DR: an IST proving the address and the organizations it reaches. The link is spent only once
 * the password is accepted: a weak password or a PKCE mismatch leaves it usable. Each password
 * set ends that member's sessions and voids their other reset links, as any new password does.
 *
 * @example
 * const found = unwrap(await resetDiscoveryPassword(ctx, project, body));
 */
export async function resetDiscoveryPassword(
  ctx: Context,
  project: Project,
  input: DiscoveryResetInput,
): Promise<Omit<DiscoveryResult, 'request_id' | 'status_code'> | Failure> {
  const peeked = await peekLinkToken(
    ctx.db,
    project.id,
    'discovery_password_reset',
    input.password_reset_token,
    input.pkce_code_verifier,
    ctx.now(),
  );
  if (typeof peeked === 'string') return tokenFailure(peeked);
  const weak = await acceptableNewPassword(ctx, project, input.password, peeked.email);
  if (weak) return weak;
  const hash = await hashPassword(input.password);

  return allOrNothing(ctx.db, async (trx) => {
    const now = ctx.now();
    // Single-use: spent in the same transaction that sets the passwords.
    const token = await redeemLinkToken(
      trx,
      project.id,
      'discovery_password_reset',
      input.password_reset_token,
      input.pkce_code_verifier,
      now,
    );
    if (typeof token === 'string') return tokenFailure(token);
    for (const member of await resettableMembers(trx, project, token.email)) {
      const memberId = member.member_id;
      const saved = { projectId: project.id, environment: project.environment, memberId, hash };
      await savePassword(trx, saved, now);
      await forgetGuesses(ctx, trx, memberId);
    }
    return startDiscovery(trx, project, token.email, [discoveryResetFactor(token.email, now)], now);
  });
}
