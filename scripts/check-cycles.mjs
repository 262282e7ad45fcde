// No import cycles in the packages' and the demo's sources (part of `npm run lint`). Follows the
// imports that load a module at run time: `import … from`, `export … from`, `import '…'` and
// `import('…')`, between the files of one workspace (workspaces depend on each other in one
// direction, which npm enforces). `import type` and `export type` vanish at run time and are
// skipped; with `verbatimModuleSyntax`, `import { type A } from` still loads its module and counts.
// Prints every cycle it finds, file by file, and exits 1.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/** Every .ts and .tsx file under the folder, tests and declaration files aside. */
function sources(dir) {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && /\.tsx?$/.test(e.name) && !/\.(test\.tsx?|d\.ts)$/.test(e.name))
    .map((e) => join(e.parentPath, e.name));
}

const files = ['packages', 'apps'].flatMap((group) =>
  readdirSync(join(root, group)).flatMap((name) => sources(join(root, group, name, 'src'))),
);
const known = new Set(files);

/** The runtime import specifiers of a file's source (comments removed first). */
function runtimeImports(text) {
  const code = text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"`\\])\/\/.*$/gm, '$1');
  const found = [];
  const statement = /^\s*(import|export)\s+(type\s+)?([^'"`;]*?)\s*from\s*['"]([^'"]+)['"]/gm;
  for (const [, , typeOnly, , specifier] of code.matchAll(statement)) {
    if (!typeOnly) found.push(specifier);
  }
  for (const [, specifier] of code.matchAll(/^\s*import\s*['"]([^'"]+)['"]/gm))
    found.push(specifier);
  for (const [, specifier] of code.matchAll(/\bimport\(\s*['"]([^'"]+)['"]\s*\)/g)) {
    found.push(specifier);
  }
  return found;
}

/** The source file a relative specifier names (`./x.js` is `./x.ts` or `./x.tsx`), if any. */
function resolveSpecifier(from, specifier) {
  if (!specifier.startsWith('.')) return undefined;
  const base = resolve(dirname(from), specifier).replace(/\.(m?js|jsx)$/, '');
  return [`${base}.ts`, `${base}.tsx`, join(base, 'index.ts'), join(base, 'index.tsx')].find((f) =>
    known.has(f),
  );
}

const edges = new Map(
  files.map((file) => [
    file,
    [
      ...new Set(
        runtimeImports(readFileSync(file, 'utf8'))
          .map((s) => resolveSpecifier(file, s))
          .filter(Boolean),
      ),
    ],
  ]),
);

// Tarjan's strongly connected components: every component of more than one file (or a file
// importing itself) holds a cycle.
let index = 0;
const order = new Map();
const low = new Map();
const stack = [];
const onStack = new Set();
const cycles = [];

function visit(file) {
  order.set(file, index);
  low.set(file, index);
  index += 1;
  stack.push(file);
  onStack.add(file);
  for (const next of edges.get(file)) {
    if (!order.has(next)) {
      visit(next);
      low.set(file, Math.min(low.get(file), low.get(next)));
    } else if (onStack.has(next)) {
      low.set(file, Math.min(low.get(file), order.get(next)));
    }
  }
  if (low.get(file) !== order.get(file)) return;
  const component = [];
  let member;
  do {
    member = stack.pop();
    onStack.delete(member);
    component.push(member);
  } while (member !== file);
  if (component.length > 1 || edges.get(file).includes(file)) cycles.push(component);
}

for (const file of files) if (!order.has(file)) visit(file);

/** The shortest loop from the component's first file back to it, for the message. */
function loopThrough(component) {
  const inside = new Set(component);
  const [start] = component;
  const cameFrom = new Map([[start, undefined]]);
  const queue = [start];
  while (queue.length > 0) {
    const here = queue.shift();
    for (const next of edges.get(here)) {
      if (next === start) {
        const path = [start];
        for (let f = here; f !== start; f = cameFrom.get(f)) path.splice(1, 0, f);
        return [...path, start];
      }
      if (inside.has(next) && !cameFrom.has(next)) {
        cameFrom.set(next, here);
        queue.push(next);
      }
    }
  }
  return component;
}

if (cycles.length > 0) {
  console.error(`Import cycles (${cycles.length}); break each by moving what both sides need:`);
  for (const component of cycles) {
    console.error(
      `  ${loopThrough(component)
        .map((f) => relative(root, f))
        .join('\n    → ')}`,
    );
  }
  process.exit(1);
}
console.log(`No import cycles among ${files.length} files.`);
