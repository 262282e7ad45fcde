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
export { createAdminClient } from './admin.js';
export { defaultBootstrap } from './bootstrap.js';
export {
  GatehouseError,
  GatehouseAPIError,
  GatehouseAPISchemaError,
  GatehouseAPIUnreachableError,
  GatehouseCaptchaError,
  GatehouseUsageError,
  isUnrecoverableError,
  type GatehouseAPIErrorFields,
} from './errors.js';
export { generatePkcePair, type PkcePair } from './pkce.js';
/**
 * The server's rule for a well-formed e-mail address, for hosts that build their own forms. Calls
 * do not apply it: a malformed address is the server's 400 `invalid_email`, not a usage error.
 *
 * @example
 * if (!isValidEmail(input.value.trim())) showError('Invalid email address');
 */
export { isValidEmail } from '@gatehouse/protocol';
export type * from './types.js';
export type * from './admin-types.js';
