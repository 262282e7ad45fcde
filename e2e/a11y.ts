/**
 * Accessibility checks the browser suites share: axe at WCAG 2.1 AA, and the screen fixture page
 * (packages/widget/src/test/screen-fixture.tsx) served from the widget's sources by Vite.
 */
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import type { AxeResults } from 'axe-core';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, expect } from 'vitest';
import { closeContexts, launchBrowser, startTestDemo, type E2eEnvironment } from './harness.js';

/** The rule sets the widget is held to (docs/widget.md §13). */
export const WCAG_AA_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];

/** axe-core's own script, injected once into each document it checks. */
const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core'), 'utf8');

/**
 * Runs axe on the page (or inside `include`, a selector) and fails with every violation, its
 * rule, help text and the offending elements.
 *
 * axe runs inside the page itself, injected once per document and asked for violations only.
 * axe-core/playwright's `AxeBuilder` would inject it again at every check and finish each check
 * in a new page of its own, which cost more than the check (bench/RESULTS.md); the widget and the
 * portal render no frames, which are all it would add.
 */
export async function expectNoAxeViolations(
  page: Page,
  label: string,
  include?: string,
): Promise<void> {
  // Evaluated as a script of its own, which a page's Content-Security-Policy does not stop.
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(AXE_SOURCE);
  const violations = await page.evaluate(
    async ({ tags, include }) => {
      // A toast sliding in is checked where it comes to rest, not halfway through its fade.
      await Promise.all(
        document
          .getAnimations()
          .filter((a) => Number.isFinite(a.effect?.getComputedTiming().endTime))
          .map((a) => a.finished.catch(() => undefined)),
      );
      const { axe } = window as unknown as {
        axe: { run: (...args: unknown[]) => Promise<AxeResults> };
      };
      const results = await axe.run(include ? { include: [include] } : document, {
        runOnly: { type: 'tag', values: tags },
        resultTypes: ['violations'],
      });
      return results.violations;
    },
    { tags: WCAG_AA_TAGS, include },
  );
  const described = violations.map(
    (v) => `${v.id} (${v.impact}): ${v.help}\n  ${v.nodes.map((n) => n.html).join('\n  ')}`,
  );
  expect(described, `axe violations on ${label}`).toEqual([]);
}

/** Every fixture case on one page, each checked with axe (see `sweepFixtureCases`). */
export function sweepFixtureCasesWithAxe(page: Page, fixture: FixtureServer): Promise<string[]> {
  return sweepFixtureCases(page, fixture, (name) => expectNoAxeViolations(page, name));
}

/** The names of the fixture page's cases (open `FixtureServer.url` first). */
export function fixtureCases(page: Page): Promise<string[]> {
  return page.evaluate(
    () => (window as { gatehouseFixtureCases?: string[] }).gatehouseFixtureCases ?? [],
  );
}

/** Opens a fixture case and waits until its screen (not the lazy-load spinner) is shown. */
export async function openFixtureCase(
  page: Page,
  fixture: FixtureServer,
  name: string,
): Promise<void> {
  await page.goto(`${fixture.url}?case=${encodeURIComponent(name)}`);
  await caseShown(page, name);
}

/**
 * Shows each fixture case in turn on one page, with a fresh widget each time (the page loads
 * once, which a sweep of every case would otherwise repeat 50 times), and calls `check` on it.
 */
export async function sweepFixtureCases(
  page: Page,
  fixture: FixtureServer,
  check: (name: string) => Promise<void>,
): Promise<string[]> {
  await page.goto(fixture.url);
  const cases = await fixtureCases(page);
  for (const name of cases) {
    await page.evaluate((n) => {
      (window as { gatehouseShowCase?: (name: string) => void }).gatehouseShowCase?.(n);
    }, name);
    await caseShown(page, name);
    await check(name);
  }
  return cases;
}

async function caseShown(page: Page, name: string): Promise<void> {
  const shown = name === 'Loading' ? '.gh-screen .gh-spinner' : '.gh-screen h1, .gh-screen p';
  try {
    await page.locator(shown).first().waitFor();
  } catch (error) {
    const body = await page.evaluate(() => document.body.innerText.slice(0, 500));
    throw new Error(`fixture case ${name} did not show its screen; the page says: ${body}`, {
      cause: error,
    });
  }
}

export interface FixtureServer {
  url: string;
  close(): Promise<void>;
}

/**
 * Serves the screen fixture page with Vite on a free loopback port, the screens rendered as the
 * standalone script renders them (on Preact).
 */
export async function startFixtureServer(): Promise<FixtureServer> {
  const { createServer, defaultClientConditions } = await import('vite');
  const { PREACT } = await import('../packages/widget/vite.config.js');
  const root = fileURLToPath(new URL('../packages/widget/', import.meta.url));
  const html =
    '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Widget screens</title>' +
    '<meta name="viewport" content="width=device-width, initial-scale=1"></head>' +
    '<body><main><div id="root"></div></main>' +
    '<script type="module" src="/src/test/screen-fixture.tsx"></script></body></html>';
  // A cache of its own: the two browser-test halves start fixture servers at the same time, and
  // Vite's dependency optimizer must not share a directory between them.
  const cacheDir = await mkdtemp(join(tmpdir(), 'gatehouse-fixture-vite-'));
  const server = await createServer({
    configFile: false,
    root,
    logLevel: 'error',
    cacheDir,
    // The page is served by the plugin below, which Vite's scan cannot see: name its module, so
    // that every dependency (the lazy screens' too) is optimized before the first page loads,
    // rather than found later, when a re-optimization would fail the imports already made.
    optimizeDeps: { entries: ['src/test/screen-fixture.tsx'] },
    oxc: { jsx: { runtime: 'automatic' } },
    resolve: { conditions: ['source', ...defaultClientConditions], alias: PREACT },
    server: { host: '127.0.0.1', port: 0, strictPort: false, hmr: false },
    plugins: [
      {
        name: 'gatehouse-screen-fixture-page',
        configureServer(vite) {
          vite.middlewares.use((req, res, next) => {
            if (!req.url?.startsWith('/fixture')) return next();
            res.setHeader('content-type', 'text/html; charset=utf-8');
            res.end(html);
          });
        },
      },
    ],
  });
  await server.listen();
  const address = server.httpServer?.address();
  if (!address || typeof address === 'string') throw new Error('the fixture server has no port');
  return {
    url: `http://127.0.0.1:${address.port}/fixture`,
    close: async () => {
      await server.close();
      await rm(cacheDir, { recursive: true, force: true });
    },
  };
}

/** What the screen suites share: a browser, the screen fixture page and a demo. */
export interface ScreenEnvironment extends E2eEnvironment {
  fixture: FixtureServer;
}

/**
 * Starts Chromium, the screen fixture page and a fresh demo for the calling test file, stopped
 * after its tests.
 */
export function useScreenEnvironment(): ScreenEnvironment {
  const env = {} as ScreenEnvironment;
  beforeAll(async () => {
    [env.browser, env.fixture, env.demo] = await Promise.all([
      launchBrowser(),
      startFixtureServer(),
      startTestDemo(),
    ]);
  });
  afterAll(async () => {
    await closeContexts(env.browser);
    await env.fixture?.close();
    await env.demo?.stop();
  });
  return env;
}
