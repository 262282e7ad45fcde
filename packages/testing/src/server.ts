/**
 * The real server for browser-side suites: the server's own test harness (a temporary database,
 * docs/contributing.md habit 1) listening on a real port, since a browser client reaches it over
 * HTTP, and its MFA helpers, re-exported so client suites reach them through a package rather than
 * another package's source folder.
 *
 * @example
 * import { startHarness } from '@gatehouse/testing/server';
 * const h = await startHarness();
 * const client = createClient(h.project.public_token, { baseUrl: h.url });
 */
import {
  startHarness as startServerHarness,
  type Harness,
  type HarnessOptions,
} from '../../server/src/test/harness.js';

export type { Harness, HarnessOptions };
export { mfaOrganization, totpAt } from '../../server/src/test/mfa.js';

/**
 * Starts the server's test harness on a real loopback port (unless told `listen: false`).
 *
 * @example
 * const h = await startHarness({ config: { devInbox: true } });
 */
export function startHarness(options: HarnessOptions = {}): Promise<Harness> {
  return startServerHarness({ listen: true, ...options });
}
