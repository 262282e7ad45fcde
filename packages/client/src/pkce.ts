/** PKCE pairs (docs/protocol.md §10): generation with WebCrypto and one stored pair per namespace. */
import type { PkceNamespace } from '@gatehouse/protocol';
import { base64UrlBytes } from './encoding.js';
import { readJson, removeKey, writeJson, type StorageKeys } from './storage.js';

/** A proof-key pair as stored and sent. */
export interface PkcePair {
  code_challenge: string;
  code_verifier: string;
}

/**
 * A fresh pair: the verifier is 16 random 32-bit words in lowercase hex, each padded to at least
 * two digits (32–128 characters); the challenge is the unpadded base64url SHA-256 of the verifier.
 *
 * @example
 * const { code_challenge, code_verifier } = await generatePkcePair();
 */
export async function generatePkcePair(): Promise<PkcePair> {
  const words = crypto.getRandomValues(new Uint32Array(16));
  const code_verifier = Array.from(words, (w) => w.toString(16).padStart(2, '0')).join('');
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(code_verifier));
  return { code_challenge: base64UrlBytes(new Uint8Array(digest)), code_verifier };
}

/** The stored pairs of one client, one per namespace. */
export interface PkceStore {
  get(namespace: PkceNamespace): PkcePair | null;
  /** The stored pair, or a new stored one (magic-link and password sends reuse their pair). */
  getOrCreate(namespace: PkceNamespace): Promise<PkcePair>;
  /** Always a new stored pair (SSO, OAuth and One Tap starts). */
  create(namespace: PkceNamespace): Promise<PkcePair>;
  clear(namespace: PkceNamespace): void;
}

export function createPkceStore(keys: StorageKeys): PkceStore {
  const get = (namespace: PkceNamespace): PkcePair | null => {
    const key = keys.pkce(namespace);
    const stored = readJson(key);
    if (stored === undefined) return null;
    if (isPair(stored)) return stored;
    // A pair another tool or version wrote in another shape cannot prove anything: drop it.
    console.warn(`Gatehouse: ignoring a malformed stored PKCE pair (${namespace}).`);
    removeKey(key);
    return null;
  };
  const create = async (namespace: PkceNamespace): Promise<PkcePair> => {
    const pair = await generatePkcePair();
    writeJson(keys.pkce(namespace), pair);
    return pair;
  };
  return {
    get,
    create,
    getOrCreate: async (namespace) => get(namespace) ?? create(namespace),
    clear: (namespace) => removeKey(keys.pkce(namespace)),
  };
}

function isPair(value: unknown): value is PkcePair {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Record<string, unknown>;
  return typeof v.code_challenge === 'string' && typeof v.code_verifier === 'string';
}
