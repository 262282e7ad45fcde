/**
 * The real server for browser-side suites: the server's own test harness (a real port over a
 * temporary database, docs/contributing.md habit 1) and its MFA helpers, re-exported so client
 * suites reach them through a package rather than another package's source folder.
 *
 * @example
 * import { startHarness } from '@gatehouse/testing/server';
 * const h = await startHarness();
 * const client = createClient(h.project.public_token, { baseUrl: h.url });
 */
export { startHarness, type Harness } from '../../server/src/test/harness.js';
export { mfaOrganization, totpAt } from '../../server/src/test/mfa.js';
