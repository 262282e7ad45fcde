/** Shared set-up of the browser tests: Debian's Chromium, a fresh demo, and the dev inbox. */
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import { startDemo, type DemoHandle, type DemoOptions } from '@gatehouse/demo';

/**
 * Debian's Chromium in its headless build (package `chromium-headless-shell`): the same engine,
 * without the desktop browser around it, so a new context costs about a third of the CPU
 * (bench/RESULTS.md). The full browser where the headless build is not installed (see
 * scripts/ensure-chromium.mjs); `CHROMIUM_PATH=/usr/bin/chromium` chooses it.
 */
export const CHROMIUM_PATH =
  process.env.CHROMIUM_PATH ??
  (existsSync('/usr/bin/chromium-headless-shell')
    ? '/usr/bin/chromium-headless-shell'
    : '/usr/bin/chromium');

/**
 * Headless Chromium, one per test worker: the suites of a worker take turns with it (their files
 * run one after another), each in contexts of its own, which keep nothing across files. It
 * stops with the worker. `*.example.test` host names resolve to loopback for origin tests.
 */
export function launchBrowser(): Promise<Browser> {
  shared ??= start().catch((error: unknown) => {
    shared = undefined;
    throw error;
  });
  return shared;
}

let shared: Promise<Browser> | undefined;

function start(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--disable-quic',
      '--no-first-run',
      '--host-resolver-rules=MAP *.example.test 127.0.0.1',
    ],
  });
}

export interface TestDemo extends DemoHandle {
  dataDir: string;
  stop(): Promise<void>;
}

/** Starts the demo on a free loopback port with its own temporary database. */
export async function startTestDemo(options: Partial<DemoOptions> = {}): Promise<TestDemo> {
  const dataDir = await mkdtemp(join(tmpdir(), 'gatehouse-e2e-'));
  const demo = await startDemo({
    port: 0,
    host: '127.0.0.1',
    dataDir,
    server: { logger: false },
    ...options,
  });
  return {
    ...demo,
    dataDir,
    stop: async () => {
      await demo.close();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/** What a test file shares: one browser and one demo, started before its tests, stopped after. */
export interface E2eEnvironment {
  browser: Browser;
  demo: TestDemo;
}

/**
 * Starts Chromium and a fresh demo for the calling test file; `options` is read when they start,
 * so it may use what earlier `beforeAll` hooks set up.
 */
export function useBrowserAndDemo(
  options: () => Partial<DemoOptions> = () => ({}),
): E2eEnvironment {
  const env = {} as E2eEnvironment;
  beforeAll(async () => {
    [env.browser, env.demo] = await Promise.all([launchBrowser(), startTestDemo(options())]);
  });
  afterAll(async () => {
    await closeContexts(env.browser);
    await env.demo?.stop();
  });
  return env;
}

/** Closes the contexts a test file left open, so that the next file starts from a bare browser. */
export async function closeContexts(browser: Browser | undefined): Promise<void> {
  await Promise.all(browser?.contexts().map((context) => context.close()) ?? []);
}

interface InboxMessage {
  id: string;
  channel: string;
  to: string;
  subject: string;
  links: string[];
  created_at: string;
}

/**
 * Waits for the newest e-mail to `to` in the dev inbox (read over HTTP, as a person would click
 * it) that is not one of `seen`, and returns its link carrying `stytch_token_type=tokenType`.
 */
export async function waitForEmailLink(
  baseUrl: string,
  to: string,
  tokenType: string,
  seen: ReadonlySet<string> = new Set(),
): Promise<{ link: string; id: string }> {
  const deadline = Date.now() + 15_000;
  while (Date.now() < deadline) {
    const response = await fetch(`${baseUrl}/_dev/inbox/messages`);
    const messages = (await response.json()) as InboxMessage[];
    const message = messages.find((m) => m.to === to && m.channel === 'email' && !seen.has(m.id));
    const link = message?.links.find(
      (l) => new URL(l).searchParams.get('stytch_token_type') === tokenType,
    );
    if (message && link) return { link, id: message.id };
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`No ${tokenType} e-mail reached ${to} within 15 s`);
}

/** Ids of the messages already in the inbox, to tell a new e-mail from an old one. */
export async function inboxIds(baseUrl: string): Promise<Set<string>> {
  const response = await fetch(`${baseUrl}/_dev/inbox/messages`);
  const messages = (await response.json()) as InboxMessage[];
  return new Set(messages.map((m) => m.id));
}

/**
 * A call of the demo's management API with the project's secret key, as a host backend makes it;
 * throws with the answer when it fails.
 */
export async function manageDemo<T = unknown>(
  demo: Pick<TestDemo, 'url' | 'projectId' | 'secret'>,
  method: string,
  path: string,
  body?: object,
): Promise<T> {
  const auth = Buffer.from(`${demo.projectId}:${demo.secret}`).toString('base64');
  const res = await fetch(`${demo.url}${path}`, {
    method,
    headers: { authorization: `Basic ${auth}`, 'content-type': 'application/json' },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
  // The management API answers flat: the fields beside `request_id` and `status_code`.
  const json = (await res.json()) as T;
  if (!res.ok) throw new Error(`${method} ${path}: ${JSON.stringify(json)}`);
  return json;
}
