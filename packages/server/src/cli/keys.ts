/** `gatehouse keys rotate|rotate-server-key`: the JWT signing key, and the key that seals secrets. */
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { configFromEnv, resolveConfig } from '../config.js';
import { parseServerKey, SecretBox } from '../crypto/secret-box.js';
import { openStore } from '../store/db.js';
import { refusePendingMigrations } from '../store/migrations.js';
import { resealAll, ResealError } from '../store/reseal.js';
import { defineCommand, option, UsageError, type Parser } from './command.js';
import { DATABASE_SETTINGS } from './environment.js';
import { withRuntime } from './open.js';

/** Makes a new key sign session JWTs. */
export const keysRotate = defineCommand({
  name: ['keys', 'rotate'],
  summary: 'Make a new key sign session JWTs',
  usage: '',
  description:
    'Creates a signing key and retires the current one. The JWKS keeps publishing retired keys ' +
    'until the JWTs they signed have expired (six minutes), so no session notices; every running ' +
    'instance signs with the new key within five seconds, without a restart.',
  options: {},
  environment: DATABASE_SETTINGS,
  async run(_values, io) {
    await withRuntime(io, async ({ admin }) => {
      const key = await admin.rotateSigningKey();
      io.stdout(`Signing key rotated.\nkid: ${key.kid}\n`);
    });
  },
});

const serverKey: Parser<Buffer> = (raw, flag) => {
  try {
    return parseServerKey(raw);
  } catch {
    throw new UsageError(`${flag} must be 32 bytes, as 64 hex digits or base64`);
  }
};

/** Re-encrypts everything sealed with the server key under a new one. */
export const keysRotateServerKey = defineCommand({
  name: ['keys', 'rotate-server-key'],
  summary: 'Re-encrypt every stored secret under a new server key',
  usage: '--from OLD --to NEW',
  description:
    'Opens every value sealed with the old server key (signing keys, TOTP secrets, backup ' +
    'codes, OIDC and OAuth client secrets, PKCE verifiers, provider tokens) and seals it with ' +
    'the new one, in one transaction: if any value does not open, nothing changes. Stop the ' +
    'servers first and start them with GATEHOUSE_SERVER_KEY set to the new key. SMS codes sent ' +
    'before the rotation stop working (they are keyed with the server key). A key file next to ' +
    'a SQLite database that holds the old key is replaced with the new one. Generate a key with ' +
    '`openssl rand -hex 32`.',
  options: {
    from: option('OLD', 'The current server key', { parse: serverKey }).required(),
    to: option('NEW', 'The new server key', { parse: serverKey }).required(),
  },
  environment: DATABASE_SETTINGS,
  async run(values, io) {
    if (values.from.equals(values.to)) throw new UsageError('--from and --to are the same key');
    const config = resolveConfig(configFromEnv(io.env));
    const store = openStore(config.databaseUrl);
    try {
      // Like every management command, it leaves migrating to `gatehouse migrate`.
      await refusePendingMigrations(store.db, await store.migrationSchema());
      let counts;
      try {
        counts = await resealAll(store.db, new SecretBox(values.from), new SecretBox(values.to));
      } catch (error) {
        if (error instanceof ResealError) throw new UsageError(`${error.message} Nothing changed.`);
        throw error;
      }
      io.stdout(
        'Every sealed value is now encrypted with the new key.\n' +
          counts.map((c) => `  ${c.column}: ${c.values}\n`).join(''),
      );
      if (store.location.kind === 'sqlite' && store.location.file) {
        const file = `${store.location.file}.key`;
        if (existsSync(file) && parseServerKey(readFileSync(file, 'utf8')).equals(values.from)) {
          writeFileSync(`${file}.new`, `${values.to.toString('hex')}\n`, { mode: 0o600 });
          renameSync(`${file}.new`, file);
          io.stdout(`The key file ${file} now holds the new key.\n`);
          return;
        }
      }
      io.stdout('Start the servers with GATEHOUSE_SERVER_KEY set to the new key.\n');
    } finally {
      await store.close();
    }
  },
});
