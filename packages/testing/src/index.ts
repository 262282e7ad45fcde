/**
 * The shared test kit of the client and the widget: wire fixtures typed by `@gatehouse/protocol`
 * and a fake `GatehouseClient`. The real server for browser-side suites is a separate entry,
 * `@gatehouse/testing/server`, so suites that only need fixtures never load the server.
 *
 * @example
 * import { createFakeClient, fullSession } from '@gatehouse/testing';
 * const client = createFakeClient();
 * client.answer('passwords.authenticate', async () => fullSession());
 */
export * from './fixtures.js';
export {
  ACK,
  TEST_BOOTSTRAP,
  apiError,
  createFakeClient,
  type ArgsOfCall,
  type FakeClient,
  type FakeMethod,
  type RecordedCall,
} from './fake-client.js';
export {
  createFakeAdminClient,
  type FakeAdminClient,
  type FakeAdminMethod,
} from './fake-admin-client.js';
