// Fails when a source file's name is not kebab-case (docs/contributing.md, "File names"): lowercase
// letters and digits in dash-separated words, dot-separated parts (`use-countdown.ts`,
// `real-server.test.ts`). Run by `npm run lint`.
import { execFileSync } from 'node:child_process';

const ROOTS = ['packages/*/src', 'apps/*/src', 'apps/*/bin', 'e2e', 'bench', 'scripts'].map(
  (root) => `:(glob)${root}/**`,
);
/** Names that are conventions of their own. */
const ALLOWED = new Set(['README.md', 'CHANGELOG.md', 'RESULTS.md']);
const KEBAB = /^[a-z0-9]+(-[a-z0-9]+)*(\.[a-z0-9]+(-[a-z0-9]+)*)*$/;

const files = execFileSync(
  'git',
  ['ls-files', '--cached', '--others', '--exclude-standard', ...ROOTS],
  {
    encoding: 'utf8',
  },
)
  .split('\n')
  .filter((f) => f !== '' && !f.includes('/node_modules/') && !f.includes('/dist/'));

const bad = files.filter((file) => {
  const name = file.slice(file.lastIndexOf('/') + 1);
  return !ALLOWED.has(name) && !KEBAB.test(name);
});

if (bad.length > 0) {
  console.error(`File names must be kebab-case (docs/contributing.md):\n  ${bad.join('\n  ')}`);
  process.exit(1);
}
console.log(`${files.length} file names are kebab-case.`);
