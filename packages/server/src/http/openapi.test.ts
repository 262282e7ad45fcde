// The OpenAPI document is generated from the endpoint table, served, matches the routes that
// exist, and is the one checked in under docs/api/.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../test/harness.js';
import { gatehouseOpenApi } from './openapi.js';
import { apiReference } from './openapi-reference.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h.close();
});

const docsApi = new URL('../../../../docs/api/', import.meta.url);

/** `METHOD /path` of every operation of a document, paths back in Fastify's `:name` form. */
function operations(document: Record<string, unknown>): string[] {
  const paths = document.paths as Record<string, Record<string, unknown>>;
  return Object.entries(paths).flatMap(([path, ops]) =>
    Object.keys(ops).map((m) => `${m.toUpperCase()} ${path.replace(/\{(\w+)\}/g, ':$1')}`),
  );
}

describe('the OpenAPI document', () => {
  it('is served at /openapi.json', async () => {
    const res = await h.request('/openapi.json', { authorization: null, origin: null });
    expect(res.status).toBe(200);
    expect(res.body).toEqual(gatehouseOpenApi());
  });

  it('lists exactly the routes the server registers (besides the dev inbox)', () => {
    const registered = [...h.app.gatehouseRoutes]
      // HEAD is added by Fastify for every GET; preflights are answered by the CORS hook.
      .filter((r) => !r.startsWith('HEAD ') && !r.startsWith('OPTIONS '))
      .filter((r) => !r.includes(' /_dev/'))
      .sort();
    expect(operations(gatehouseOpenApi()).sort()).toEqual(registered);
  });

  it('describes request bodies with their constraints', () => {
    const paths = gatehouseOpenApi().paths as Record<string, Record<string, unknown>>;
    expect(paths['/sdk/v1/b2b/organizations/search']?.post).toMatchObject({
      requestBody: {
        content: {
          'application/json': {
            schema: {
              required: ['organization_slug'],
              properties: { organization_slug: { type: 'string', maxLength: 128 } },
            },
          },
        },
      },
    });
    expect(paths['/v1/b2b/organizations/{organization_id}/members/{member_id}']?.get).toMatchObject(
      {
        parameters: [{ name: 'organization_id' }, { name: 'member_id' }],
        security: [{ secretKey: [] }],
      },
    );
  });

  it('is the one checked in under docs/api/ (regenerate with `npm run docs:api`)', () => {
    const stored = JSON.parse(readFileSync(new URL('openapi.json', docsApi), 'utf8')) as unknown;
    expect(stored).toEqual(gatehouseOpenApi());
    expect(readFileSync(new URL('README.md', docsApi), 'utf8')).toBe(apiReference());
  });
});
