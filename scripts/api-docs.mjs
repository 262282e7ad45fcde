// Writes docs/api/openapi.json and docs/api/README.md from the endpoint table (needs the build).
import { mkdirSync, writeFileSync } from 'node:fs';
import { gatehouseOpenApi } from '../packages/server/dist/http/openapi.js';
import { apiReference } from '../packages/server/dist/http/openapi-reference.js';

const dir = new URL('../docs/api/', import.meta.url);
mkdirSync(dir, { recursive: true });
writeFileSync(new URL('openapi.json', dir), `${JSON.stringify(gatehouseOpenApi(), null, 2)}\n`);
writeFileSync(new URL('README.md', dir), apiReference());
console.log('docs/api/openapi.json and docs/api/README.md written');
