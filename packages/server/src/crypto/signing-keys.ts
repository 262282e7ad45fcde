/** RS256 keys for session JWTs: created once, stored encrypted, cached parsed, published as JWKS. */
import { createPrivateKey, randomUUID, type KeyObject } from 'node:crypto';
import { exportJWK, exportPKCS8, generateKeyPair, type JWK } from 'jose';
import type { Kysely } from 'kysely';
import type { Database } from '../store/schema.js';
import type { SecretBox } from './secret-box.js';

const ALGORITHM = 'RS256';

/** The active signing key, parsed once per process. */
export interface ActiveKey {
  kid: string;
  /** The private key for node:crypto's `sign` (see `jwt-sign.ts`). */
  privateKey: KeyObject;
}

/** The keyring: the active key for signing and every stored public key for verification. */
export class SigningKeys {
  #active: ActiveKey | null = null;
  #jwks: { keys: JWK[] } | null = null;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly box: SecretBox,
    private readonly now: () => number,
  ) {}

  /** Loads the active key, creating it on first start. */
  async active(): Promise<ActiveKey> {
    if (this.#active) return this.#active;
    let row = await this.db
      .selectFrom('signing_keys')
      .selectAll()
      .where('active', '=', 1)
      .orderBy('created_at', 'desc')
      .executeTakeFirst();
    if (!row) {
      const { publicKey, privateKey } = await generateKeyPair(ALGORITHM, { extractable: true });
      const kid = randomUUID();
      const jwk = { ...(await exportJWK(publicKey)), kid, alg: ALGORITHM, use: 'sig' };
      row = {
        id: kid,
        algorithm: ALGORITHM,
        public_jwk: JSON.stringify(jwk),
        private_key: this.box.seal(await exportPKCS8(privateKey)),
        active: 1,
        created_at: new Date(this.now()).toISOString(),
      };
      await this.db.insertInto('signing_keys').values(row).execute();
    }
    this.#active = { kid: row.id, privateKey: createPrivateKey(this.box.open(row.private_key)) };
    return this.#active;
  }

  /** The public keys as a JWKS document. */
  async jwks(): Promise<{ keys: JWK[] }> {
    if (this.#jwks) return this.#jwks;
    await this.active();
    const rows = await this.db.selectFrom('signing_keys').select('public_jwk').execute();
    this.#jwks = { keys: rows.map((r) => JSON.parse(r.public_jwk) as JWK) };
    return this.#jwks;
  }
}
