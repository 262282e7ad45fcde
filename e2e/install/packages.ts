/**
 * Packs the publishable packages as `npm publish` would and installs the tarballs into a new app
 * folder, as a person starting an app would: everything `@gatehouse/*` from the tarballs, the rest
 * from the registry.
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { readFile, mkdir, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join, normalize } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const run = promisify(execFile);

export const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** The packages an app installs, by workspace name. */
export const PUBLISHED = [
  '@gatehouse/protocol',
  '@gatehouse/client',
  '@gatehouse/widget',
  '@gatehouse/server',
] as const;

/** The environment of a child process: this one's, without the settings of an npm script run. */
export function cleanEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (!/^npm_/i.test(key) && key !== 'NODE_ENV' && key !== 'VITEST' && !key.startsWith('VITEST_'))
      env[key] = value;
  }
  return { ...env, ...extra };
}

/** Runs a command in `cwd`; throws with its output when it fails. */
export async function sh(
  cwd: string,
  command: string,
  args: string[],
  env: Record<string, string> = {},
): Promise<string> {
  try {
    const { stdout } = await run(command, args, {
      cwd,
      env: cleanEnv(env),
      maxBuffer: 64 * 1024 * 1024,
    });
    return stdout;
  } catch (error) {
    const { stdout, stderr } = error as { stdout?: string; stderr?: string };
    throw new Error(`${command} ${args.join(' ')} failed in ${cwd}:\n${stdout}\n${stderr}`, {
      cause: error,
    });
  }
}

/** `npm pack` of the published packages from their built `dist/`; the tarballs' paths. */
export async function packPackages(destination: string): Promise<Record<string, string>> {
  await mkdir(destination, { recursive: true });
  const workspaces = PUBLISHED.flatMap((name) => ['-w', name]);
  const out = await sh(REPO_ROOT, 'npm', [
    'pack',
    ...workspaces,
    '--pack-destination',
    destination,
    '--json',
  ]);
  const packed = JSON.parse(out) as { name: string; filename: string }[];
  return Object.fromEntries(packed.map((p) => [p.name, join(destination, p.filename)]));
}

/**
 * The app's native SQLite binding comes prebuilt, as it does from the binding's release downloads:
 * here from the workspace's own build of the same version, since this machine reaches the npm
 * registry only. Returns the environment that points the binding's installer at it, and the
 * version to pin.
 */
export async function localSqlitePrebuild(
  folder: string,
): Promise<{ env: Record<string, string>; version: string }> {
  const root = join(REPO_ROOT, 'node_modules/better-sqlite3');
  const { version } = JSON.parse(await readFile(join(root, 'package.json'), 'utf8')) as {
    version: string;
  };
  await mkdir(folder, { recursive: true });
  const name = `better-sqlite3-v${version}-node-v${process.versions.modules}-${process.platform}-${process.arch}.tar.gz`;
  await sh(root, 'tar', ['-czf', join(folder, name), 'build/Release/better_sqlite3.node']);
  return { env: { npm_config_better_sqlite3_local_prebuilds: folder }, version };
}

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.json': 'application/json',
};

/** A static file server on 127.0.0.1: URL path prefix → folder; a folder path serves index.html. */
export async function serveStatic(
  mounts: Record<string, string>,
): Promise<{ url: string; server: Server }> {
  const prefixes = Object.keys(mounts).sort((a, b) => b.length - a.length);
  const server = createServer((request, response) => {
    const path = decodeURIComponent(new URL(request.url ?? '/', 'http://x').pathname);
    const prefix = prefixes.find((p) => path.startsWith(p))!;
    let rest = normalize(path.slice(prefix.length)).replace(/^(\.\.[/\\])+/, '');
    if (rest === '' || rest.endsWith('/') || rest === '.') rest = join(rest, 'index.html');
    readFile(join(mounts[prefix]!, rest)).then(
      (body) => {
        response.writeHead(200, { 'content-type': TYPES[extname(rest)] ?? 'text/plain' });
        response.end(body);
      },
      () => {
        response.writeHead(404).end();
      },
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

/** A free loopback port. */
export async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

/** Starts `npx gatehouse serve` in `cwd`; resolves once it says it listens. */
export async function startGatehouse(
  cwd: string,
  port: number,
  env: Record<string, string>,
): Promise<ChildProcess> {
  const child = spawn(
    'npx',
    ['gatehouse', 'serve', '--port', String(port), '--host', '127.0.0.1'],
    {
      cwd,
      env: cleanEnv(env),
      stdio: ['ignore', 'pipe', 'pipe'],
      // Its own process group, so that stopping it stops npx and the server under it.
      detached: true,
    },
  );
  let output = '';
  await new Promise<void>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('Gatehouse listening on')) resolve();
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.on('exit', (code) => reject(new Error(`gatehouse serve exited ${code}:\n${output}`)));
  });
  return child;
}

/** Writes `files` (path relative to `folder` → content). */
export async function writeFiles(folder: string, files: Record<string, string>): Promise<void> {
  for (const [path, content] of Object.entries(files)) {
    await mkdir(join(folder, path, '..'), { recursive: true });
    await writeFile(join(folder, path), content);
  }
}
