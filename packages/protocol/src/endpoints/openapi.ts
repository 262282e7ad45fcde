/** Generates the OpenAPI 3.1 document of the endpoint table. */
import { z } from 'zod';
import type { Endpoint } from './endpoint.js';

const SECURITY: Record<Endpoint['credential'], Record<string, string[]>[] | undefined> = {
  A: [{ publicToken: [] }],
  S: [{ session: [] }],
  I: [{ session: [] }, { publicToken: [] }],
  secret: [{ secretKey: [] }],
  none: [],
};

const CREDENTIAL_NOTE: Record<Endpoint['credential'], string> = {
  A: 'Anonymous: the public token in Basic `Authorization` (`public_token:public_token`).',
  S: 'A session: Basic `Authorization` as `public_token:session_token`.',
  I: 'An intermediate session token in the body, or a session in `Authorization`.',
  secret: 'The project secret: Basic `Authorization` as `project_id:secret`.',
  none: 'No credentials.',
};

/** `/a/:b/c` → `/a/{b}/c`. */
function openApiPath(path: string): string {
  return path.replace(/:([A-Za-z_]+)/g, '{$1}');
}

const ERROR_BODY = {
  type: 'object',
  required: ['status_code', 'request_id', 'error_type', 'error_message', 'error_url'],
  properties: {
    status_code: { type: 'integer' },
    request_id: { type: 'string' },
    error_type: { type: 'string' },
    error_message: { type: 'string' },
    error_url: { type: 'string' },
    body: { type: 'array', items: { type: 'object' } },
  },
};

const CAPTCHA_NOTE =
  'A `D` call: when the project has captcha on, the body carries `captcha_token` (a token the ' +
  'captcha provider issued for the action `LOGIN`), checked before anything else.';

/**
 * The OpenAPI document of a table of endpoints: one operation per entry, its request body's JSON
 * Schema drawn from the zod schema, its credential as a security requirement.
 *
 * @example
 * const doc = openApiDocument(ENDPOINTS, { title: 'Gatehouse', version: '0.1.0' });
 */
export function openApiDocument(
  endpoints: Readonly<Record<string, Endpoint>>,
  info: { title: string; version: string },
): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const [name, e] of Object.entries(endpoints)) {
    const params = [...e.path.matchAll(/:([A-Za-z_]+)/g)].map((m) => ({
      name: m[1],
      in: 'path',
      required: true,
      schema: { type: 'string' },
    }));
    const operation: Record<string, unknown> = {
      operationId: name,
      summary: e.summary,
      description: e.captcha
        ? `${CREDENTIAL_NOTE[e.credential]} ${CAPTCHA_NOTE}`
        : CREDENTIAL_NOTE[e.credential],
      security: SECURITY[e.credential],
      ...(params.length > 0 ? { parameters: params } : {}),
      ...(e.body
        ? {
            requestBody: {
              required: true,
              content: {
                'application/json': { schema: z.toJSONSchema(e.body, { io: 'input' }) },
              },
            },
          }
        : {}),
      responses: {
        '200': {
          description:
            e.credential === 'secret'
              ? 'Success: the fields flat beside `request_id` and `status_code`.'
              : 'Success: `{"data": {…}}`.',
          content: { 'application/json': { schema: { type: 'object' } } },
        },
        default: {
          description: 'An error: the flat error body.',
          content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
        },
      },
    };
    const path = openApiPath(e.path);
    paths[path] = { ...paths[path], [e.method.toLowerCase()]: operation };
  }
  return {
    openapi: '3.1.0',
    info,
    paths,
    components: {
      schemas: { Error: ERROR_BODY },
      securitySchemes: {
        publicToken: { type: 'http', scheme: 'basic' },
        session: { type: 'http', scheme: 'basic' },
        secretKey: { type: 'http', scheme: 'basic' },
      },
    },
  };
}
