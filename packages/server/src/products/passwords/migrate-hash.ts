/**
 * Turns a migrated hash, as the provider's SDK describes it (`hash`, `hash_type` and a config per
 * type), into the stored form `verifyPassword` checks, refusing anything malformed or outside the
 * bounds of `crypto/hash-bounds.ts` with a message that says what is wrong. The stored form keeps
 * the old system's hash and parameters only: the password is never known here.
 */
import { MIGRATE_HASH_CONFIG, type ENDPOINTS, type BodyOf } from '@gatehouse/protocol/endpoints';
import { parseArgon2 } from '../../crypto/argon2-phc.js';
import {
  argon2Problem,
  bcryptCostProblem,
  encodedArgon2Problem,
  pbkdf2Problem,
  phpassProblem,
  scryptProblem,
} from '../../crypto/hash-bounds.js';
import {
  SALTED_DIGESTS,
  isPhpassHash,
  pbkdf2Hash,
  phpassLog2Rounds,
  saltedDigestHash,
  type SaltedDigest,
} from '../../crypto/legacy-hash.js';
import { fail, type Failure } from '../../result.js';

type MigrateBody = BodyOf<typeof ENDPOINTS.migratePassword>;

/** The fields of a migration that describe its hash. */
export type MigratedHash = Pick<
  MigrateBody,
  | 'hash'
  | 'hash_type'
  | 'md_5_config'
  | 'sha_1_config'
  | 'sha_512_config'
  | 'argon_2_config'
  | 'scrypt_config'
  | 'pbkdf_2_config'
>;
type HashType = MigrateBody['hash_type'];
type ConfigField = Exclude<keyof MigratedHash, 'hash' | 'hash_type'>;

/** The config each hash type may carry. */
const CONFIG_OF: Partial<Record<HashType, ConfigField>> = MIGRATE_HASH_CONFIG;
const CONFIGS: ConfigField[] = [
  'md_5_config',
  'sha_1_config',
  'sha_512_config',
  'argon_2_config',
  'scrypt_config',
  'pbkdf_2_config',
];
const DIGEST_OF: Partial<Record<HashType, SaltedDigest>> = {
  md_5: 'md5',
  sha_1: 'sha1',
  sha_512: 'sha512',
};

const refuse = (message: string): Failure => fail('invalid_request', message);

const HEX = /^(?:[0-9a-fA-F]{2})+$/;
const BASE64 = /^[A-Za-z0-9+/_-]+={0,2}$/;
const fromHex = (text: string) => (HEX.test(text) ? Buffer.from(text, 'hex') : null);
const fromBase64 = (text: string) => (BASE64.test(text) ? Buffer.from(text, 'base64') : null);
const phc = (bytes: Buffer) => bytes.toString('base64').replace(/=+$/, '');

/**
 * The stored form of a migrated hash, or a failure (400 `invalid_request`) naming the field or
 * bound that is wrong.
 *
 * @example
 * const stored = storedHashOf({ hash: '$2b$10$…', hash_type: 'bcrypt' }); // '$2b$10$…'
 */
export function storedHashOf(input: MigratedHash): string | Failure {
  const own = CONFIG_OF[input.hash_type];
  const foreign = CONFIGS.find((field) => field !== own && input[field] !== undefined);
  if (foreign) return refuse(`${foreign} does not apply to hash_type ${input.hash_type}.`);
  const digest = DIGEST_OF[input.hash_type];
  if (digest) return saltedDigest(digest, input);
  switch (input.hash_type) {
    case 'bcrypt':
      return bcrypt(input.hash);
    case 'argon_2i':
    case 'argon_2id':
      return argon2(input);
    case 'scrypt':
      return scrypt(input);
    case 'pbkdf_2':
      return pbkdf2(input);
    default:
      return phpass(input.hash);
  }
}

function bcrypt(hash: string): string | Failure {
  const match = /^\$2[aby]\$(\d\d)\$[./A-Za-z0-9]{53}$/.exec(hash);
  if (!match) return refuse('hash is not a bcrypt hash ($2a$, $2b$ or $2y$, cost, 53 characters).');
  const problem = bcryptCostProblem(Number(match[1]));
  return problem ? refuse(problem) : hash;
}

