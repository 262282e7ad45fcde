/// <reference types="node" />
// Builds the widget two ways: `vite build` is the ESM library for React apps (React, react-dom
// and the other dependencies stay external, lazy screens stay separate chunks);
// `vite build --mode standalone` is a script-tag build (`<script type="module">`) with React and
// the client inside, which puts `mount`, `hydrate` and `createClient` on `window.Gatehouse`;
// `vite build --mode server` is the server entry that renders the first screen to HTML.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import {
  defaultClientConditions,
  defaultServerConditions,
  defineConfig,
  type BuildEnvironmentOptions,
  type Plugin,
  type UserConfig,
} from 'vite';

const path = (relative: string) => fileURLToPath(new URL(relative, import.meta.url));

/** What the library builds leave to the host's bundler: React and the other dependencies. */
const LIBRARY_EXTERNALS = [
  /^react(\/.*)?$/,
  /^react-dom(\/.*)?$/,
  'react-hot-toast',
  '@gatehouse/client',
  '@gatehouse/protocol',
];

/**
 * The standalone script renders with Preact behind React's API (`preact/compat`): the same
 * components, in a runtime a third of React's size. The library builds leave React to the host,
 * and the server entry renders with React, whose HTML Preact hydrates.
 */
export const PREACT = [
  { find: /^react-dom\/client$/, replacement: 'preact/compat/client' },
  { find: /^react\/jsx-(dev-)?runtime$/, replacement: 'preact/jsx-runtime' },
  { find: /^react(-dom)?$/, replacement: 'preact/compat' },
];

/** Also ships the style sheet as `dist/style.css` for hosts that prefer to link it themselves. */
function emitStyleSheet(): Plugin {
  return {
    name: 'gatehouse-emit-style-sheet',
    generateBundle() {
      this.emitFile({
        type: 'asset',
        fileName: 'style.css',
        source: readFileSync(path('./src/styles.css'), 'utf8'),
      });
    },
  };
}

/**
 * `vite build --mode server`: `@gatehouse/widget/server` for Node, one file that renders the first
 * screen to HTML; React and the other dependencies are imported from node_modules.
 */
function serverBuild(): UserConfig {
  return {
    oxc: { jsx: { runtime: 'automatic' } },
    resolve: { conditions: ['source', ...defaultServerConditions] },
    build: {
      ssr: path('./src/server.tsx'),
      outDir: path('./dist/server'),
      emptyOutDir: true,
      target: 'node20',
      rolldownOptions: {
        onLog: quietDirectives,
        output: { entryFileNames: 'server.js', codeSplitting: false },
      },
    },
  };
}

/**
 * `vite build --mode admin`: `@gatehouse/widget/admin`, the admin portal for React apps, built
 * on its own so that the login widget's chunks stay as they are; the portal itself is a chunk
 * its entry loads on first use.
 */
function adminBuild(): UserConfig {
  return {
    base: './',
    oxc: { jsx: { runtime: 'automatic' } },
    resolve: { conditions: ['source', ...defaultClientConditions] },
    build: {
      outDir: path('./dist/admin'),
      emptyOutDir: true,
      target: 'es2020',
      lib: { entry: path('./src/admin-portal.tsx'), formats: ['es'], fileName: () => 'admin.js' },
      rolldownOptions: { onLog: quietDirectives, external: LIBRARY_EXTERNALS },
    },
  };
}

type OnLog = NonNullable<NonNullable<BuildEnvironmentOptions['rolldownOptions']>['onLog']>;

/** react-hot-toast marks itself "use client" for server frameworks; that means nothing here. */
const quietDirectives: OnLog = (level, log, handler) => {
  if (log.code !== 'MODULE_LEVEL_DIRECTIVE') handler(level, log);
};

export default defineConfig(({ mode }) => {
  if (mode === 'server') return serverBuild();
  if (mode === 'admin') return adminBuild();
  const standalone = mode === 'standalone';
  return {
    // Chunks load relative to the script, wherever a host serves it from.
    base: './',
    oxc: { jsx: { runtime: 'automatic' } },
    // Workspace packages resolve to their TypeScript sources, so no prior build is needed.
    resolve: {
      conditions: ['source', ...defaultClientConditions],
      ...(standalone ? { alias: PREACT } : {}),
    },
    define: standalone ? { 'process.env.NODE_ENV': JSON.stringify('production') } : {},
    plugins: standalone ? [] : [emitStyleSheet()],
    build: standalone
      ? {
          outDir: path('./dist/standalone'),
          emptyOutDir: true,
          target: 'es2020',
          // An application build of one ES module rather than a library build: it is minified
          // fully, and the screens only some flows need (passwords, MFA, phone-number parsing)
          // stay in chunks the browser fetches, relative to the script, when it needs them.
          modulePreload: false,
          rolldownOptions: {
            input: path('./src/standalone.ts'),
            preserveEntrySignatures: 'allow-extension',
            onLog: quietDirectives,
            output: {
              entryFileNames: 'gatehouse-widget.js',
              chunkFileNames: 'chunks/[name]-[hash].js',
              codeSplitting: { groups: [{ name: 'widget', tags: ['$initial'] }] },
            },
          },
        }
      : {
          outDir: path('./dist'),
          emptyOutDir: true,
          target: 'es2020',
          lib: {
            entry: path('./src/index.ts'),
            formats: ['es'],
            fileName: () => 'index.js',
          },
          rolldownOptions: {
            onLog: quietDirectives,
            // Everything the first screen needs goes in one chunk beside the entry, rather than
            // in the many small common chunks the lazy screens would otherwise split it into.
            output: { codeSplitting: { groups: [{ name: 'widget', tags: ['$initial'] }] } },
            external: LIBRARY_EXTERNALS,
          },
        },
  };
});
