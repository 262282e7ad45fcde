/**
 * The password hashes file of `gatehouse import --password-hashes` (docs/migrate.md, "One command
 * to migrate"): JSON lines or CSV with a header, one member per line, each read into the body of
 * `passwords/migrate` and checked by that endpoint's own schema. A bad line is reported with its
 * number and skipped; the others still count.
 */
import { isValidEmail } from '@gatehouse/protocol';
import { ENDPOINTS, MIGRATE_HASH_CONFIG, type BodyOf } from '@gatehouse/protocol/endpoints';

/** One usable line: what `passwords/migrate` takes, with the organization still by id or slug. */
export interface HashLine {
  line: number;
  /** An organization id, or a slug to look up in the target project. */
  organization: string;
  input: Omit<BodyOf<typeof ENDPOINTS.migratePassword>, 'organization_id'>;
}

/** What the file holds: usable lines, and the others with why. */
export interface HashFile {
  lines: HashLine[];
  refused: { line: number; reason: string }[];
}

/** The config field each hash type takes; the others take none. */
const CONFIG_FIELD: Readonly<Record<string, string>> = MIGRATE_HASH_CONFIG;

/** The fields of one CSV line, with RFC 4180 quoting (`"a,b"`, `""` for a quote). */
function csvFields(line: string): string[] | null {
  const fields: string[] = [];
  let i = 0;
  for (;;) {
    let field = '';
    if (line[i] === '"') {
      i++;
      for (;;) {
        if (i >= line.length) return null;
        if (line[i] === '"') {
          if (line[i + 1] === '"') {
            field += '"';
            i += 2;
            continue;
          }
          i++;
          break;
        }
        field += line[i];
        i++;
      }
      if (i < line.length && line[i] !== ',') return null;
    } else {
      const end = line.indexOf(',', i);
      field = end === -1 ? line.slice(i) : line.slice(i, end);
      i = end === -1 ? line.length : end;
    }
    fields.push(field.trim());
    if (i >= line.length) return fields;
    i++; // the comma
  }
}

/** One record, whatever the file's format, as the migration's body or why it cannot be. */
function toLine(line: number, record: Record<string, unknown>): HashLine | string {
  const text = (...names: string[]) => {
    for (const name of names) {
      const value = record[name];
      if (typeof value === 'string' && value !== '') return value;
    }
    return undefined;
  };
  const organization = text('organization_id', 'organization');
  if (!organization) return 'organization is missing';
  const hashType = text('hash_type') ?? '';
  const body: Record<string, unknown> = {
    email_address: text('email_address', 'email'),
    hash: text('hash'),
    hash_type: hashType,
  };
  for (const field of new Set(Object.values(CONFIG_FIELD))) {
    if (record[field] !== undefined) body[field] = record[field];
  }
  let config = record.config;
  if (typeof config === 'string') {
    if (config.trim() === '') config = undefined;
    else {
      try {
        config = JSON.parse(config);
      } catch {
        return 'config is not JSON';
      }
    }
  }
  if (config !== undefined && config !== null) {
    const field = CONFIG_FIELD[hashType];
    if (!field) return `hash_type ${hashType || '(missing)'} takes no config`;
    body[field] = config;
  }
  const parsed = ENDPOINTS.migratePassword.body.safeParse({
    ...body,
    organization_id: organization,
  });
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue?.path.join('.') || 'line';
    return `${where}: ${issue?.message ?? 'invalid'}`;
  }
  const { organization_id: _organization, ...input } = parsed.data;
  if (!isValidEmail(input.email_address.trim().toLowerCase())) {
    return 'email_address: not an e-mail address';
  }
  return { line, organization, input };
}

/**
 * Reads a hashes file: JSON lines when its first non-blank character is `{`, CSV with a header
 * line otherwise. Blank lines are ignored; line numbers count from 1 as editors do.
 *
 * @example
 * const { lines, refused } = parseHashFile('{"email":"ada@acme.test","organization_id":"organization-test-…","hash":"$2b$10$…","hash_type":"bcrypt"}\n');
 */
export function parseHashFile(text: string): HashFile {
  const rows = text.replace(/^\uFEFF/, '').split(/\r?\n/);
  const result: HashFile = { lines: [], refused: [] };
  const add = (line: number, record: Record<string, unknown>) => {
    const read = toLine(line, record);
    if (typeof read === 'string') result.refused.push({ line, reason: read });
    else result.lines.push(read);
  };
  const json = text.trimStart().startsWith('{');
  let header: string[] | null = null;
  rows.forEach((raw, index) => {
    const line = index + 1;
    if (raw.trim() === '') return;
    if (json) {
      let record: unknown;
      try {
        record = JSON.parse(raw);
      } catch {
        result.refused.push({ line, reason: 'not a JSON object' });
        return;
      }
      if (typeof record !== 'object' || record === null || Array.isArray(record)) {
        result.refused.push({ line, reason: 'not a JSON object' });
        return;
      }
      add(line, record as Record<string, unknown>);
      return;
    }
    const fields = csvFields(raw);
    if (!fields) {
      result.refused.push({ line, reason: 'unbalanced quotes' });
      return;
    }
    if (!header) {
      header = fields.map((f) => f.toLowerCase());
      return;
    }
    if (fields.length !== header.length) {
      result.refused.push({
        line,
        reason: `${fields.length} fields; the header has ${header.length}`,
      });
      return;
    }
    const names = header;
    add(line, Object.fromEntries(fields.map((value, i) => [names[i] ?? '', value])));
  });
  return result;
}
