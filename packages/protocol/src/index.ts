/**
 * The Gatehouse wire contract: the single source of entity, request and response types, error
 * types and constants shared by the server, the client and the widget. No I/O.
 *
 * @example
 * import { ERROR_STATUS, type Organization } from '@gatehouse/protocol';
 */
export * from './errors.js';
export * from './email.js';
export * from './constants.js';
export * from './tokens.js';
export * from './entities.js';
export * from './api.js';
export * from './paths.js';
export * from './subsets.js';
export * from './sso.js';
export * from './oauth.js';
export * from './captcha.js';
export * from './domains.js';
export * from './session-list.js';
