/** A project's password rules applied: the strength check with the server's breach checkers, and its refusal message. */
import type { PasswordStrengthCheck } from '@gatehouse/protocol';
import type { Context } from '../../context.js';
import type { Project } from '../../tenancy/projects/service.js';
import { fail, type Failure } from '../../result.js';
import {
  combinedBreachChecker,
  offlineBreachChecker,
  rangeBreachChecker,
  type BreachChecker,
} from './breach.js';
import {
  BREACHED_PASSWORD_WARNING,
  checkPasswordStrength,
  type PasswordPolicy,
} from './strength.js';

/** How long the range API may take before the offline list answers alone. */
const RANGE_API_TIMEOUT_MS = 2_000;

const checkers = new WeakMap<Context, BreachChecker>();

/** The server's breach checker: the offline list, then the range API when one is configured. */
function breachChecker(ctx: Context): BreachChecker {
  let checker = checkers.get(ctx);
  if (!checker) {
    const offline = offlineBreachChecker();
    const url = ctx.config.passwordBreachRangeUrl;
    checker = url
      ? combinedBreachChecker(offline, rangeBreachChecker(url, { timeoutMs: RANGE_API_TIMEOUT_MS }))
      : offline;
    checkers.set(ctx, checker);
  }
  return checker;
}

/**
 * Rates a password under the project's policy, breach checks included.
 *
 * @example
 * const check = await strengthFor(ctx, project, 'hunter2', 'ada@acme.test');
 */
export function strengthFor(
  ctx: Context,
  project: Project,
  password: string,
  email: string | undefined,
): Promise<PasswordStrengthCheck> {
  return checkPasswordStrength(password, project.passwordPolicy, {
    ...(email ? { email } : {}),
    breachCheck: breachChecker(ctx),
  });
}

/**
 * Why a password is refused, in words a member can act on: the breach, the LUDS shortfall or
 * zxcvbn's warning.
 */
export function weakPasswordMessage(check: PasswordStrengthCheck, policy: PasswordPolicy): string {
  if (check.breached_password) return BREACHED_PASSWORD_WARNING;
  if (policy.strength_policy === 'luds') {
    const { missing_characters: characters, missing_complexity: classes } = check.luds_feedback;
    const needs: string[] = [];
    if (characters > 0) {
      needs.push(`${characters} more character${characters === 1 ? '' : 's'}`);
    }
    if (classes > 0) {
      needs.push(
        `${classes} more of these kinds of character: uppercase letter, lowercase letter, number, symbol`,
      );
    }
    return (
      `The password must be at least ${policy.luds_minimum_count} characters long and contain ` +
      `${policy.luds_complexity} of the following: uppercase letter, lowercase letter, number, ` +
      `symbol. It needs ${needs.join(' and ')}.`
    );
  }
  // zxcvbn's warning and suggestions are whole sentences already.
  const { warning, suggestions } = check.zxcvbn_feedback;
  return ['The password is too easy to guess.', warning, ...suggestions].filter(Boolean).join(' ');
}

/**
 * Checks a new password against the project's rules: null when it may be used, else the
 * `weak_password` failure that explains why not. A breached password is never accepted.
 */
export async function acceptableNewPassword(
  ctx: Context,
  project: Project,
  password: string,
  email: string,
): Promise<Failure | null> {
  const check = await strengthFor(ctx, project, password, email);
  return check.valid_password
    ? null
    : fail('weak_password', weakPasswordMessage(check, project.passwordPolicy));
}
