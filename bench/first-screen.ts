/**
 * Time to the first screen: from navigation start until the heading 'Sign up or log in' is on the
 * page (as an element of its own), for our /_app (the demo, production build) and for the provider's published prebuilt UI
 * (`@stytch/vanilla-js` 4.13.3) on another origin, both against the same Gatehouse server. One
 * Chromium, cold loads (cache off, fresh context), runs alternated A, B, A, B… after a warm-up,
 * on loopback and on Lighthouse's mobile profile, both pages with the same isolation headers; a
 * static page holding only the heading gives the browser's floor. Prints Markdown for RESULTS.md.
 *
 * Run after `npm run build`: `npm run bench:first-screen` (FIRST_SCREEN_RUNS to change the 15).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { cpus, tmpdir, totalmem } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import type { Browser } from 'playwright-core';
import { launchChromium } from './chromium.js';

// The demo serves its production build: set before the demo and its dependencies load.
process.env.NODE_ENV = 'production';
const { startDemo } = await import('@gatehouse/demo');

const HEADING = 'Sign up or log in';
const RUNS = Number(process.env.FIRST_SCREEN_RUNS ?? 15);
const WARM_UP = 2;

interface Profile {
  name: string;
  /** CDP Network.emulateNetworkConditions; null for no throttling. */
  network: { latency: number; downloadThroughput: number; uploadThroughput: number } | null;
  cpuSlowdown: number;
}

// Lighthouse's mobile profile: RTT 150 ms, 1638.4 Kbps down, 675 Kbps up, CPU slowed 4×.
const PROFILES: Profile[] = [
  { name: 'loopback', network: null, cpuSlowdown: 1 },
  {
    name: 'mobile (150 ms, 1.6 Mbps, 4× CPU)',
    network: {
      latency: 150,
      downloadThroughput: (1638.4 * 1024) / 8,
      uploadThroughput: (675 * 1024) / 8,
    },
    cpuSlowdown: 4,
  },
];

/**
 * Runs in the page before any of its scripts: records `performance.now()` (milliseconds since
 * navigation start) in the first frame where the heading's text is rendered, in the document or
 * in an open shadow root (where the published UI renders).
 */
const RECORDER = `(() => {
  const text = ${JSON.stringify(HEADING)};
  const visible = (root) => {
    // Any element holding just the text: ours is an <h1>, the published UI's a styled <div>.
    for (const el of root.querySelectorAll('*')) {
      if (el.shadowRoot && visible(el.shadowRoot)) return true;
      if (el.childElementCount === 0 && el.textContent.trim() === text &&
          el.getClientRects().length > 0) return true;
    }
    return false;
  };
  const check = () => {
    if (window.__headingAt !== undefined) return;
    if (document.body && visible(document)) { window.__headingAt = performance.now(); return; }
    requestAnimationFrame(check);
  };
  // Mutations catch markup parsed from the HTML before the first frame; frames catch the rest.
  new MutationObserver(() => {
    if (window.__headingAt === undefined && document.body && visible(document)) {
      window.__headingAt = performance.now();
    }
  }).observe(document, { childList: true, subtree: true });
  requestAnimationFrame(check);
})();`;

const bundle = await build({
  entryPoints: [join(dirname(fileURLToPath(import.meta.url)), 'published-ui.ts')],
  bundle: true,
  minify: true,
  format: 'esm',
  target: 'es2020',
  write: false,
  define: { 'process.env.NODE_ENV': '"production"' },
  logLevel: 'error',
});
const publishedScript = bundle.outputFiles[0]!.text;

const dataDir = await mkdtemp(join(tmpdir(), 'gatehouse-first-screen-'));
const demo = await startDemo({ port: 0, host: '127.0.0.1', dataDir, server: { logger: false } });

/** The published UI's page, on an origin of its own. */
function publishedPage(): string {
  const config = JSON.stringify({ publicToken: demo.publicToken, baseUrl: demo.url });
  return `<!doctype html><html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1"><title>Sign in</title></head>
<body><div id="widget"></div>
<script type="application/json" id="bench-config">${config.replace(/</g, '\\u003c')}</script>
<script type="module" src="/published-ui.js"></script></body></html>`;
}

/**
 * The headers of /_app that decide the browser's process model, given to the published UI's
 * page too: a host page carries them whichever sign-in UI it embeds. With
 * `Cross-Origin-Opener-Policy: same-origin`, a navigation from a new tab's blank page starts a
 * renderer of its own (about 150 ms in headless Chromium 150), which the page without the header
 * would be spared.
 */
