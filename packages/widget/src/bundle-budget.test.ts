/**
 * The widget's bundle budget: the first screen's JavaScript may not outgrow bundle-budget.json.
 *
 * @vitest-environment node
 */
/// <reference types="node" />
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { build, type Rolldown } from 'vite';
import { describe, expect, it } from 'vitest';

const path = (relative: string) => fileURLToPath(new URL(relative, import.meta.url));

/** Gzip budgets in bytes, set a little above the measured sizes and lowered as they improve. */
interface Budget {
  standaloneFirstScreenGzipBytes: number;
  libraryFirstScreenGzipBytes: number;
}

const BUDGET_FILE = path('../bundle-budget.json');
const budget = JSON.parse(readFileSync(BUDGET_FILE, 'utf8')) as Budget;

/** The component's own first-screen code, React and the client excluded: 20 KB gzip at most. */
const LIBRARY_CEILING_GZIP_BYTES = 20 * 1024;

/** A budget this far above the measured size is stale: lower it so that it still guards. */
const MAX_HEADROOM = 1.1;

/**
 * Builds the widget with its own vite.config.ts, in memory (no prior build, dist untouched), and
 * returns the gzip -9 size of what a browser loads before the first paint: the entry chunk and
 * every chunk it imports statically, each file compressed on its own — exactly what
 * bench/bundle-size.ts measures on dist. Lazy screens (`import()`) are not counted.
 */
async function firstScreenGzipBytes(mode: 'production' | 'standalone'): Promise<number> {
  // Vite builds for production only when NODE_ENV says so, and the test runner sets it to
  // `test`: without this the output is not minified as `npm run build`'s is.
  const nodeEnv = process.env.NODE_ENV;
  process.env.NODE_ENV = 'production';
  let result: Awaited<ReturnType<typeof build>>;
  try {
    result = await build({
      configFile: path('../vite.config.ts'),
      mode,
      logLevel: 'silent',
      // In memory only: dist belongs to `npm run build` (and the browser tests that use it).
      build: { write: false, emptyOutDir: false },
    });
  } finally {
    process.env.NODE_ENV = nodeEnv;
  }
  const outputs = (Array.isArray(result) ? result : [result]) as Rolldown.RolldownOutput[];
  const chunks = new Map<string, Rolldown.OutputChunk>();
  for (const output of outputs.flatMap((o) => o.output)) {
    if (output.type === 'chunk') chunks.set(output.fileName, output);
  }
  const entries = [...chunks.values()].filter((chunk) => chunk.isEntry);
  expect(entries).toHaveLength(1);
  const loaded = new Set<string>();
  const visit = (fileName: string) => {
    const chunk = chunks.get(fileName);
    // Externals (React and the client in the library build) are not the widget's to count.
    if (!chunk || loaded.has(fileName)) return;
    loaded.add(fileName);
    chunk.imports.forEach(visit);
  };
  visit(entries[0]!.fileName);
  let total = 0;
  for (const fileName of loaded) {
    total += gzipSync(Buffer.from(chunks.get(fileName)!.code), { level: 9 }).length;
  }
  return total;
}

function expectWithinBudget(what: string, measured: number, allowed: number): void {
  expect(
    measured,
    `${what} is ${measured} bytes gzip, over its budget of ${allowed} in ` +
      'packages/widget/bundle-budget.json. Make it smaller, or raise the budget in the same ' +
      'commit and say why in bench/RESULTS.md.',
  ).toBeLessThanOrEqual(allowed);
  expect(
    measured * MAX_HEADROOM,
    `${what} is ${measured} bytes gzip, well under its budget of ${allowed}: lower the budget ` +
      `in packages/widget/bundle-budget.json to about ${Math.ceil(measured * 1.03)}.`,
  ).toBeGreaterThanOrEqual(allowed);
}

describe('bundle budget (gzip -9, first screen)', () => {
  it('keeps the standalone script, its runtime included, within its budget', async () => {
    const measured = await firstScreenGzipBytes('standalone');
    expectWithinBudget(
      'The standalone first screen',
      measured,
      budget.standaloneFirstScreenGzipBytes,
    );
  }, 120_000);

  it("keeps the library's own code, React and the client external, within its budget", async () => {
    const measured = await firstScreenGzipBytes('production');
    expectWithinBudget('The library first screen', measured, budget.libraryFirstScreenGzipBytes);
    // The ceiling the budget file may never be raised past (docs/widget.md §14).
    expect(
      measured,
      `The library first screen is ${measured} bytes gzip, over the 20 KB the component's own code may weigh`,
    ).toBeLessThanOrEqual(LIBRARY_CEILING_GZIP_BYTES);
  }, 120_000);
});
