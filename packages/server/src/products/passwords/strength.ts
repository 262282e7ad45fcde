/** Password strength under a project's policy (none, zxcvbn or LUDS), as `strength_check` reports. */
import type { ZxcvbnFactory } from '@zxcvbn-ts/core';
import type { PasswordStrengthCheck } from '@gatehouse/protocol';
import type { BreachChecker } from './breach.js';
import type { PasswordPolicy } from '../../tenancy/projects/service.js';

export type { PasswordPolicy };

/** Inputs of a strength check beyond the password and the policy. */
export interface StrengthCheckOptions {
  /** The member's e-mail: its parts count as guessable words for zxcvbn. */
  email?: string;
  breachCheck: BreachChecker;
}

/** The zxcvbn score from which a password is strong enough. */
export const ZXCVBN_MIN_SCORE = 3;

/** The widget's text for a breached password (docs/widget.md §5), also used as zxcvbn's warning. */
export const BREACHED_PASSWORD_WARNING =
  'This password may have been used on a different site that experienced a security issue. Please choose another password.';

let zxcvbn: Promise<ZxcvbnFactory> | undefined;

/**
 * The estimator, loaded and built on first use: its dictionaries are about 11 MB of memory that
 * a server which never checks a password's strength should not hold (bench/RESULTS.md, "Idle
 * memory"), and loading them takes a noticeable moment.
 */
function estimator(): Promise<ZxcvbnFactory> {
  zxcvbn ??= Promise.all([
    import('@zxcvbn-ts/core'),
    import('@zxcvbn-ts/language-common'),
    import('@zxcvbn-ts/language-en'),
  ]).then(
    ([core, common, english]) =>
      new core.ZxcvbnFactory({
        dictionary: { ...common.dictionary, ...english.dictionary },
        graphs: common.adjacencyGraphs,
        translations: english.translations,
      }),
  );
  return zxcvbn;
}

/**
 * Rates a password under the project's policy. A breached password is never valid.
 *
 * - `zxcvbn`: valid when the score is at least 3.
 * - `luds`: valid when the password has `luds_minimum_count` characters and `luds_complexity` of
 *   the four classes (lower case, upper case, digit, symbol).
 * - `none`: any password that is not breached is valid. The result still reports zxcvbn (score
 *   and feedback) as `strength_policy`, because the wire format has no "none" value and a strength
 *   meter is still useful to whoever shows one.
 *
 * Both feedback objects are always filled in, whatever the policy.
 *
 * @example
 * const result = await checkPasswordStrength('hunter2', project.passwordPolicy, {
 *   email: 'ada@example.com',
 *   breachCheck: offlineBreachChecker(),
 * });
 * if (!result.valid_password) return weakPassword();
 */
export async function checkPasswordStrength(
  password: string,
  policy: PasswordPolicy,
  options: StrengthCheckOptions,
): Promise<PasswordStrengthCheck> {
  const breached = await options.breachCheck.isBreached(password);
  const estimate = (await estimator()).check(password, emailWords(options.email));
  const luds = ludsFeedback(password, policy);

  let strong: boolean;
  switch (policy.strength_policy) {
    case 'zxcvbn':
      strong = estimate.score >= ZXCVBN_MIN_SCORE;
      break;
    case 'luds':
      strong = luds.missing_characters === 0 && luds.missing_complexity === 0;
      break;
    case 'none':
      strong = true;
      break;
  }

  return {
    valid_password: strong && !breached,
    score: estimate.score,
    breached_password: breached,
    breach_detection_on_create: true,
    strength_policy: policy.strength_policy === 'luds' ? 'luds' : 'zxcvbn',
    zxcvbn_feedback: {
      // A breach outweighs whatever zxcvbn found to say, and explains why a high score is refused.
      warning: breached ? BREACHED_PASSWORD_WARNING : (estimate.feedback.warning ?? ''),
      suggestions: estimate.feedback.suggestions,
    },
    luds_feedback: luds,
  };
}

/** The LUDS classes present in a password, and what is missing under the policy. */
function ludsFeedback(
  password: string,
  policy: PasswordPolicy,
): PasswordStrengthCheck['luds_feedback'] {
  const has_lower_case = /\p{Ll}/u.test(password);
  const has_upper_case = /\p{Lu}/u.test(password);
  const has_digit = /\p{Nd}/u.test(password);
  // Anything that is neither a letter nor a number (spaces included) counts as a symbol.
  const has_symbol = /[^\p{L}\p{N}]/u.test(password);
  const classes = [has_lower_case, has_upper_case, has_digit, has_symbol].filter(Boolean).length;
  // Characters are code points, so an emoji counts once.
  const length = [...password].length;
  return {
    has_lower_case,
    has_upper_case,
    has_digit,
    has_symbol,
    missing_complexity: Math.max(0, policy.luds_complexity - classes),
    missing_characters: Math.max(0, policy.luds_minimum_count - length),
  };
}

/** The e-mail's local part, its pieces and the domain, as words an attacker would try first. */
function emailWords(email: string | undefined): string[] {
  if (!email) return [];
  const at = email.lastIndexOf('@');
  const local = (at < 0 ? email : email.slice(0, at)).toLowerCase();
  const domain = at < 0 ? '' : email.slice(at + 1).toLowerCase();
  const words = [local, ...local.split(/[._+-]+/), domain, ...domain.split('.').slice(0, -1)];
  return [...new Set(words.filter((word) => word.length >= 2))];
}
