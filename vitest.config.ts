// One test run for the whole monorepo: each package is a project; workspace packages resolve to
// their TypeScript sources so tests never need a prior build (the e2e project uses the build).
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import { PREACT } from './packages/widget/vite.config.js';

const src = (path: string) => fileURLToPath(new URL(path, import.meta.url));

// Password hashes in tests use cheap argon2id parameters (honoured only inside the test runner,
// never in production); the hashing suites turn it off and hash at full cost.
const env = { GATEHOUSE_TEST_FAST_HASH: '1' };

/** Empties the page between the files of the browser-side projects, which share their modules. */
const BETWEEN_FILES = 'packages/client/src/test/between-files.ts';

const alias = {
  // Subpath entries first: an alias also matches longer specifiers that start with it.
  '@gatehouse/protocol/endpoints': src('./packages/protocol/src/endpoints/index.ts'),
  '@gatehouse/protocol': src('./packages/protocol/src/index.ts'),
  '@gatehouse/client': src('./packages/client/src/index.ts'),
  '@gatehouse/server': src('./packages/server/src/index.ts'),
  '@gatehouse/widget/server': src('./packages/widget/src/server.tsx'),
  '@gatehouse/widget': src('./packages/widget/src/index.ts'),
  '@gatehouse/testing/server': src('./packages/testing/src/server.ts'),
  '@gatehouse/testing/idp': src('./packages/testing/src/idp/index.ts'),
  '@gatehouse/testing': src('./packages/testing/src/index.ts'),
};

/** The widget's suite, as each of its two projects runs it. */
const WIDGET_SUITE = {
  // One worker's files share the modules; each starts from an empty page (see the files).
  isolate: false,
  setupFiles: [BETWEEN_FILES, 'packages/widget/src/test/between-files.ts'],
  include: ['packages/widget/src/**/*.test.{ts,tsx}'],
  environment: 'happy-dom',
};

/**
 * The widget's modules as its standalone script runs them: React's API from Preact
 * (`packages/widget/vite.config.ts`), the testing library's ES module included, so that its
 * `react-dom` is Preact's too.
 */
const preactAlias = [
  ...Object.entries(alias).map(([find, replacement]) => ({ find, replacement })),
  {
    find: /^@testing-library\/react$/,
    replacement: src('./node_modules/@testing-library/react/dist/@testing-library/react.esm.js'),
  },
  { find: /^react-dom\/test-utils$/, replacement: 'preact/test-utils' },
  { find: /^react-dom\/server$/, replacement: 'preact/compat/server' },
  ...PREACT,
];

export default defineConfig({
  test: {
    // Transformed modules are kept on disk (node_modules/.experimental-vitest-cache), keyed by their
    // source and the lockfile: the steps of `npm test` import the same sources (the server's by the
    // server, unit, PostgreSQL and browser steps) and transform each once.
    experimental: { fsModuleCache: true },
    projects: [
      {
        resolve: { alias },
        test: {
          name: 'protocol',
          include: ['packages/protocol/src/**/*.test.ts'],
          environment: 'node',
        },
      },
      {
        resolve: { alias },
        test: {
          name: 'server',
          env,
          // The server's modules load once per worker rather than once per file, which cost more
          // than the tests themselves; every suite starts its own servers and databases anyway.
          isolate: false,
          include: ['packages/server/src/**/*.test.ts'],
          environment: 'node',
          testTimeout: 30_000,
          hookTimeout: 30_000,
        },
      },
      {
        resolve: { alias },
        test: {
          name: 'client',
          env,
          // One worker's files share the modules; each starts from an empty page (see the file).
          isolate: false,
          setupFiles: [BETWEEN_FILES],
          include: ['packages/client/src/**/*.test.ts'],
          environment: 'happy-dom',
        },
      },
      {
        resolve: { alias },
        oxc: { jsx: { runtime: 'automatic' } },
        test: { name: 'widget', ...WIDGET_SUITE },
      },
      {
        // The same suite once more on the standalone script's runtime.
        resolve: { alias: preactAlias },
        oxc: { jsx: { runtime: 'automatic' } },
        test: {
          name: 'widget-preact',
          ...WIDGET_SUITE,
          // It builds with the widget's own configuration: once, in the project above, is enough.
          exclude: ['packages/widget/src/bundle-budget.test.ts'],
          // Transformed, so that the aliases apply to their imports of React too.
          server: { deps: { inline: [/@testing-library\/react/, 'react-hot-toast', 'goober'] } },
        },
      },
      {
        resolve: { alias },
        test: {
          name: 'testing',
          env,
          include: ['packages/testing/src/**/*.test.ts'],
          environment: 'node',
          testTimeout: 30_000,
          hookTimeout: 30_000,
        },
      },
      {
        resolve: { alias },
        // The demo renders the widget's first screen with its server entry.
        oxc: { jsx: { runtime: 'automatic' } },
        test: {
          name: 'demo',
          env,
          include: ['apps/demo/src/**/*.test.ts'],
          environment: 'node',
          testTimeout: 30_000,
        },
      },
      {
        test: {
          name: 'e2e',
          // The demo servers these suites start hash passwords cheaply too: what they test is the
          // browser's side; the hashing suites check the production cost.
          env,
          include: ['e2e/**/*.test.ts'],
          environment: 'node',
          testTimeout: 90_000,
          hookTimeout: 90_000,
          fileParallelism: false,
          isolate: false,
        },
      },
    ],
  },
});
