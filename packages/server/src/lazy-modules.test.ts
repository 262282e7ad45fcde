// What an idle server holds: `gatehouse serve` on SQLite with the dev inbox starts without
// loading the packages only some requests need (bench/RESULTS.md, "Idle memory"). A preload
// records every package the process loads, through ES module resolution and require alike.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, expect, it } from 'vitest';
import { serveProcess, type ServeProcess } from './test/serve-process.js';

const dir = mkdtempSync(join(tmpdir(), 'gatehouse-lazy-'));
const log = join(dir, 'loaded.txt');
let server: ServeProcess | undefined;

afterAll(async () => {
  if (server && server.child.exitCode === null) {
    server.child.kill('SIGTERM');
    await server.exited;
  }
  rmSync(dir, { recursive: true, force: true });
});

// Resolution hooks run on a thread of their own; both sides append to the same file.
const HOOKS = `import { appendFileSync } from 'node:fs';
export async function resolve(specifier, context, next) {
  const resolved = await next(specifier, context);
  appendFileSync(process.env.GATEHOUSE_LOADED_LOG, resolved.url + '\\n');
  return resolved;
}`;
const PRELOAD = `import Module, { register } from 'node:module';
import { appendFileSync } from 'node:fs';
register('data:text/javascript,' + encodeURIComponent(${JSON.stringify(HOOKS)}));
const load = Module._load;
Module._load = function (request, ...rest) {
  appendFileSync(process.env.GATEHOUSE_LOADED_LOG, request + '\\n');
  return load.call(this, request, ...rest);
};`;

/** Whether the log names the package, by path or as a bare request. */
const loaded = (lines: string[], name: string) =>
  lines.some((line) => line === name || line.includes(`/node_modules/${name}/`));

it('starts on SQLite with the dev inbox without zxcvbn, PostgreSQL, nodemailer, SAML, bcrypt, argon2, phone numbers or QR codes', async () => {
  const preload = join(dir, 'preload.mjs');
  writeFileSync(preload, PRELOAD);
  server = await serveProcess({
    DATABASE_URL: `sqlite:${join(dir, 'idle.db')}`,
    GATEHOUSE_DEV_INBOX: 'true',
    GATEHOUSE_LOADED_LOG: log,
    NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --import=${pathToFileURL(preload).href}`,
  });
  expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
  const lines = readFileSync(log, 'utf8').split('\n');
  // The record works: what every request needs is in it.
  for (const name of ['fastify', 'kysely', 'better-sqlite3'])
    expect(loaded(lines, name)).toBe(true);
  for (const name of [
    '@zxcvbn-ts/core',
    '@zxcvbn-ts/language-common',
    '@zxcvbn-ts/language-en',
    'pg',
    'nodemailer',
    '@node-saml/node-saml',
    '@node-rs/bcrypt',
    '@node-rs/argon2',
    'libphonenumber-js',
    'qrcode',
    '@xmldom/xmldom',
  ]) {
    expect({ name, loaded: loaded(lines, name) }).toEqual({ name, loaded: false });
  }
});
