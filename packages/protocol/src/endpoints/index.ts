/**
 * The endpoint table: every endpoint of the SDK API and the management API, with its method,
 * path, credential, request schema (zod) and response type. The server registers its routes from
 * it, the client derives its argument types from it, and the OpenAPI document is generated from
 * it. A separate entry (`@gatehouse/protocol/endpoints`) so that browser bundles, which need only
 * the types, never carry the schemas.
 *
 * @example
 * import { ENDPOINTS, type RequestOf } from '@gatehouse/protocol/endpoints';
 * const body: RequestOf<typeof ENDPOINTS.organizationsSearch> = { organization_slug: 'acme' };
 */
import { endpoint } from './endpoint.js';
import { BACKEND_FACTOR_ENDPOINTS } from './backend-factors.js';
import { BACKEND_LINK_ENDPOINTS } from './backend-links.js';
import { BACKEND_ORGANIZATION_ENDPOINTS } from './backend-organizations.js';
import { BACKEND_PASSWORD_ENDPOINTS } from './backend-passwords.js';
export { MIGRATE_HASH_CONFIG } from './backend-passwords.js';
import { CAPTCHA_ENDPOINTS } from './captcha.js';
import { DOMAIN_ENDPOINTS } from './domains.js';
import { MANAGEMENT_ENDPOINTS } from './management.js';
import { NAVIGATION_ENDPOINTS } from './navigation.js';
import { OAUTH_ENDPOINTS } from './oauth.js';
import { PASSWORD_DISCOVERY_ENDPOINTS } from './password-discovery.js';
import { RBAC_ENDPOINTS } from './rbac.js';
import { SDK_ENDPOINTS } from './sdk.js';
import { SSO_ENDPOINTS } from './sso.js';
import { SESSION_LIST_ENDPOINTS } from './session-list.js';

/** The JWKS of session JWTs, for host backends verifying JWTs themselves. */
const jwks = endpoint<{ keys: Record<string, unknown>[] }>()({
  method: 'GET',
  path: '/.well-known/jwks.json',
  credential: 'none',
  summary: 'The public keys that session JWTs are signed with.',
  body: null,
});

/**
 * The same keys, served per project where the hosted provider's backend SDKs fetch them, with
 * `request_id` and `status_code` beside `keys` as its backend API answers.
 */
const jwksByProject = endpoint<{
  keys: Record<string, unknown>[];
  request_id: string;
  status_code: 200;
}>()({
  method: 'GET',
  path: '/v1/b2b/sessions/jwks/:project_id',
  credential: 'none',
  summary: 'The public keys that session JWTs of a project are signed with.',
  body: null,
});

/** This table as an OpenAPI document. */
const openApi = endpoint<Record<string, unknown>>()({
  method: 'GET',
  path: '/openapi.json',
  credential: 'none',
  summary: 'The OpenAPI document of the SDK API and the management API.',
  body: null,
});

/** Liveness: the process is up and answering. */
const healthz = endpoint<{ status: 'ok' }>()({
  method: 'GET',
  path: '/healthz',
  credential: 'none',
  summary: 'Liveness: the process answers.',
  body: null,
});

/**
 * Readiness: the database answers and its schema is current. `smtp` says whether e-mail goes
 * out, without deciding readiness: `ok` or `failing` (with a short cause) as of `checked_at`,
 * `checking` before the first answer, `dev_inbox` without SMTP.
 */
const readyz = endpoint<{
  status: 'ready';
  smtp:
    | { state: 'dev_inbox' | 'checking' }
    | { state: 'ok'; checked_at: string }
    | { state: 'failing'; error: string; checked_at: string };
}>()({
  method: 'GET',
  path: '/readyz',
  credential: 'none',
  summary: 'Readiness: the database answers and every migration is applied (503 otherwise).',
  body: null,
});

/**
 * Prometheus metrics in the text exposition format: for callers on the server's own machine, or
 * anywhere with the configured metrics token as `Authorization: Bearer`.
 */
const metrics = endpoint<string>()({
  method: 'GET',
  path: '/metrics',
  credential: 'none',
  summary:
    'Prometheus metrics (text format). Loopback callers only, unless a metrics token is ' +
    'configured and sent as Authorization: Bearer (401/403 otherwise).',
  body: null,
});

/** The page every error body's `error_url` points at. */
const errorReference = endpoint<string>()({
  method: 'GET',
  path: '/docs/errors',
  credential: 'none',
  summary: 'An HTML page describing every error_type (the target of error_url).',
  body: null,
});

/** The phone-parsing page the published UI frames (docs/protocol.md §12), and its library. */
const servicesPage = endpoint<string>()({
  method: 'GET',
  path: '/clientside-services/index.html',
  credential: 'none',
  summary:
    'The phone-parsing page (§12): answers parsedPhoneNumber over a MessageChannel; frameable by the projects’ authorized origins only.',
  body: null,
});
const servicesPageLibrary = endpoint<string>()({
  method: 'GET',
  path: '/clientside-services/libphonenumber.js',
  credential: 'none',
  summary: 'libphonenumber-js for the phone-parsing page.',
  body: null,
});

export const ENDPOINTS = {
  ...SDK_ENDPOINTS,
  ...MANAGEMENT_ENDPOINTS,
  ...BACKEND_FACTOR_ENDPOINTS,
  ...BACKEND_PASSWORD_ENDPOINTS,
  ...PASSWORD_DISCOVERY_ENDPOINTS,
  ...BACKEND_ORGANIZATION_ENDPOINTS,
  ...BACKEND_LINK_ENDPOINTS,
  ...NAVIGATION_ENDPOINTS,
  ...SSO_ENDPOINTS,
  ...OAUTH_ENDPOINTS,
  ...RBAC_ENDPOINTS,
  ...SESSION_LIST_ENDPOINTS,
  ...CAPTCHA_ENDPOINTS,
  ...DOMAIN_ENDPOINTS,
  jwks,
  jwksByProject,
  openApi,
  healthz,
  readyz,
  metrics,
  errorReference,
  servicesPage,
  servicesPageLibrary,
} as const;
export type EndpointName = keyof typeof ENDPOINTS;

export { SDK_ENDPOINTS, MAX_EVENTS_PER_BATCH } from './sdk.js';
export { MANAGEMENT_ENDPOINTS, projectSettingsFields } from './management.js';
export {
  SEARCH_LIMIT_DEFAULT,
  memberLookupFields,
  memberSearchFields,
  organizationSearchFields,
} from './backend-organizations.js';
export { sessionsGetFields } from './backend-factors.js';
export { allowedOAuthTenants } from './fields.js';
export { NAVIGATION_ENDPOINTS } from './navigation.js';
export { OAUTH_ENDPOINTS, oauthProviderFields } from './oauth.js';
export { CAPTCHA_ENDPOINTS, captchaSettingsFields } from './captcha.js';
export {
  SSO_ENDPOINTS,
  oidcConnectionFields,
  samlConnectionFields,
  samlMetadataFields,
} from './sso.js';
export {
  RBAC_ENDPOINTS,
  RBAC_ACTION_PATTERN,
  RBAC_ID_PATTERN,
  emailRoleAssignments,
  rbacPolicyFields,
  rbacResourceFields,
  rbacRoleFields,
} from './rbac.js';
export * from './endpoint.js';
export * as fields from './fields.js';
export { openApiDocument } from './openapi.js';
