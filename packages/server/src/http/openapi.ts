/** Serves the OpenAPI document generated from the endpoint table, and records what is registered. */
import { ENDPOINTS, openApiDocument } from '@gatehouse/protocol/endpoints';
import type { FastifyInstance } from 'fastify';
import { rawRoute } from './route.js';

/** The document, as served at `/openapi.json` and checked in under `docs/api/`. */
export function gatehouseOpenApi(): Record<string, unknown> {
  return openApiDocument(ENDPOINTS, { title: 'Gatehouse', version: '0.1.0' });
}

/**
 * Serves `GET /openapi.json`; built once, on the first request.
 *
 * @example
 * registerOpenApi(app);
 */
export function registerOpenApi(app: FastifyInstance): void {
  let document: Record<string, unknown> | null = null;
  rawRoute(app, ENDPOINTS.openApi, async () => (document ??= gatehouseOpenApi()));
}
