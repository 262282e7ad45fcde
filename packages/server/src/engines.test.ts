// The Node.js versions the packages declare (`engines`) are ones every production dependency of the
// server, as package-lock.json resolves it, says it runs on.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';

const root = new URL('../../../', import.meta.url);
const readJson = <T>(path: string): T => JSON.parse(readFileSync(new URL(path, root), 'utf8')) as T;

interface Semver {
  satisfies(version: string, range: string): boolean;
  subset(sub: string, dom: string): boolean;
  minVersion(range: string): { version: string } | null;
}
// semver comes with npm's own tooling in every install of the workspace (changesets, fastify).
const semver = createRequire(import.meta.url)('semver') as Semver;

interface LockEntry {
  version?: string;
  link?: boolean;
  resolved?: string;
  engines?: { node?: string } | string[];
  dependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
}
const lock = readJson<{ packages: Record<string, LockEntry> }>('package-lock.json').packages;

/** Where `name` resolves from the package at `from`, as Node looks it up: nearest node_modules. */
function resolveIn(from: string, name: string): string | null {
  for (let dir = from; ; dir = dir.slice(0, Math.max(0, dir.lastIndexOf('/node_modules')))) {
    const path = `${dir ? `${dir}/` : ''}node_modules/${name}`;
    const entry = lock[path];
    if (entry) return entry.link && entry.resolved ? entry.resolved : path;
    if (!dir) return null;
  }
}

/** Every package the server installs in production, by its path in the lock file. */
function productionClosure(start: string): Map<string, LockEntry> {
  const found = new Map<string, LockEntry>();
  const visit = (path: string) => {
    const entry = lock[path];
    if (!entry || found.has(path)) return;
    found.set(path, entry);
    const names = { ...entry.dependencies, ...entry.optionalDependencies };
    for (const name of Object.keys(names)) {
      const resolved = resolveIn(path, name);
      if (resolved) visit(resolved);
      // An optional dependency for another platform may be absent from the lock file.
      else expect(entry.optionalDependencies, `${path} → ${name}`).toHaveProperty([name]);
    }
  };
  visit(start);
  return found;
}

const PUBLISHED = ['protocol', 'client', 'widget', 'server'];
const nodeRange = (path: string) =>
  readJson<{ engines?: { node?: string } }>(`${path}package.json`).engines?.node ?? '';

describe('engines', () => {
  const declared = nodeRange('packages/server/');

  it('every production dependency of the server runs on the oldest Node.js it declares', () => {
    const closure = productionClosure('packages/server');
    // The walk reached the server's own dependencies and theirs.
    expect([...closure.keys()]).toEqual(
      expect.arrayContaining(['node_modules/fastify', 'node_modules/better-sqlite3']),
    );
    const oldest = semver.minVersion(declared)?.version ?? '';
    expect(oldest).not.toBe('');
    const refusing = [...closure]
      .map(([path, entry]) => ({
        path,
        node: Array.isArray(entry.engines) ? undefined : entry.engines?.node,
      }))
      .filter(({ node }) => node !== undefined && !semver.satisfies(oldest, node))
      .map(({ path, node }) => `${path} wants ${node}`);
    expect(refusing, `Node.js ${oldest}`).toEqual([]);
  });

  it('is the same range in every published package, and the workspace asks for no less', () => {
    for (const name of PUBLISHED) expect(nodeRange(`packages/${name}/`), name).toBe(declared);
    expect(semver.subset(nodeRange(''), declared)).toBe(true);
  });
});