function saltedDigest(algorithm: SaltedDigest, input: MigratedHash): string | Failure {
  const config = input.md_5_config ?? input.sha_1_config ?? input.sha_512_config;
  const size = SALTED_DIGESTS[algorithm];
  const digest = fromHex(input.hash) ?? fromBase64(input.hash);
  if (digest?.length !== size) {
    return refuse(`hash must be the ${size}-byte ${algorithm} digest, in hex or base64.`);
  }
  const salts = { prepend: config?.prepend_salt ?? '', append: config?.append_salt ?? '' };
  return saltedDigestHash(algorithm, salts, digest);
}

function argon2(input: MigratedHash): string | Failure {
  const variant = input.hash_type === 'argon_2i' ? 'argon2i' : 'argon2id';
  const config = input.argon_2_config;
  if (input.hash.startsWith('$')) {
    // The encoded (PHC) form carries its own parameters.
    if (config) return refuse('argon_2_config is only for a hash in hex form, not an encoded one.');
    const pattern = new RegExp(
      `^\\$${variant}\\$v=19\\$m=\\d+,t=\\d+,p=\\d+\\$[A-Za-z0-9+/]+\\$[A-Za-z0-9+/]+$`,
    );
    if (!pattern.test(input.hash)) {
      return refuse(`hash is not an encoded ${variant} hash ($${variant}$v=19$m=…,t=…,p=…$…$…).`);
    }
    const options = parseArgon2(input.hash);
    if (!options) return refuse(`hash is not an encoded ${variant} hash.`);
    const problem = encodedArgon2Problem(options);
    return problem ? refuse(problem) : input.hash;
  }
  if (!config) return refuse('argon_2_config is required for an argon2 hash in hex form.');
  const key = fromHex(input.hash);
  if (!key) return refuse('hash must be the argon2 key in hex, or an encoded argon2 hash.');
  const salt = Buffer.from(config.salt, 'utf8');
  const problem =
    keyLength(config.key_length, key) ??
    argon2Problem({
      memoryKib: config.memory,
      iterations: config.iteration_amount,
      threads: config.threads,
      saltBytes: salt.length,
      keyBytes: key.length,
    });
  if (problem) return refuse(problem);
  const params = `m=${config.memory},t=${config.iteration_amount},p=${config.threads}`;
  return `$${variant}$v=19$${params}$${phc(salt)}$${phc(key)}`;
}

function scrypt(input: MigratedHash): string | Failure {
  const config = input.scrypt_config;
  if (!config) return refuse('scrypt_config is required for hash_type scrypt.');
  const key = fromBase64(input.hash);
  if (!key) return refuse('hash must be the scrypt key in base64.');
  const salt = fromBase64(config.salt);
  if (!salt) return refuse('scrypt_config.salt must be base64.');
  const n = config.n_parameter;
  const r = config.r_parameter;
  const p = config.p_parameter;
  const problem =
    keyLength(config.key_length, key) ?? scryptProblem({ n, r, p, keyBytes: key.length });
  if (problem) return refuse(problem);
  return `$scrypt$ln=${Math.log2(n)},r=${r},p=${p}$${phc(salt)}$${phc(key)}`;
}

function pbkdf2(input: MigratedHash): string | Failure {
  const config = input.pbkdf_2_config;
  if (!config) return refuse('pbkdf_2_config is required for hash_type pbkdf_2.');
  const key = fromBase64(input.hash);
  if (!key) return refuse('hash must be the PBKDF2 key in base64.');
  const salt = fromBase64(config.salt);
  if (!salt) return refuse('pbkdf_2_config.salt must be base64.');
  const iterations = config.iteration_amount;
  const problem =
    keyLength(config.key_length, key) ?? pbkdf2Problem({ iterations, keyBytes: key.length });
  if (problem) return refuse(problem);
  return pbkdf2Hash(config.algorithm === 'sha512' ? 'sha512' : 'sha256', iterations, salt, key);
}

function phpass(hash: string): string | Failure {
  if (!isPhpassHash(hash)) return refuse('hash is not a phpass hash ($P$ or $H$, 34 characters).');
  const problem = phpassProblem(phpassLog2Rounds(hash));
  return problem ? refuse(problem) : hash;
}

/** The config's key length must be the hash's: a mismatch means one of them is wrong. */
function keyLength(declared: number, key: Buffer): string | null {
  return declared === key.length
    ? null
    : `key_length is ${declared} but the hash holds ${key.length} bytes.`;
}
