// Makes sure Debian's headless Chromium is present for the browser tests: installs it when running
// as root, otherwise stops with the command to run.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { basename } from 'node:path';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium-headless-shell';
/** The Debian package that installs it: the headless build, or the full browser. */
const PACKAGE = basename(CHROMIUM) === 'chromium' ? 'chromium' : 'chromium-headless-shell';

if (!existsSync(CHROMIUM)) {
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  if (!isRoot) {
    console.error(
      `Chromium is missing at ${CHROMIUM}. Install it with:\n  sudo apt-get update && sudo apt-get install -y ${PACKAGE}`,
    );
    process.exit(1);
  }
  console.log(`Installing Debian's ${PACKAGE} for the browser tests…`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  execFileSync('apt-get', ['update'], { stdio: 'inherit', env });
  execFileSync('apt-get', ['install', '-y', '--no-install-recommends', PACKAGE], {
    stdio: 'inherit',
    env,
  });
}
