// Makes sure Debian's Chromium is present for the browser tests: its headless build
// (`chromium-headless-shell`, about a third of the CPU per new context), or the full browser where
// the package archive has no headless build. Installs it when running as root, otherwise stops
// with the command to run. With CHROMIUM_PATH set, that browser must be present.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';

/** Debian's builds, preferred first, as e2e/harness.ts looks for them. */
const BUILDS = [
  { path: '/usr/bin/chromium-headless-shell', package: 'chromium-headless-shell' },
  { path: '/usr/bin/chromium', package: 'chromium' },
];

const present = () =>
  process.env.CHROMIUM_PATH
    ? existsSync(process.env.CHROMIUM_PATH)
    : BUILDS.some((b) => existsSync(b.path));

if (!present()) {
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  if (!isRoot || process.env.CHROMIUM_PATH) {
    console.error(
      `Chromium is missing${process.env.CHROMIUM_PATH ? ` at ${process.env.CHROMIUM_PATH}` : ''}. Install it with:\n  sudo apt-get update && sudo apt-get install -y chromium-headless-shell`,
    );
    process.exit(1);
  }
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  execFileSync('apt-get', ['update'], { stdio: 'inherit', env });
  for (const build of BUILDS) {
    console.log(`Installing Debian's ${build.package} for the browser tests…`);
    try {
      execFileSync('apt-get', ['install', '-y', '--no-install-recommends', build.package], {
        stdio: 'inherit',
        env,
      });
      break;
    } catch {
      console.log(`${build.package} could not be installed; trying the next build.`);
    }
  }
  if (!present()) {
    console.error('No Chromium could be installed for the browser tests.');
    process.exit(1);
  }
}
