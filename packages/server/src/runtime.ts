/** Opens everything the server runs on (database, keys, mailer, services) without any HTTP. */
import type { ResolvedConfig } from './config.js';
import type { Context, Logger } from './context.js';
import { loadServerKey, SecretBox } from './crypto/secret-box.js';
import { SigningKeys } from './crypto/signing-keys.js';
import { hkdfSync } from 'node:crypto';
import { createMailer } from './delivery/email.js';
import { httpSmsProvider } from './delivery/sms.js';
import { countingSmsProvider, DeliveryStats } from './delivery/stats.js';
import { startDomainRecheck } from './products/domains/recheck.js';
import { createAdmin, type Admin } from './products/management/admin.js';
import { ProjectService } from './tenancy/projects/service.js';
import { openStore, type DatabaseLocation, type PoolStats } from './store/db.js';
import { purgeExpired } from './store/housekeeping.js';
import { migrateToLatest, refusePendingMigrations } from './store/migrations.js';

/** How often spent tokens and sessions are purged. */
const HOUSEKEEPING_INTERVAL_MS = 10 * 60 * 1000;
/** How long an SMS provider may take to accept a message, unless configured. */
const SMS_TIMEOUT_MS = 10_000;

/** How {@link openRuntime} treats migrations the database has not applied. */
export interface OpenOptions {
  /**
   * True (the default, the server's way): apply them first. False (the management commands'):
   * refuse to open with a `MigrationsPendingError`, touching nothing, not even the server key file.
   */
  migrate?: boolean;
}

/** A migrated database with its services; `close` releases it. */
export interface Runtime {
  ctx: Context;
  admin: Admin;
  /** Names of the migrations applied by this open (empty when already up to date). */
  migrations: string[];
  /** Which kind of database this is. */
  dialect: DatabaseLocation['kind'];
  /** The connection pool's use (PostgreSQL); null for SQLite. */
  poolStats(): PoolStats | null;
  /** E-mail and SMS sent and failed by this process, for the metrics. */
  delivery: DeliveryStats;
  close(): Promise<void>;
}

/**
 * Opens the database named by the configuration, migrates it (or, with `migrate: false`, refuses
 * it unless it is migrated), loads the server key and the signing key. The HTTP server and the
 * CLI both start here.
 *
 * @example
 * const runtime = await openRuntime(resolveConfig(configFromEnv()), logger);
 */
export async function openRuntime(
  config: ResolvedConfig,
  log: Logger,
  options: OpenOptions = {},
): Promise<Runtime> {
  const store = openStore(config.databaseUrl);
  try {
    const migrationSchema = await store.migrationSchema();
    let migrations: string[] = [];
    if (options.migrate === false) await refusePendingMigrations(store.db, migrationSchema);
    else migrations = await migrateToLatest(store.db, migrationSchema);
    const sqliteFile = store.location.kind === 'sqlite' ? store.location.file : null;
    const serverKey = loadServerKey(
      config.serverKey,
      sqliteFile,
      store.location.kind === 'postgres',
    );
    if (serverKey.source === 'file-created') {
      log.warn(
        { path: serverKey.path },
        'No server key configured: generated one and stored it next to the database',
      );
    } else if (serverKey.source === 'file' && config.publicUrl.startsWith('https:')) {
      // Whoever copies the data folder (a backup, a snapshot) then holds the key to it too.
      log.warn(
        { path: serverKey.path },
        'Using the server key stored next to the database: in production set GATEHOUSE_SERVER_KEY and keep the key out of the data folder',
      );
    } else if (serverKey.source === 'file') {
      log.info({ path: serverKey.path }, 'Using the server key stored next to the database');
    } else if (serverKey.source === 'ephemeral') {
      log.warn({}, 'No server key configured: using a per-process key for the in-memory database');
    }
    const box = new SecretBox(serverKey.key);
    const delivery = new DeliveryStats();
    const mailer = createMailer({
      db: store.db,
      box,
      stats: delivery,
      smtp: config.smtp,
      from: config.emailFrom,
      keepCopies: config.devInbox,
      now: config.now,
      log,
    });
    const ctx: Context = {
      migrationSchema,
      db: store.db,
      config,
      now: config.now,
      box,
      keys: new SigningKeys(store.db, box, config.now),
      mailer,
      sms: config.sms
        ? countingSmsProvider(
            httpSmsProvider({ timeoutMs: SMS_TIMEOUT_MS, ...config.sms }),
            delivery,
          )
        : null,
      otpKey: Buffer.from(
        hkdfSync('sha256', serverKey.key, Buffer.alloc(0), 'gatehouse:otp-codes', 32),
      ),
      projects: new ProjectService(store.db, config.now),
      log,
    };
    // Load the signing key up front, so token transactions never wait on it.
    await ctx.keys.active();
    await ctx.keys.jwks();
    // Spent one-time rows are purged in the background; the timer never keeps the process alive.
    const housekeeping = setInterval(() => {
      purgeExpired(store.db, config.now(), {
        eventRetentionDays: config.eventRetentionDays,
      }).catch((error: unknown) => {
        log.error({ err: error }, 'housekeeping failed');
      });
    }, HOUSEKEEPING_INTERVAL_MS);
    housekeeping.unref();
    // Verified domains are looked up again daily, in the background (docs/protocol.md §7.12).
    const domainRecheck = startDomainRecheck(ctx);
    return {
      ctx,
      admin: createAdmin(ctx),
      migrations,
      dialect: store.location.kind,
      poolStats: () => store.poolStats(),
      delivery,
      async close() {
        clearInterval(housekeeping);
        await domainRecheck.stop();
        await mailer.close();
        await store.close();
      },
    };
  } catch (error) {
    await store.close();
    throw error;
  }
}
