/** Gzip sizes of the widget JavaScript a browser loads for the first screen. */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

const WIDGET_DIST = resolve(dirname(fileURLToPath(import.meta.url)), '../packages/widget/dist');

export interface BundleSize {
  name: string;
  files: string[];
  bytes: number;
  gzipBytes: number;
}

const gzip = (buffer: Buffer) => gzipSync(buffer, { level: 9 }).length;

/** Follows static imports (not dynamic `import()`) from an ESM entry: what loads before first paint. */
function staticClosure(entry: string): string[] {
  const seen = new Set<string>();
  const visit = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    const code = readFileSync(file, 'utf8');
    const pattern =
      /(?:^|[;}\s])(?:import|export)\s*(?:[\w*{}\s,$]+from\s*)?["'](\.{1,2}\/[^"']+)["']/g;
    for (const match of code.matchAll(pattern)) visit(join(dirname(file), match[1]!));
  };
  visit(entry);
  return [...seen];
}

function measure(name: string, files: string[]): BundleSize {
  const buffers = files.map((f) => readFileSync(f));
  return {
    name,
    files: files.map((f) => f.slice(WIDGET_DIST.length + 1)),
    bytes: buffers.reduce((n, b) => n + b.length, 0),
    gzipBytes: buffers.reduce((n, b) => n + gzip(b), 0),
  };
}

/** Measures the standalone bundle (its runtime, Preact, included) and the library build (React external). */
export function measureBundles(): BundleSize[] {
  const standalone = join(WIDGET_DIST, 'standalone/gatehouse-widget.js');
  const library = join(WIDGET_DIST, 'index.js');
  for (const file of [standalone, library]) {
    if (!existsSync(file)) throw new Error(`${file} is missing: run npm run build first`);
  }
  return [
    measure('standalone, first screen (Preact included)', staticClosure(standalone)),
    measure('library, first screen (React external)', staticClosure(library)),
  ];
}
