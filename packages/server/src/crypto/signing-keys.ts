/**
 * RS256 keys for session JWTs: stored encrypted in the database that every instance shares,
 * rotated there, and cached parsed per instance with a short version check, so that a rotation
 * on one instance reaches the others within seconds and without a restart.
 */
import { createPrivateKey, randomUUID, type KeyObject } from 'node:crypto';
import { SESSION_JWT_MINUTES } from '@gatehouse/protocol';
import {
  createLocalJWKSet,
  exportJWK,
  exportPKCS8,
  generateKeyPair,
  type JWK,
  type JWTVerifyGetKey,
} from 'jose';
import type { Kysely } from 'kysely';
import type { Database } from '../store/schema.js';
import { transaction } from '../store/transaction.js';
import type { SecretBox } from './secret-box.js';

const ALGORITHM = 'RS256';

/** How long an instance trusts its cached keyring before it checks the database again. */
export const KEYRING_CHECK_MS = 5_000;

/**
 * How long a retired key stays in the JWKS: until the last JWT it signed has expired, with a
 * minute for clocks that disagree.
 */
export const RETIRED_KEY_RETENTION_MS = SESSION_JWT_MINUTES * 60_000 + 60_000;

/**
 * The shortest time between two rotations, so that a leaked secret key cannot grow the JWKS
 * without end by rotating in a loop.
 */
export const MIN_ROTATION_INTERVAL_MS = 10_000;

/** The active signing key, parsed once per process. */
export interface ActiveKey {
  kid: string;
  /** The private key for node:crypto's `sign` (see `jwt-sign.ts`). */
  privateKey: KeyObject;
}

/** A key as the management API lists it. */
export interface SigningKeyInfo {
  kid: string;
  created_at: string;
  /** When a newer key took over; null for the key that signs now. */
  retired_at: string | null;
}

interface Keyring {
  active: ActiveKey;
  jwks: { keys: JWK[] };
  keySet: JWTVerifyGetKey;
  /** When (process clock) the database was last asked. */
  checkedAt: number;
  /** When (data clock) the next retired key leaves the JWKS; the keyring is reread then. */
  nextExpiry: number;
}

