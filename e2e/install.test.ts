// The packages as another app gets them: `npm pack` of each publishable package, one install of
// the tarballs (and nothing from the workspace) into a new folder, then a Vite + React +
// TypeScript app with <LoginWidget>, a plain page with the standalone script, and a Node backend
// that runs `npx gatehouse serve` and imports the server, each signing in or answering.
import type { ChildProcess } from 'node:child_process';
import { access, cp, mkdtemp, readFile, realpath, rm } from 'node:fs/promises';
import type { Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { DEMO_ADMIN_EMAIL } from '@gatehouse/demo';
import { inboxIds, useBrowserAndDemo, waitForEmailLink } from './harness.js';
import {
  APP_DEPENDENCIES,
  APP_DEV_DEPENDENCIES,
  BACKEND_MJS,
  INDEX_HTML,
  MAIN_TSX,
  TSCONFIG,
  VITE_CONFIG,
  plainPage,
} from './install/app-files.js';
import {
  PUBLISHED,
  REPO_ROOT,
  freePort,
  localSqlitePrebuild,
  packPackages,
  serveStatic,
  sh,
  startGatehouse,
  writeFiles,
} from './install/packages.js';

const env = useBrowserAndDemo();
let folder: string;
let app: string;
let site: { url: string; server: Server };
let gatehouse: ChildProcess | undefined;
let gatehouseUrl: string;
type BackendSetup = { health: unknown; publicToken: string; errorTypes: number };
let backend: BackendSetup;
type Manifest = { version: string; dependencies?: Record<string, string> };
const installed: Record<string, Manifest> = {};

const BUYER = 'buyer@harbor.example';

beforeAll(async () => {
  folder = await realpath(await mkdtemp(join(tmpdir(), 'gatehouse-install-')));
  app = join(folder, 'app');
  const tarballs = await packPackages(join(folder, 'tarballs'));
  const sqlite = await localSqlitePrebuild(join(folder, 'prebuilds'));
  await writeFiles(app, {
    'package.json': JSON.stringify({
      name: 'storefront',
      private: true,
      type: 'module',
      dependencies: APP_DEPENDENCIES,
      devDependencies: APP_DEV_DEPENDENCIES,
      overrides: { 'better-sqlite3': sqlite.version },
    }),
    'index.html': INDEX_HTML,
    'vite.config.ts': VITE_CONFIG,
    'tsconfig.json': TSCONFIG,
    'src/main.tsx': MAIN_TSX,
    'backend.mjs': BACKEND_MJS,
  });
  await sh(
    app,
    'npm',
    [
      'install',
      ...PUBLISHED.map((name) => tarballs[name]!),
      '--prefer-offline',
      '--no-audit',
      '--no-fund',
    ],
    sqlite.env,
  );
  for (const name of PUBLISHED) {
    const dir = join(app, 'node_modules', name);
    // A real folder inside the app, not a link into the workspace.
    expect(await realpath(dir)).toBe(dir);
    installed[name] = JSON.parse(await readFile(join(dir, 'package.json'), 'utf8')) as Manifest;
  }

  // The static site (the built app at /, the plain page at /plain/) answers from its folders as
  // they fill; the app's build and the backend's set-up run side by side.
  site = await serveStatic({ '/plain/': join(folder, 'plain'), '/': join(app, 'dist') });
  const standalone = join(app, 'node_modules/@gatehouse/widget/dist/standalone');
  await cp(standalone, join(folder, 'plain'), { recursive: true });
  await Promise.all([buildApp(), startBackend()]);
}, 600_000);

/** The app checks its types against the packages' declarations, then builds for the demo. */
async function buildApp(): Promise<void> {
  await sh(app, 'npx', ['tsc', '-p', 'tsconfig.json']);
  await sh(app, 'npx', ['vite', 'build'], {
    VITE_GATEHOUSE_URL: env.demo.url,
    VITE_GATEHOUSE_PUBLIC_TOKEN: env.demo.publicToken,
  });
  await env.demo.app.gatehouse.updateProject(env.demo.projectId, {
    authorizedOrigins: [site.url],
    redirectUrls: { discovery: [`${site.url}/`] },
  });
}

/**
 * The backend: its set-up script makes a project, an organization and a member through the
 * package's entry point, then the package's `gatehouse` command serves that database; the plain
 * page signs in to it.
 */
async function startBackend(): Promise<void> {
  const port = await freePort();
  gatehouseUrl = `http://127.0.0.1:${port}`;
  const serverEnv = {
    DATABASE_URL: `sqlite:${join(folder, 'data/gatehouse.db')}`,
    PUBLIC_URL: gatehouseUrl,
    GATEHOUSE_DEV_INBOX: 'true',
  };
  backend = JSON.parse(
    await sh(app, 'node', ['backend.mjs', site.url, BUYER], serverEnv),
  ) as BackendSetup;
  await writeFiles(folder, { 'plain/index.html': plainPage(gatehouseUrl, backend.publicToken) });
  gatehouse = await startGatehouse(app, port, serverEnv);
}

afterAll(async () => {
  if (gatehouse?.pid) process.kill(-gatehouse.pid, 'SIGTERM');
  await new Promise((resolve) => site?.server.close(resolve));
  if (folder) await rm(folder, { recursive: true, force: true });
});

/** Discovery sign-in by e-mail link on `page` against the server at `baseUrl`. */
async function signInByEmailLink(page: Page, baseUrl: string, email: string, org: RegExp) {
  await page.getByRole('heading', { name: 'Sign up or log in' }).waitFor();
  const seen = await inboxIds(baseUrl);
  await page.getByLabel(/email/i).fill(email);
  const [send] = await Promise.all([
    page.waitForResponse((r) => r.url().endsWith('/b2b/magic_links/email/discovery/send')),
    page.getByRole('button', { name: 'Continue with email' }).click(),
  ]);
  expect(send.status()).toBe(200);
  await page.getByText('Check your email').waitFor();
  const { link } = await waitForEmailLink(baseUrl, email, 'discovery', seen);
  await page.goto(link);
  await page.getByRole('button', { name: org }).click();
  await page.getByText('Success!').waitFor();
}

test('the tarballs depend on each other by version and the widget on React 18 or 19', () => {
  for (const name of PUBLISHED) expect(installed[name]!.version).toBe('0.1.0');
  expect(installed['@gatehouse/widget']).toMatchObject({
    dependencies: { '@gatehouse/client': '0.1.0', '@gatehouse/protocol': '0.1.0' },
    peerDependencies: { react: '^18.2.0 || ^19.0.0', 'react-dom': '^18.2.0 || ^19.0.0' },
    license: 'Apache-2.0',
  });
  expect(installed['@gatehouse/server']).toMatchObject({
    dependencies: { '@gatehouse/protocol': '0.1.0' },
    bin: { gatehouse: './bin/gatehouse.cjs' },
  });
});

/** Every `[condition path, target]` of an `exports` map, nested conditions included. */
function exportTargets(value: unknown, at = ''): [string, string][] {
  if (typeof value === 'string') return [[at, value]];
  if (value === null || typeof value !== 'object') return [];
  return Object.entries(value).flatMap(([key, inner]) => exportTargets(inner, `${at}/${key}`));
}

test('the tarballs export only files they carry, without the workspace’s `source` condition', async () => {
  for (const name of PUBLISHED) {
    const dir = join(app, 'node_modules', name);
    const { exports } = JSON.parse(await readFile(join(dir, 'package.json'), 'utf8')) as {
      exports: unknown;
    };
    const targets = exportTargets(exports);
    expect(targets.length, name).toBeGreaterThan(1);
    expect(
      targets.filter(([at]) => at.endsWith('/source')),
      name,
    ).toEqual([]);
    for (const [at, target] of targets) {
      await expect(access(join(dir, target)), `${name} ${at} → ${target}`).resolves.toBeUndefined();
    }
  }
  // The workspace keeps the condition its tools resolve the sources with.
  const workspace = JSON.parse(
    await readFile(join(REPO_ROOT, 'packages/server/package.json'), 'utf8'),
  ) as { exports: unknown };
  expect(exportTargets(workspace.exports)).toContainEqual(['/./source', './src/index.ts']);
});

test('a Vite + React + TypeScript app built from the tarballs signs in with <LoginWidget>', async () => {
  const context = await env.browser.newContext();
  const page = await context.newPage();
  await page.goto(`${site.url}/`);
  await page.getByRole('heading', { name: 'Storefront' }).waitFor();
  await signInByEmailLink(page, env.demo.url, DEMO_ADMIN_EMAIL, /Acme Corp/);
  expect((await context.cookies(site.url)).map((c) => c.name)).toContain('gatehouse_session');
  await context.close();
});

test('a plain page with the standalone script signs in to the server run by `npx gatehouse serve`', async () => {
  const context = await env.browser.newContext();
  const page = await context.newPage();
  await page.goto(`${site.url}/plain/`);
  await page.getByRole('heading', { name: 'Plain page' }).waitFor();
  await signInByEmailLink(page, gatehouseUrl, BUYER, /Harbor Supply/);
  expect((await context.cookies(site.url)).map((c) => c.name)).toContain('gatehouse_session');
  await context.close();
});

test('a Node backend imports the server and the protocol from the packages', () => {
  expect(backend.health).toEqual({ status: 'ok' });
  expect(backend.publicToken).toMatch(/^public-token-test-/);
  expect(backend.errorTypes).toBeGreaterThan(0);
});
