// The package.json a publishable package is packed with: its `exports` without the `source`
// condition, which points the workspace's tools (tsconfig.base.json's customConditions, Vite,
// ESLint) at `src/`, a folder the tarball does not carry. A consumer whose bundler honours a
// `source` condition would otherwise resolve to a file that is not there.
//
// `prepack` runs `strip` in the package's folder and `postpack` runs `restore`, so `npm pack` and
// `npm publish` read the stripped manifest while the workspace keeps its own. The workspace's
// manifest waits in the temporary folder in between; a pack that died half-way is mended by the
// next one's `restore`.
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const CONDITION = 'source';
const manifestPath = join(process.cwd(), 'package.json');
const text = readFileSync(manifestPath, 'utf8');
const manifest = JSON.parse(text);
const backup = join(tmpdir(), `gatehouse-pack-${manifest.name.replace(/[^\w.-]/g, '+')}.json`);

/** `exports` without the condition, at any depth; `found` says whether there was one. */
function withoutCondition(value, found) {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return value;
  const out = {};
  for (const [key, inner] of Object.entries(value)) {
    if (key === CONDITION) found.any = true;
    else out[key] = withoutCondition(inner, found);
  }
  return out;
}

const mode = process.argv[2];
if (mode === 'strip') {
  const found = { any: false };
  const exports = withoutCondition(manifest.exports, found);
  // Already stripped (an earlier pack died before `restore`): the waiting copy stays the original.
  if (found.any) {
    writeFileSync(backup, text);
    writeFileSync(manifestPath, `${JSON.stringify({ ...manifest, exports }, null, 2)}\n`);
  }
} else if (mode === 'restore') {
  if (existsSync(backup)) {
    writeFileSync(manifestPath, readFileSync(backup, 'utf8'));
    rmSync(backup);
  }
} else {
  console.error('usage: node published-manifest.mjs strip|restore');
  process.exitCode = 2;
}
