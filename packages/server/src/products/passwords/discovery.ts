/**
 * Password sign-in in discovery (§7.2, §7.3): an address and a password, checked against every
 * membership of the address that has a password, answered with an intermediate session token
 * and the organizations the address reaches, as a discovery link's redemption answers.
 */
import { isValidEmail, type DiscoveryResult } from '@gatehouse/protocol';
import type { Context } from '../../context.js';
import { isCurrentHash, verifyAgainstDummy, verifyPassword } from '../../crypto/password-hash.js';
import { fail, type Failure } from '../../result.js';
import { transaction } from '../../store/transaction.js';
import { invalidEmail } from '../../tenancy/members/errors.js';
import { membersByEmail, normalizeEmail } from '../../tenancy/members/store.js';
import { allowsAuthMethod } from '../../tenancy/organizations/service.js';
import { organizationsByIds } from '../../tenancy/organizations/store.js';
import type { Project } from '../../tenancy/projects/service.js';
import { startDiscovery } from '../discovery/service.js';
import { passwordFactor } from './factors.js';
import { INVALID_CREDENTIALS_MESSAGE } from './service.js';
import { storedPassword } from './store.js';
import { reserveDiscoveryGuess, settleGuess } from './throttle.js';
import { resetRequired } from './errors.js';

/** The stored passwords a discovery guess is checked against: active members, passwords allowed. */
async function candidatePasswords(ctx: Context, project: Project, email: string) {
  const members = (await membersByEmail(ctx.db, project.id, email)).filter(
    (m) => m.status === 'active',
  );
  const orgs = await organizationsByIds(
    ctx.db,
    project.id,
    members.map((m) => m.organization_id),
  );
  const allowing = new Set(
    orgs.filter((o) => allowsAuthMethod(o, 'password')).map((o) => o.organization_id),
  );
  const stored = await Promise.all(
    members
      .filter((m) => allowing.has(m.organization_id))
      .map(async (m) => {
        const password = await storedPassword(ctx.db, m.member_id);
        return password && { ...password, organizationId: m.organization_id };
      }),
  );
  return stored.filter((p) => p !== null);
}

/**
 * Checks `password` against the address's memberships and starts discovery when one accepts it:
 * result DR with an IST carrying a password factor. A wrong password, an unknown address and an
 * address without a password fail alike, with the message of a password sign-in, after argon2
 * work of the same length: the checks run side by side, and an address with none is checked
 * against a dummy hash. Guesses are throttled per address typed, as sign-ins are.
 *
 * @example
 * const found = unwrap(await discoverByPassword(ctx, project, body, request.ip));
 */
export async function discoverByPassword(
  ctx: Context,
  project: Project,
  input: { email_address: string; password: string },
  clientIp: string,
): Promise<Omit<DiscoveryResult, 'request_id' | 'status_code'> | Failure> {
  const email = normalizeEmail(input.email_address);
  if (!isValidEmail(email)) return invalidEmail();
  // Counted before the check and compared after: concurrent guesses cannot all be checked.
  const guess = await reserveDiscoveryGuess(ctx, project, email, clientIp);
  if ('failure' in guess) return guess;
  const candidates = await candidatePasswords(ctx, project, email);
  const verdicts = await Promise.all(
    candidates.map(async (stored) => {
      const { valid } = await verifyPassword(stored.hash, input.password);
      // An imported hash checks faster: a refusal costs at least an unknown address's time.
      if (!valid && !isCurrentHash(stored.hash)) await verifyAgainstDummy(input.password);
      return valid ? (stored.resetRequired ? 'reset' : 'valid') : 'wrong';
    }),
  );
  if (candidates.length === 0) await verifyAgainstDummy(input.password);
  if (!verdicts.includes('valid') && !verdicts.includes('reset'))
    return fail('unauthorized_credentials', INVALID_CREDENTIALS_MESSAGE);
  // A password the project required be reset discovers nothing, even where it is right.
  if (!verdicts.includes('valid')) {
    await settleGuess(ctx, ctx.db, guess);
    return resetRequired();
  }
  // A typed password proves the secret of the memberships that accept it, not the address
  // (docs/security.md, "Factors across organizations"): the IST counts it in each organization
  // whose member it is the password of, and in no other.
  const accepting = candidates
    .filter((_, i) => verdicts[i] === 'valid')
    .map((c) => c.organizationId);
  // Not allOrNothing: nothing here returns a failure; the IST is written atomically, and the
  // right guess given back in the same commit.
  return transaction(ctx.db, async (trx) => {
    const now = ctx.now();
    await settleGuess(ctx, trx, guess);
    return startDiscovery(trx, project, email, [passwordFactor(now)], now, null, accepting);
  });
}
