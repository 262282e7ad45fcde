/**
 * The demo host app, started by `npm start` and by the browser tests.
 *
 * @example
 * import { startDemo } from '@gatehouse/demo';
 * const demo = await startDemo({ port: 0, dataDir: '/tmp/demo' });
 */
export { startDemo, type DemoHandle, type DemoOptions } from './demo.js';
export { DEMO_ADMIN_EMAIL, DEMO_ORG_DOMAIN, DEMO_ORG_NAME, DEMO_ORG_SLUG } from './seed.js';
