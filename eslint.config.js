// Lint rules for the whole monorepo: typescript-eslint with type information (floating and misused
// promises are errors), the rules of hooks, no import cycles, and the server's layers.
import js from '@eslint/js';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';
import { importX } from 'eslint-plugin-import-x';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';

/** The server's layers (docs/architecture.md §3, "What may import what"). */
const HTTP = {
  group: ['**/http/*', '**/http/**'],
  message: 'Only http/ knows HTTP; return a value or a Failure instead (docs/architecture.md §3).',
};
const FASTIFY = {
  group: ['fastify', '@fastify/*'],
  message: 'Only http/ knows Fastify (docs/architecture.md §3).',
};
const PRODUCTS = {
  group: ['**/products/*', '**/products/**'],
  message:
    'The ground floor never imports products; they reach it through Context (docs/architecture.md §3).',
};

export default tseslint.config(
  {
    ignores: ['**/node_modules/**', '**/dist/**', 'data/**', 'coverage/**', '**/*.d.ts'],
  },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: {
        projectService: {
          allowDefaultProject: ['*.js', '*.mjs', '*.ts', 'scripts/*.mjs'],
        },
        tsconfigRootDir: import.meta.dirname,
      },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
      '@typescript-eslint/require-await': 'off',
    },
  },
  {
    // No import cycles. The rule follows value imports only (`import type` vanishes at run time),
    // so keep type-only cycles out by hand too: shared types live in the module that owns them.
    files: ['packages/*/src/**/*.{ts,tsx}', 'apps/*/src/**/*.ts'],
    plugins: { 'import-x': importX },
    settings: {
      'import-x/extensions': ['.ts', '.tsx'],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts', '.tsx'] },
      'import-x/resolver-next': [
        createTypeScriptImportResolver({
          project: ['packages/*/tsconfig.json', 'apps/*/tsconfig.json'],
          noWarnOnMultipleProjects: true,
          conditionNames: ['source', 'types', 'import', 'default'],
        }),
      ],
    },
    rules: { 'import-x/no-cycle': ['error', { ignoreExternal: true }] },
  },
  {
    files: ['packages/widget/src/**/*.tsx', 'packages/widget/src/**/use*.ts'],
    ...reactHooks.configs.flat.recommended,
  },
  {
    files: [
      'packages/server/src/store/**/*.ts',
      'packages/server/src/crypto/**/*.ts',
      'packages/server/src/delivery/**/*.ts',
    ],
    ignores: ['**/*.test.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [PRODUCTS, HTTP, FASTIFY] }] },
  },
  {
    files: ['packages/server/src/products/**/*.ts'],
    ignores: [
      // Tests start a real server, so they may reach the whole app.
      '**/*.test.ts',
      // HTTP adapters, exempt for now: each products/<name>/routes.ts registers Fastify routes
      // with http/ helpers, and route registration is moving into the protocol's endpoint table.
      // mfa-caller.ts is the MFA routes' shared preamble (reads the Fastify request, parses the
      // body) and magic-links/limits.ts throws the routes' 429; both go with the routes.
      'packages/server/src/products/*/routes.ts',
      'packages/server/src/products/sessions/mfa-caller.ts',
      'packages/server/src/products/magic-links/limits.ts',
    ],
    rules: { 'no-restricted-imports': ['error', { patterns: [HTTP, FASTIFY] }] },
  },
  {
    files: ['**/*.js', '**/*.mjs', '**/*.cjs'],
    ...tseslint.configs.disableTypeChecked,
    languageOptions: {
      ...tseslint.configs.disableTypeChecked.languageOptions,
      // Plain scripts run on Node.
      globals: { process: 'readonly', console: 'readonly', URL: 'readonly', require: 'readonly' },
    },
  },
  {
    files: ['**/*.cjs'],
    languageOptions: { sourceType: 'commonjs' },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
);
