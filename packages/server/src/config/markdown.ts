/**
 * The settings table as Markdown, for the documents that list the environment variables
 * (README.md, docs/deploy.md). `scripts/settings-table.mjs` writes it between the markers, and
 * config/markdown.test.ts fails when a document's copy differs, so the docs cannot drift.
 */
import { SETTINGS, type Setting } from './settings.js';

/** The documents that carry the table, relative to the repository root. */
export const DOCUMENTS_WITH_SETTINGS = ['README.md', 'docs/deploy.md'] as const;

export const TABLE_START =
  '<!-- settings table: generated from packages/server/src/config/settings.ts by `node scripts/settings-table.mjs`; edit it there -->';
export const TABLE_END = '<!-- end of settings table -->';

/** A table cell: pipes escaped, so that a description cannot split its row. */
function cell(text: string): string {
  return text.replace(/\|/g, '\\|');
}

/** The meaning column: the description, the bounds, and an example unless it is a secret. */
function meaning(setting: Setting): string {
  const parts = [setting.description];
  const bounds = setting.path === null ? undefined : setting.bounds;
  if (bounds) {
    const off = bounds.zeroMeansOff ? ', or `0` for no limit' : '';
    parts.push(`Whole ${bounds.unit}, at least ${bounds.min}${off}`);
  }
  if (!setting.secret) parts.push(`Example: \`${setting.example}\``);
  return parts.join('. ');
}

/**
 * The settings table as Markdown: variable, type, meaning, default, and whether production needs
 * it set and whether it is a secret. It shows defaults and examples, never a value from the
 * environment, and no example of a secret.
 *
 * @example
 * settingsTable().split('\n')[0]; // '| variable | type | meaning | default | production |'
 */
export function settingsTable(): string {
  const rows = SETTINGS.map((setting: Setting) => {
    const production = [
      setting.requiredInProduction ? '**required**' : '',
      setting.secret ? 'secret' : '',
    ].filter(Boolean);
    return `| \`${setting.env}\` | ${setting.type} | ${cell(meaning(setting))} | ${cell(setting.fallback)} | ${production.join(', ')} |`;
  });
  return [
    '| variable | type | meaning | default | production |',
    '|---|---|---|---|---|',
    ...rows,
  ].join('\n');
}

/**
 * A document with the table between its markers replaced by {@link settingsTable}; throws when
 * the markers are missing, so that a moved table is noticed.
 *
 * @example
 * writeFileSync(path, withSettingsTable(readFileSync(path, 'utf8')));
 */
export function withSettingsTable(document: string): string {
  const start = document.indexOf(TABLE_START);
  const end = document.indexOf(TABLE_END);
  if (start === -1 || end < start) {
    throw new Error(`the settings table's markers are missing: ${TABLE_START} … ${TABLE_END}`);
  }
  return `${document.slice(0, start)}${TABLE_START}\n\n${settingsTable()}\n\n${document.slice(end)}`;
}
