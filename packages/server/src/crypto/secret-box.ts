/** Encryption at rest (AES-256-GCM under the server key) and loading of that key. */
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs';

const VERSION = 'v1';

/** Encrypts and decrypts short secrets (private keys, TOTP secrets) with one 32-byte key. */
export class SecretBox {
  readonly #key: Buffer;

  constructor(key: Buffer) {
    if (key.length !== 32) throw new TypeError('The server key must be 32 bytes');
    this.#key = key;
  }

  /** Returns `v1.{iv}.{tag}.{ciphertext}`, all base64url. */
  seal(plaintext: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.#key, iv);
    const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    const tag = cipher.getAuthTag();
    return [VERSION, iv, tag, body]
      .map((p) => (typeof p === 'string' ? p : p.toString('base64url')))
      .join('.');
  }

  /**
   * Decrypts what {@link seal} produced; throws a {@link WrongServerKeyError} if it was tampered
   * with or sealed by another key.
   */
  open(sealed: string): string {
    const [version, iv, tag, body] = sealed.split('.');
    if (version !== VERSION || !iv || !tag || body === undefined) {
      throw new Error('Unreadable sealed value');
    }
    try {
      const decipher = createDecipheriv('aes-256-gcm', this.#key, Buffer.from(iv, 'base64url'));
      decipher.setAuthTag(Buffer.from(tag, 'base64url'));
      return Buffer.concat([
        decipher.update(Buffer.from(body, 'base64url')),
        decipher.final(),
      ]).toString('utf8');
    } catch {
      throw new WrongServerKeyError();
    }
  }
}

/** A value stored in the database does not decrypt with the server key in use. */
export class WrongServerKeyError extends Error {
  constructor() {
    super(
      'A secret stored in the database does not decrypt with this server key. Check that ' +
        'GATEHOUSE_SERVER_KEY is the key this database was created with (for a SQLite database ' +
        'first started without it, the contents of {database file}.key beside it), and that ' +
        'DATABASE_URL names the intended database.',
    );
    this.name = 'WrongServerKeyError';
  }
}

/**
 * Decodes a 32-byte key given as 64 hex digits or as base64/base64url.
 *
 * @example
 * parseServerKey(process.env.GATEHOUSE_SERVER_KEY ?? '');
 */
export function parseServerKey(text: string): Buffer {
  const trimmed = text.trim();
  const key = /^[0-9a-fA-F]{64}$/.test(trimmed)
    ? Buffer.from(trimmed, 'hex')
    : Buffer.from(trimmed, 'base64');
  if (key.length !== 32) {
    throw new TypeError('The server key must be 32 bytes, as 64 hex digits or base64');
  }
  return key;
}

/** {@link parseServerKey}, with an error that names where the key came from and what to check. */
function parseNamedKey(text: string, name: string): Buffer {
  try {
    return parseServerKey(text);
  } catch {
    throw new TypeError(
      `${name} is not a valid server key: it must be 32 bytes, written as 64 hex digits or in ` +
        `base64 (it has ${text.trim().length} characters). Check that the whole key was copied, ` +
        'without quotes or spaces; `openssl rand -hex 32` makes a new one (only for a new ' +
        'database: data already stored needs the key it was stored with).',
    );
  }
}

/** How the server key was obtained, for the start-up log. */
export type ServerKeySource = 'config' | 'file-created' | 'file' | 'ephemeral';

/**
 * Resolves the server key: the configured one; else one kept in `{dbFile}.key` (created once,
 * mode 0600); else, for an in-memory database whose data dies with the process, a random one.
 *
 * @example
 * const { key, source } = loadServerKey(config.serverKey, '/srv/data/gatehouse.db');
 */
export function loadServerKey(
  configured: string | undefined,
  sqliteFile: string | null,
  persistent: boolean,
): { key: Buffer; source: ServerKeySource; path?: string } {
  if (configured)
    return { key: parseNamedKey(configured, 'GATEHOUSE_SERVER_KEY'), source: 'config' };
  if (sqliteFile) {
    const path = `${sqliteFile}.key`;
    if (existsSync(path))
      return {
        key: parseNamedKey(readFileSync(path, 'utf8'), `The key file ${path}`),
        source: 'file',
        path,
      };
    const key = randomBytes(32);
    writeFileSync(path, `${key.toString('hex')}\n`, { mode: 0o600, flag: 'wx' });
    chmodSync(path, 0o600);
    return { key, source: 'file-created', path };
  }
  if (persistent) {
    // A shared database outlives any one process: a per-start random key would make every
    // stored secret unreadable after a restart, so refuse instead.
    throw new Error('GATEHOUSE_SERVER_KEY is required with a PostgreSQL database');
  }
  return { key: randomBytes(32), source: 'ephemeral' };
}
