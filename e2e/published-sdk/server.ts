/**
 * The published SDK's prebuilt UI on a page of its own origin, for the browser tests: one page
 * per SDK line, each bundled with esbuild from ./page.ts, served over plain http on loopback.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

/** The SDK lines under test, by the path their page is served at. */
export const SDK_LINES = {
  '4.13': { path: '/sdk-4/', alias: {} },
  // npm installs 6.x under an alias, so the page's imports are redirected to it.
  '6.x': { path: '/sdk-6/', alias: { '@stytch/vanilla-js': '@stytch/vanilla-js-6' } },
} as const;
export type SdkLine = keyof typeof SDK_LINES;

const here = dirname(fileURLToPath(import.meta.url));

async function bundle(alias: Record<string, string>): Promise<string> {
  const result = await build({
    entryPoints: [join(here, 'page.ts')],
    bundle: true,
    format: 'esm',
    target: 'es2020',
    write: false,
    alias,
    // Resolve the aliased package from this workspace, whichever directory the tests run in.
    absWorkingDir: here,
    conditions: ['production'],
    define: { 'process.env.NODE_ENV': '"production"' },
    logLevel: 'error',
  });
  return result.outputFiles[0]!.text;
}

function page(config: { publicToken: string; baseUrl: string }, script: string): string {
  const json = JSON.stringify(config).replace(/</g, '\\u003c');
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Published SDK</title></head>
<body><div id="widget"></div>
<script type="application/json" id="sdk-config">${json}</script>
<script type="module" src="${script}"></script></body></html>`;
}

/** A running page server: its port, and `close`. */
export interface PublishedSdkSite {
  port: number;
  /** The URL of a line's page on `host` (e.g. `localhost`, another origin than 127.0.0.1). */
  url(line: SdkLine, host?: string): string;
  close(): Promise<void>;
}

/**
 * Bundles both SDK lines and serves their pages on 127.0.0.1: `/sdk-4/` and `/sdk-6/` (any
 * query, so redirects back with a token land on the same page) with the discovery flow, and
 * `/sdk-4/org/{slug}`, `/sdk-6/org/{slug}` with the organization flow, each pointed at `baseUrl`.
 */
export async function startPublishedSdkSite(
  baseUrl: string,
  publicToken: string,
): Promise<PublishedSdkSite> {
  const scripts = new Map<string, string>();
  for (const line of Object.values(SDK_LINES)) {
    scripts.set(`${line.path}page.js`, await bundle(line.alias));
  }
  const server: Server = createServer((request, response) => {
    const path = new URL(request.url ?? '/', 'http://site').pathname;
    const script = scripts.get(path);
    const line = Object.values(SDK_LINES).find((l) => path.startsWith(l.path));
    if (script !== undefined) {
      response.writeHead(200, { 'content-type': 'text/javascript; charset=utf-8' });
      response.end(script);
    } else if (line) {
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      response.end(page({ publicToken, baseUrl }, `${line.path}page.js`));
    } else {
      response.writeHead(404).end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    port,
    url: (line, host = 'localhost') => `http://${host}:${port}${SDK_LINES[line].path}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
