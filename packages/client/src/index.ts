/**
 * The Gatehouse headless browser client: sign-in calls, the session store with refresh and
 * cross-tab sync, PKCE, bootstrap, telemetry and client-side RBAC.
 *
 * @example
 * import { createClient } from '@gatehouse/client';
 * const client = createClient('public-token-test-…', { baseUrl: 'https://auth.example.com' });
 * client.session.subscribe(() => render(client.session.getSnapshot()));
 */
export { createClient } from './client.js';
export {
  GatehouseError,
  GatehouseAPIError,
  GatehouseAPISchemaError,
  GatehouseAPIUnreachableError,
  GatehouseUsageError,
  isUnrecoverableError,
  type GatehouseAPIErrorFields,
} from './errors.js';
export { generatePkcePair, type PkcePair } from './pkce.js';
export type * from './types.js';
