// The endpoint table's credentials are enforced: every endpoint that declares one refuses a caller
// without it with 401, before it looks at the body, whatever its handler does.
import { ENDPOINTS, type Endpoint } from '@gatehouse/protocol/endpoints';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { basic, startHarness, type Harness } from '../test/harness.js';
import { rawRoute, type OpenEndpoint } from './route.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h.close();
});

const GUARDED = Object.entries(ENDPOINTS as Record<string, Endpoint>).filter(
  ([, e]) => e.credential !== 'none',
);

/** The endpoint's path with each `:name` filled in; `public_token` with the value given. */
function pathOf(e: Endpoint, publicToken = 'public-token-unknown'): string {
  return e.path.replace(/:([A-Za-z_]+)/g, (_, name: string) =>
    encodeURIComponent(name === 'public_token' ? publicToken : `${name}-x`),
  );
}

/**
 * Calls an endpoint with the given `Authorization` and, when it takes one, a body no schema
 * accepts: only a refusal before validation answers 401.
 */
async function send(e: Endpoint, authorization: string | null, publicToken?: string) {
  const res = await h.request(pathOf(e, publicToken), {
    method: e.method,
    authorization,
    ...(e.body === null ? {} : { body: { unexpected: [] } }),
  });
  return [res.status, res.error?.error_type];
}

describe('every endpoint with a credential', () => {
  it('covers the table: SDK, session and management endpoints alike', () => {
    const kinds = new Set(GUARDED.map(([, e]) => e.credential));
    expect([...kinds].sort()).toEqual(['A', 'I', 'S', 'secret']);
  });

  it.each(GUARDED)('%s refuses a call without credentials with 401', async (_name, e) => {
    expect(await send(e, null)).toEqual([401, 'unauthorized_credentials']);
  });

  it.each(GUARDED)('%s refuses the wrong kind of credential with 401', async (_name, e) => {
    const { project_id, public_token, secret } = h.project;
    if (e.credential === 'secret') {
      // The public token, as the SDK sends it, is no secret key.
      expect(await send(e, basic(public_token, public_token))).toEqual([
        401,
        'unauthorized_credentials',
      ]);
    } else {
      // A secret key where the public token belongs (in Authorization, or in the path).
      expect(await send(e, basic(project_id, secret), secret)).toEqual([
        401,
        'unauthorized_credentials',
      ]);
    }
  });

  it.each(GUARDED.filter(([, e]) => e.credential === 'S'))(
    '%s refuses the public token without a session with 401',
    async (_name, e) => {
      const { public_token } = h.project;
      expect(await send(e, basic(public_token, public_token))).toEqual([
        401,
        'unauthorized_credentials',
      ]);
    },
  );
});

describe('rawRoute', () => {
  it('refuses to register an endpoint that declares a credential', () => {
    const app = Fastify();
    // The type refuses it too; a cast must not open an unauthenticated route.
    const guarded = ENDPOINTS.getProject as unknown as OpenEndpoint;
    expect(() => rawRoute(app, guarded, async () => ({}))).toThrow(/needs route\(\)/);
  });
});
