// ESLint runs only the rules oxlint has no equivalent for, on only the files they apply to
// (`npm run lint`: `eslint packages/widget/src packages/server/src '**/*.cjs'`): the rules of
// hooks and the React Compiler's checks in the widget, the server's rule that keeps queries and
// bare transactions out of services, and two rules for CommonJS files, which oxlint's parser
// accepts in sloppy mode. Everything else is oxlint's (.oxlintrc.json): eslint:recommended and
// typescript-eslint's recommended rules on every file, the server's layers, and the rules that
// read types, on TypeScript's native compiler. Import cycles are checked by
// scripts/check-cycles.mjs.
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  {
    ignores: ['**/node_modules/**', '**/dist/**', 'data/**', 'coverage/**', '**/*.d.ts'],
  },
  {
    languageOptions: { parser: tseslint.parser },
  },
  {
    files: ['packages/widget/src/**/*.tsx', 'packages/widget/src/**/use-*.ts'],
    ...reactHooks.configs.flat.recommended,
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
    // oxlint has neither rule, and its parser takes duplicate parameters and legacy octal
    // literals in a CommonJS file's sloppy mode (in a module both are syntax errors).
    files: ['**/*.cjs'],
    languageOptions: { sourceType: 'commonjs' },
    rules: { 'no-dupe-args': 'error', 'no-octal': 'error' },
  },
);