/** The keyring: the newest key signs, and every key whose JWTs may still be alive verifies. */
export class SigningKeys {
  #keyring: Keyring | null = null;
  #loading: Promise<Keyring> | null = null;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly box: SecretBox,
    private readonly now: () => number,
  ) {}

  /**
   * The key that signs: the newest one, created on first start. JWTs are signed inside sign-in
   * transactions, which hold a database connection: this never waits for another one once the
   * keyring is loaded (at start). A stale keyring is returned as it is while a check runs in the
   * background, so a rotation elsewhere is picked up within a few seconds.
   */
  async active(): Promise<ActiveKey> {
    return this.activeNow() ?? (await this.#current()).active;
  }

  /**
   * {@link active} without waiting: the key that signs, or null until the keyring is first
   * loaded (then call `active`).
   */
  activeNow(): ActiveKey | null {
    const keyring = this.#keyring;
    if (!keyring) return null;
    if (this.#stale(keyring)) {
      this.#current().catch(() => {
        // The next call tries again; the current key keeps signing meanwhile.
      });
    }
    return keyring.active;
  }

  /**
   * The public keys as a JWKS document: the active key and those retired too recently to drop.
   * Not for use inside a transaction (it may read the keyring again).
   */
  async jwks(): Promise<{ keys: JWK[] }> {
    return (await this.#current()).jwks;
  }

  /**
   * The verification key set. A JWT naming a key this instance has not seen yet (rotated on
   * another instance moments ago) makes it reread the keyring at once, then try again.
   */
  async keySet(): Promise<JWTVerifyGetKey> {
    const keyring = await this.#current();
    return async (header, token) => {
      if (header.kid !== undefined && !keyring.jwks.keys.some((k) => k.kid === header.kid)) {
        const fresh = await this.#reload();
        return fresh.keySet(header, token);
      }
      return keyring.keySet(header, token);
    };
  }

  /** Every stored key, newest first. */
  async list(): Promise<SigningKeyInfo[]> {
    const rows = await this.db
      .selectFrom('signing_keys')
      .select(['id', 'created_at', 'retired_at'])
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .execute();
    return rows.map((r) => ({ kid: r.id, created_at: r.created_at, retired_at: r.retired_at }));
  }

  /**
   * Makes a new key the signing key and retires the others. JWTs they signed keep verifying until
   * they expire ({@link RETIRED_KEY_RETENTION_MS}). Every instance signs with the new key within
   * {@link KEYRING_CHECK_MS}.
   */
  async rotate(): Promise<SigningKeyInfo | 'too-soon'> {
    const since = new Date(this.now() - MIN_ROTATION_INTERVAL_MS).toISOString();
    // Refused before the key pair is generated (the costly part), and again inside the write.
    if (await this.#rotatedSince(this.db, since)) return 'too-soon';
    const created = await this.#newKeyRow();
    const rotated = await transaction(this.db, async (trx) => {
      if (await this.#rotatedSince(trx, since)) return false;
      await trx
        .updateTable('signing_keys')
        .set({ active: 0, retired_at: created.created_at })
        .where('active', '=', 1)
        .execute();
      await trx.insertInto('signing_keys').values(created).execute();
      return true;
    });
    if (!rotated) return 'too-soon';
    await this.#reload();
    return { kid: created.id, created_at: created.created_at, retired_at: null };
  }

  /** Whether a rotation happened after `since`: a rotation retires the keys before it. */
  async #rotatedSince(db: Kysely<Database>, since: string): Promise<boolean> {
    const recent = await db
      .selectFrom('signing_keys')
      .select('id')
      .where('retired_at', '>', since)
      .executeTakeFirst();
    return recent !== undefined;
  }

  /** Reads the keyring again now (after a rotation here, or on meeting an unknown key). */
  async #reload(): Promise<Keyring> {
    this.#keyring = await this.#load();
    return this.#keyring;
  }

  #stale(keyring: Keyring): boolean {
    return Date.now() - keyring.checkedAt >= KEYRING_CHECK_MS || this.now() >= keyring.nextExpiry;
  }

  /** The keyring, checked against the database when stale; concurrent callers share one check. */
  async #current(): Promise<Keyring> {
    const keyring = this.#keyring;
    if (keyring && !this.#stale(keyring)) return keyring;
    this.#loading ??= this.#refresh(keyring).finally(() => {
      this.#loading = null;
    });
    this.#keyring = await this.#loading;
    return this.#keyring;
  }

  async #refresh(keyring: Keyring | null): Promise<Keyring> {
    if (keyring && this.now() < keyring.nextExpiry) {
      // The version check: one indexed read of the newest key's id.
      if ((await this.#newestId()) === keyring.active.kid) {
        keyring.checkedAt = Date.now();
        return keyring;
      }
    }
    return this.#load();
  }

  async #newestId(): Promise<string | undefined> {
    const row = await this.db
      .selectFrom('signing_keys')
      .select('id')
      .where('active', '=', 1)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .executeTakeFirst();
    return row?.id;
  }

  async #load(): Promise<Keyring> {
    const checkedAt = Date.now();
    const now = this.now();
    const keepSince = new Date(now - RETIRED_KEY_RETENTION_MS).toISOString();
    let rows = await this.#liveRows(keepSince);
    let newest = rows.find((r) => r.active === 1);
    if (!newest) {
      // First start: make the first key. Two instances starting at once may both make one; the
      // newer signs and the other stays in the JWKS until a rotation retires it.
      await this.db
        .insertInto('signing_keys')
        .values(await this.#newKeyRow())
        .execute();
      rows = await this.#liveRows(keepSince);
      newest = rows.find((r) => r.active === 1);
    }
    if (!newest) throw new Error('No signing key could be created');
    const jwks = { keys: rows.map((r) => JSON.parse(r.public_jwk) as JWK) };
    const expiries = rows
      .filter((r) => r.retired_at !== null)
      .map((r) => Date.parse(r.retired_at ?? '') + RETIRED_KEY_RETENTION_MS);
    return {
      active: { kid: newest.id, privateKey: createPrivateKey(this.box.open(newest.private_key)) },
      jwks,
      keySet: createLocalJWKSet(jwks),
      checkedAt,
      nextExpiry: expiries.length > 0 ? Math.min(...expiries) : Number.POSITIVE_INFINITY,
    };
  }

  /** The active keys (newest first) and the retired keys still within their retention. */
  #liveRows(keepSince: string) {
    return this.db
      .selectFrom('signing_keys')
      .selectAll()
      .where((eb) => eb.or([eb('active', '=', 1), eb('retired_at', '>', keepSince)]))
      .orderBy('active', 'desc')
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .execute();
  }

  async #newKeyRow() {
    const { publicKey, privateKey } = await generateKeyPair(ALGORITHM, { extractable: true });
    const kid = randomUUID();
    const jwk = { ...(await exportJWK(publicKey)), kid, alg: ALGORITHM, use: 'sig' };
    return {
      id: kid,
      algorithm: ALGORITHM,
      public_jwk: JSON.stringify(jwk),
      private_key: this.box.seal(await exportPKCS8(privateKey)),
      active: 1 as const,
      created_at: new Date(this.now()).toISOString(),
      retired_at: null,
    };
  }
}
