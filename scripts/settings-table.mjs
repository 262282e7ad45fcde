// Writes the table of environment variables, generated from the server's settings table
// (packages/server/src/config/settings.ts), between its markers in README.md and docs/deploy.md.
// It runs the test that compares them (config/markdown.test.ts) in its writing mode, so the table
// is rendered by the same code the test checks it with. Usage: node scripts/settings-table.mjs
import { spawnSync } from 'node:child_process';

const result = spawnSync(
  'npx',
  ['vitest', 'run', '--project', 'server', 'packages/server/src/config/markdown.test.ts'],
  { stdio: 'inherit', env: { ...process.env, GATEHOUSE_WRITE_SETTINGS_TABLE: '1' } },
);
process.exit(result.status ?? 1);
