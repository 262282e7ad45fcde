// Lint rules for the whole monorepo: typescript-eslint's rules that need no type information, the
// rules of hooks, and the server's layers. The rules that read types (typescript-eslint's
// recommended type-checked set: floating and misused promises, unsafe `any`, …) are run by oxlint
// on TypeScript's native compiler (.oxlintrc.json), at a quarter of the CPU; import cycles by
// scripts/check-cycles.mjs, in a fraction of a second.
import js from '@eslint/js';
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
const AUTH = {
  group: ['**/auth/*', '**/auth/**'],
  message: 'The ground floor never imports the sign-in core (docs/architecture.md §3).',
};
/** The sign-in core reads the entities (tenancy/) and never a product. */
const PRODUCTS_FROM_AUTH = {
  group: ['**/products/*', '**/products/**'],
  message:
    'auth/ is called by products, never the other way round; it reads the entities in tenancy/ (docs/architecture.md §3).',
};
/** The entities sit below the sign-in core. */
const TENANCY = {
  group: ['**/tenancy/*', '**/tenancy/**'],
  message: 'The ground floor never imports the entities (docs/architecture.md §3).',
};
/** A product reaches another product through its service, never its store. */
const OTHER_PRODUCT_STORE = {
  regex: '^\\.\\./[^./][^/]*/store(-[a-z-]+)?\\.js$',
  message:
    "A product calls another product's service, never its store.ts (docs/architecture.md §3).",
};

export default tseslint.config(
  {
    ignores: ['**/node_modules/**', '**/dist/**', 'data/**', 'coverage/**', '**/*.d.ts'],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
    },
  },
  {
    files: ['packages/widget/src/**/*.tsx', 'packages/widget/src/**/use-*.ts'],
    ...reactHooks.configs.flat.recommended,
  },
  {
    files: [
      'packages/server/src/store/**/*.ts',
      'packages/server/src/crypto/**/*.ts',
      'packages/server/src/delivery/**/*.ts',
    ],
    ignores: ['**/*.test.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [PRODUCTS, AUTH, TENANCY, HTTP, FASTIFY] }],
    },
  },
  {
    // The entities: members, organizations, projects and roles, below the sign-in core.
    files: ['packages/server/src/tenancy/**/*.ts'],
    ignores: ['**/*.test.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [PRODUCTS, AUTH, HTTP, FASTIFY] }] },
  },
  {
    files: ['packages/server/src/auth/**/*.ts'],
    // Tests start a real server, so they may reach the whole app.
    ignores: ['**/*.test.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [PRODUCTS_FROM_AUTH, HTTP, FASTIFY] }],
    },
  },
  {
    files: ['packages/server/src/products/**/*.ts'],
    // routes.ts is each product's HTTP edge: it registers routes with http/ helpers. Tests start
    // a real server, so they may reach the whole app.
    ignores: ['**/*.test.ts', 'packages/server/src/products/*/routes.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [HTTP, FASTIFY, OTHER_PRODUCT_STORE] }],
    },
  },
  {
    files: ['packages/server/src/products/*/routes.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [OTHER_PRODUCT_STORE] }] },
  },
  {
    // A product's or entity's SQL lives in its store.ts (or, when that grows large, its
    // store-*.ts parts), so services read as use cases; their transactions say whether a failure
    // rolls back (docs/contributing.md, "Transactions").
    files: ['packages/server/src/products/**/*.ts', 'packages/server/src/tenancy/**/*.ts'],
    ignores: ['**/*.test.ts', '**/store.ts', '**/store-*.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector:
            'MemberExpression[property.name=/^(selectFrom|insertInto|updateTable|deleteFrom)$/]',
          message: "Queries live in the product's store.ts (docs/architecture.md §3).",
        },
        {
          selector: "CallExpression[callee.property.name='transaction'][arguments.length=0]",
          message:
            'Open a transaction with allOrNothing() or transaction() (docs/contributing.md, "Transactions").',
        },
      ],
    },
  },
  {
    files: ['**/*.js', '**/*.mjs', '**/*.cjs'],
    languageOptions: {
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
