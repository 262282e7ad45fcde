/** The endpoint reference in Markdown (`docs/api/README.md`), generated from the endpoint table. */
import { ENDPOINTS, type Credential } from '@gatehouse/protocol/endpoints';

const WHO: Record<Credential, string> = {
  A: 'anonymous (public token)',
  S: 'session',
  I: 'IST or session',
  secret: 'secret key',
  none: 'none',
};

/**
 * The reference page: one table row per endpoint, in table order.
 *
 * @example
 * writeFileSync('docs/api/README.md', apiReference());
 */
export function apiReference(): string {
  const rows = Object.entries(ENDPOINTS).map(
    ([name, e]) =>
      `| \`${e.method}\` | \`${e.path}\` | ${WHO[e.credential]} | ${e.summary} | \`${name}\` |`,
  );
  return [
    '# Endpoint reference',
    '',
    'Generated from the endpoint table in `packages/protocol/src/endpoints/` by `npm run docs:api`;',
    'do not edit by hand. The request schemas are in [`openapi.json`](openapi.json), which the',
    'server also serves at `/openapi.json`. Flows, tokens and errors are described in',
    '[`../protocol.md`](../protocol.md); section numbers below refer to it.',
    '',
    '| method | path | credential | what it does | name |',
    '|---|---|---|---|---|',
    ...rows,
    '',
  ].join('\n');
}
