/** Breached-password checks: an offline common-password list and a k-anonymity range API. */
import { createHash } from 'node:crypto';

/** Says whether a password is known to have leaked. */
export interface BreachChecker {
  isBreached(password: string): Promise<boolean>;
}

let commonPasswords: Promise<Set<string>> | undefined;

/**
 * The lower-cased common-password list, loaded and built on first use (about 50 000 entries, part
 * of zxcvbn's dictionaries, which an idle server does not hold).
 */
function commonPasswordSet(): Promise<Set<string>> {
  commonPasswords ??= import('@zxcvbn-ts/language-common').then(
    ({ dictionary }) => new Set(dictionary['passwords-common'].map((p) => p.toLowerCase())),
  );
  return commonPasswords;
}

/**
 * Checks against the list of the most common leaked passwords shipped with zxcvbn-ts
 * (case-insensitive exact match). Needs no network, so it always answers.
 *
 * @example
 * await offlineBreachChecker().isBreached('Password'); // true
 */
export function offlineBreachChecker(): BreachChecker {
  return {
    async isBreached(password) {
      return (await commonPasswordSet()).has(password.toLowerCase());
    },
  };
}

/** Options of {@link rangeBreachChecker}. */
export interface RangeBreachCheckerOptions {
  /** How long to wait for the range API before falling back to the offline list. */
  timeoutMs: number;
  /** The fetch implementation; the global one by default. */
  fetch?: typeof fetch;
}

/**
 * Checks against a k-anonymity range API (the "Pwned Passwords" protocol): only the first five
 * hex digits of the password's SHA-1 leave the server (`GET {baseUrl}/range/{prefix}` with
 * `Add-Padding: true`), and the match on the remaining 35 digits happens here. Padding lines
 * (count 0) are ignored.
 *
 * If the API cannot be reached, times out or answers anything but a 2xx, the answer is that of
 * {@link offlineBreachChecker}: sign-up keeps working while the API is down, and the most common
 * passwords are still refused. The failure is not reported: the check is best-effort by design.
 *
 * @example
 * const checker = rangeBreachChecker('https://api.pwnedpasswords.com', { timeoutMs: 2000 });
 * await checker.isBreached('P@ssw0rd'); // true
 */
export function rangeBreachChecker(
  baseUrl: string,
  options: RangeBreachCheckerOptions,
): BreachChecker {
  const base = baseUrl.replace(/\/+$/, '');
  const fetchImpl = options.fetch ?? fetch;
  const offline = offlineBreachChecker();

  return {
    async isBreached(password) {
      const digest = createHash('sha1').update(password, 'utf8').digest('hex').toUpperCase();
      const prefix = digest.slice(0, 5);
      const suffix = digest.slice(5);
      let body: string;
      try {
        const response = await fetchImpl(`${base}/range/${prefix}`, {
          headers: { 'Add-Padding': 'true', Accept: 'text/plain' },
          signal: AbortSignal.timeout(options.timeoutMs),
        });
        if (!response.ok) return offline.isBreached(password);
        body = await response.text();
      } catch {
        return offline.isBreached(password);
      }
      return rangeContains(body, suffix);
    },
  };
}

/** Finds `suffix` with a positive count among the `SUFFIX:COUNT` lines of a range response. */
function rangeContains(body: string, suffix: string): boolean {
  for (const line of body.split(/\r?\n/)) {
    const separator = line.indexOf(':');
    if (separator < 0) continue;
    if (line.slice(0, separator).trim().toUpperCase() !== suffix) continue;
    const count = Number.parseInt(line.slice(separator + 1).trim(), 10);
    // Padding entries are decoys with a count of 0.
    if (count > 0) return true;
  }
  return false;
}

/**
 * A checker that reports a breach when any of `checkers` does. They are asked in order and the
 * first "breached" answer wins, so put the cheap ones first.
 *
 * @example
 * combinedBreachChecker(offlineBreachChecker(), rangeBreachChecker(url, { timeoutMs: 2000 }));
 */
export function combinedBreachChecker(...checkers: BreachChecker[]): BreachChecker {
  return {
    async isBreached(password) {
      for (const checker of checkers) {
        if (await checker.isBreached(password)) return true;
      }
      return false;
    },
  };
}
