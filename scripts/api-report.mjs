// Checks the public API of @gatehouse/client and @gatehouse/widget against the reports committed in
// packages/<name>/etc/<name>.api.md, with API Extractor over the built .d.ts files (needs the build).
// `--update` rewrites the reports instead: commit them with the change that altered the API.
import { readdirSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Extractor, ExtractorConfig } from '@microsoft/api-extractor';

const PACKAGES = ['client', 'widget'];
const update = process.argv.includes('--update');
const root = fileURLToPath(new URL('..', import.meta.url));

/** Newest modification time of the sources under `dir` that the build compiles (no tests). */
function newestSource(dir) {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    const path = `${entry.parentPath}/${entry.name}`;
    if (!entry.isFile() || !/\.tsx?$/.test(path) || /\.test\.tsx?$|\/src\/test\//.test(path)) {
      continue;
    }
    newest = Math.max(newest, statSync(path).mtimeMs);
  }
  return newest;
}

let failed = false;
for (const name of PACKAGES) {
  const config = ExtractorConfig.loadFileAndPrepare(`${root}packages/${name}/api-extractor.json`);
  const entry = config.mainEntryPointFilePath;
  // A report taken from declarations older than the sources would pass or fail for the wrong
  // reason, so a stale or missing build stops the check rather than being compared.
  let builtAt = 0;
  try {
    builtAt = statSync(entry).mtimeMs;
  } catch {
    // Missing: handled below like a stale build.
  }
  if (builtAt < newestSource(`${root}packages/${name}/src`)) {
    console.error(
      `@gatehouse/${name}: ${entry} is missing or older than the sources. Run \`npm run build\` first.`,
    );
    failed = true;
    continue;
  }

  const result = Extractor.invoke(config, { localBuild: update, printApiReportDiff: !update });
  if (!result.succeeded) {
    failed = true;
    if (result.apiReportChanged && !update) {
      console.error(
        `\n@gatehouse/${name}: the public API differs from packages/${name}/etc/${name}.api.md.\n` +
          'If the change is intended, run `npm run api:update`, commit the report, and add a ' +
          'changeset (`npx changeset`) that says what changed for users of the package.\n',
      );
    }
  }
}

process.exit(failed ? 1 : 0);