const ISOLATION_HEADERS = ['cross-origin-opener-policy', 'origin-agent-cluster'];
const demoPage = await fetch(`${demo.url}/_app`);
await demoPage.arrayBuffer();
const isolation = Object.fromEntries(
  ISOLATION_HEADERS.flatMap((name) => {
    const value = demoPage.headers.get(name);
    return value === null ? [] : [[name, value]];
  }),
);

const published: Server = createServer((request, response) => {
  if (request.url === '/floor') {
    // The browser's floor: a static page holding just the heading, with the same headers.
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8', ...isolation });
    response.end(`<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Sign in</title></head>
<body><h1>${HEADING}</h1></body></html>`);
  } else if (request.url === '/published-ui.js') {
    response.writeHead(200, { 'content-type': 'text/javascript; charset=utf-8' });
    response.end(publishedScript);
  } else {
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8', ...isolation });
    response.end(publishedPage());
  }
});
await new Promise<void>((resolve) => published.listen(0, '127.0.0.1', resolve));
const publishedOrigin = `http://127.0.0.1:${(published.address() as AddressInfo).port}`;
await demo.app.gatehouse.updateProject(demo.projectId, { authorizedOrigins: [publishedOrigin] });

const TARGETS = [
  { name: 'ours', url: `${demo.url}/_app` },
  { name: 'published', url: `${publishedOrigin}/` },
  { name: 'floor', url: `${publishedOrigin}/floor` },
] as const;

/** One cold load: a fresh context, cache off, the profile applied before navigating. */
async function timeFirstScreen(browser: Browser, url: string, profile: Profile): Promise<number> {
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
    if (profile.network) {
      await cdp.send('Network.emulateNetworkConditions', { offline: false, ...profile.network });
    }
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: profile.cpuSlowdown });
    await page.addInitScript(RECORDER);
    await page.goto(url, { waitUntil: 'commit', timeout: 30_000 });
    const handle = await page.waitForFunction(
      () => (window as unknown as { __headingAt?: number }).__headingAt,
      undefined,
      { timeout: 30_000 },
    );
    return (await handle.jsonValue()) as number;
  } finally {
    await context.close();
  }
}

const quantile = (values: number[], q: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)]!;
};
const ms = (n: number) => `${Math.round(n)} ms`;

const browser = await launchChromium();

const rows: string[] = [];
try {
  console.log(`# First screen — ${new Date().toISOString().slice(0, 10)}`);
  console.log(
    `machine: ${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, ${(totalmem() / 2 ** 30).toFixed(1)} GiB RAM, node ${process.version}, ${browser.version()}\n`,
  );
  for (const profile of PROFILES) {
    const times: Record<string, number[]> = { ours: [], published: [], floor: [] };
    for (let round = 0; round < WARM_UP + RUNS; round++) {
      // Alternating keeps slow spells of a shared machine from landing on one side only.
      const order = round % 2 === 0 ? TARGETS : [...TARGETS].reverse();
      for (const target of order) {
        const time = await timeFirstScreen(browser, target.url, profile);
        if (round >= WARM_UP) times[target.name]!.push(time);
      }
    }
    const ours = times.ours!;
    const theirs = times.published!;
    const floor = quantile(times.floor!, 0.5);
    const ratio = quantile(ours, 0.5) / quantile(theirs, 0.5);
    const aboveFloor = (quantile(ours, 0.5) - floor) / (quantile(theirs, 0.5) - floor);
    rows.push(
      `| ${profile.name} | ${ms(quantile(ours, 0.5))} / ${ms(quantile(ours, 0.9))} | ` +
        `${ms(quantile(theirs, 0.5))} / ${ms(quantile(theirs, 0.9))} | ${ratio.toFixed(2)} | ` +
        `${ms(floor)} | ${aboveFloor.toFixed(2)} |`,
    );
    for (const target of TARGETS) {
      console.log(
        `${profile.name}: ${target.name} ${times[target.name]!.map(Math.round).join(' ')}`,
      );
    }
  }
  console.log(`\n${RUNS} cold loads each after ${WARM_UP} warm-up rounds, alternated.`);
  console.log(`Both pages sent with /_app's ${JSON.stringify(isolation)}.\n`);
  console.log(
    '| Profile | Ours median / p90 | Published UI median / p90 | Ratio (medians) | ' +
      'Floor: a static page with the heading (median) | Ratio above the floor |',
  );
  console.log('|---|---|---|---|---|---|');
  for (const row of rows) console.log(row);
} finally {
  await browser.close();
  await new Promise((resolve) => published.close(resolve));
  await demo.close();
  await rm(dataDir, { recursive: true, force: true });
}
