/**
 * The Gatehouse auth server: `createServer` builds a ready Fastify instance serving the SDK API,
 * the management API and the dev inbox; `configFromEnv` reads its settings from the environment.
 *
 * @example
 * import { createServer, configFromEnv } from '@gatehouse/server';
 * const app = await createServer(configFromEnv());
 * const project = await app.gatehouse.createProject({ name: 'Demo' });
 * await app.listen({ port: 3000 });
 */
export { createServer } from './http/app.js';
export { configFromEnv, type ServerConfig, type SmsConfig } from './config.js';
export { applyPagePolicy, type PagePolicy } from './http/security-headers.js';
export type { LogDestination } from './http/logging.js';
export type { Admin } from './products/management/admin.js';
export type { OrganizationPatch } from './tenancy/organizations/update.js';
export type { MemberMfaPatch } from './products/members/service.js';
export type { OutboxMessage } from './delivery/outbox.js';
export { PASSWORD_HASH_PARAMS } from './crypto/password-hash.js';
/** What a sign-in's floor costs (`bench/signin-floor.ts`): the password check and the signature. */
export { hashPassword, verifyPassword } from './crypto/password-hash.js';
export { signRs256 } from './crypto/jwt-sign.js';
export { threadPoolSize } from './threadpool.js';
