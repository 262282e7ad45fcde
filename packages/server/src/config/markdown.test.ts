// The documents' tables of environment variables are the settings table's, rendered: a changed
// setting fails here until `node scripts/settings-table.mjs` has rewritten them.
import { readFileSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  DOCUMENTS_WITH_SETTINGS,
  settingsTable,
  TABLE_END,
  TABLE_START,
  withSettingsTable,
} from './markdown.js';
import { SETTINGS } from './settings.js';

const root = new URL('../../../../', import.meta.url);

describe('the documents’ settings tables', () => {
  it.each(DOCUMENTS_WITH_SETTINGS)('%s carries the table generated from the settings', (path) => {
    const file = new URL(path, root);
    const committed = readFileSync(file, 'utf8');
    const generated = withSettingsTable(committed);
    if (process.env.GATEHOUSE_WRITE_SETTINGS_TABLE === '1' && generated !== committed) {
      writeFileSync(file, generated);
      return;
    }
    expect(committed, `${path} is out of date: run node scripts/settings-table.mjs`).toBe(
      generated,
    );
  });

  it('has one row per setting, never a secret’s example', () => {
    const rows = settingsTable().split('\n').slice(2);
    expect(rows.map((row) => /^\| `([A-Z0-9_]+)` \|/.exec(row)?.[1])).toEqual(
      SETTINGS.map((s) => s.env),
    );
    for (const setting of SETTINGS.filter((s) => s.secret)) {
      const row = rows.find((r) => r.startsWith(`| \`${setting.env}\``)) ?? '';
      expect(row, setting.env).toMatch(/\| secret \|$|, secret \|$/);
      expect(row, setting.env).not.toContain(setting.example);
    }
  });

  it('replaces only what is between the markers, and refuses a document without them', () => {
    const document = `# Title\n\n${TABLE_START}\n| old |\n${TABLE_END}\n\nAfter.\n`;
    const replaced = withSettingsTable(document);
    expect(replaced).toBe(
      `# Title\n\n${TABLE_START}\n\n${settingsTable()}\n\n${TABLE_END}\n\nAfter.\n`,
    );
    expect(withSettingsTable(replaced)).toBe(replaced);
    expect(() => withSettingsTable('# No table\n')).toThrow(/markers are missing/);
  });

  it('packages/server/README.md names each ServerConfig key’s variables as the table does', () => {
    const readme = readFileSync(new URL('packages/server/README.md', root), 'utf8');
    const section = /^## Configuration\n([\s\S]*?)^## /m.exec(readme)?.[1] ?? '';
    const documented = section
      .split('\n')
      .filter((line) => line.startsWith('| `'))
      .map((line): [key: string, env: string[]] => {
        const [, key = '', env = ''] = line.split('|');
        return [
          key.trim().replace(/`/g, ''),
          [...env.matchAll(/`([A-Z][A-Z0-9_]*)`/g)].map((m) => m[1] ?? ''),
        ];
      });
    const expected = new Map<string, string[]>();
    for (const setting of SETTINGS) {
      if (setting.path === null) continue;
      const key = setting.path.split('.')[0] ?? '';
      expected.set(key, [...(expected.get(key) ?? []), setting.env]);
    }
    const withVariables = documented.filter(([, env]) => env.length > 0);
    expect(withVariables).toEqual(expect.arrayContaining([...expected.entries()]));
    expect(withVariables).toHaveLength(expected.size);
  });
});
