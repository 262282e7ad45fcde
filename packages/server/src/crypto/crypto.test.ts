// Crypto helpers: ids, tokens, hashing, PKCE and encryption at rest.
import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { hashToken, newId, newToken, pkceMatches, safeEqual } from './random.js';
import { loadServerKey, parseServerKey, SecretBox } from './secret-box.js';

const dir = mkdtempSync(join(tmpdir(), 'gatehouse-crypto-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('ids and tokens', () => {
  it('makes prefixed ids and 43-character URL-safe tokens', () => {
    expect(newId('member', 'live')).toMatch(
      /^member-live-[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
    );
    const token = newToken();
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(newToken()).not.toBe(token);
    expect(hashToken('abc')).toBe(createHash('sha256').update('abc').digest('hex'));
    expect(safeEqual('abc', 'abc')).toBe(true);
    expect(safeEqual('abc', 'abd')).toBe(false);
    expect(safeEqual('abc', 'abcd')).toBe(false);
  });

  it('checks PKCE verifiers of the client (32 hex chars and up)', () => {
    const verifier = randomBytes(16).toString('hex');
    const challenge = createHash('sha256').update(verifier).digest('base64url');
    expect(pkceMatches(verifier, challenge)).toBe(true);
    expect(pkceMatches(`${verifier}0`, challenge)).toBe(false);
  });
});

describe('SecretBox and the server key', () => {
  it('round-trips and detects tampering or another key', () => {
    const box = new SecretBox(randomBytes(32));
    const sealed = box.seal('private key');
    expect(sealed).not.toContain('private key');
    expect(box.open(sealed)).toBe('private key');
    const parts = sealed.split('.');
    parts[3] = Buffer.from('tampered').toString('base64url');
    expect(() => box.open(parts.join('.'))).toThrow();
    expect(() => new SecretBox(randomBytes(32)).open(sealed)).toThrow();
    expect(() => new SecretBox(randomBytes(16))).toThrow(TypeError);
  });

  it('parses hex and base64 keys and rejects other lengths', () => {
    const key = randomBytes(32);
    expect(parseServerKey(key.toString('hex'))).toEqual(key);
    expect(parseServerKey(key.toString('base64'))).toEqual(key);
    expect(() => parseServerKey('short')).toThrow(TypeError);
  });

  it('creates a key file next to a SQLite database once, and reuses it', () => {
    const file = join(dir, 'g.db');
    const first = loadServerKey(undefined, file, false);
    expect(first.source).toBe('file-created');
    expect(statSync(`${file}.key`).mode & 0o777).toBe(0o600);
    const second = loadServerKey(undefined, file, false);
    expect(second.source).toBe('file');
    expect(second.key).toEqual(first.key);
    expect(readFileSync(`${file}.key`, 'utf8').trim()).toBe(first.key.toString('hex'));
    expect(loadServerKey(undefined, null, false).source).toBe('ephemeral');
    expect(() => loadServerKey(undefined, null, true)).toThrow(/GATEHOUSE_SERVER_KEY/);
    expect(loadServerKey(first.key.toString('base64'), null, true).source).toBe('config');
  });
});
