// Password hashing: argon2id with OWASP parameters, imported formats, rehash decisions.
import { createHash, pbkdf2Sync, randomBytes, scryptSync } from 'node:crypto';
import { hash as argon2Hash, type Algorithm } from '@node-rs/argon2';
import { hash as bcryptHash } from '@node-rs/bcrypt';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  hashPassword,
  PASSWORD_HASH_PARAMS,
  passwordHashParams,
  TEST_PASSWORD_HASH_PARAMS,
  verifyAgainstDummy,
  verifyPassword,
} from './password-hash.js';

const PASSWORD = 'Quartz-Lantern-42!';

// These tests are about the production parameters: hash at full cost, whatever the run asks.
beforeAll(() => {
  vi.stubEnv('GATEHOUSE_TEST_FAST_HASH', '0');
});
afterAll(() => {
  vi.unstubAllEnvs();
});

describe('hashPassword', () => {
  it('produces a salted argon2id PHC string with the OWASP parameters', async () => {
    const first = await hashPassword(PASSWORD);
    const second = await hashPassword(PASSWORD);
    expect(first).toMatch(
      /^\$argon2id\$v=19\$m=19456,t=2,p=1\$[A-Za-z0-9+/]{22}\$[A-Za-z0-9+/]{43}$/,
    );
    expect(second).not.toBe(first);
    expect(PASSWORD_HASH_PARAMS).toMatchObject({ memoryCost: 19456, timeCost: 2, parallelism: 1 });
  });

  it('does not block the event loop while hashing', async () => {
    let ticks = 0;
    const timer = setInterval(() => ticks++, 1);
    try {
      await hashPassword(PASSWORD);
    } finally {
      clearInterval(timer);
    }
    // A synchronous hash would resolve before any timer could fire.
    expect(ticks).toBeGreaterThan(0);
  });
});

describe('verifyPassword', () => {
  it('accepts our own hashes without asking for a rehash', async () => {
    const stored = await hashPassword(PASSWORD);
    await expect(verifyPassword(stored, PASSWORD)).resolves.toEqual({
      valid: true,
      needsRehash: false,
    });
    await expect(verifyPassword(stored, `${PASSWORD}x`)).resolves.toEqual({
      valid: false,
      needsRehash: false,
    });
  });

  it('asks to rehash argon2i, argon2d and weaker argon2id hashes', async () => {
    const argon2d = await argon2Hash(PASSWORD, { algorithm: 0 as Algorithm });
    const argon2i = await argon2Hash(PASSWORD, { algorithm: 1 as Algorithm });
    const weak = await argon2Hash(PASSWORD, {
      algorithm: 2 as Algorithm,
      memoryCost: 4096,
      timeCost: 3,
    });
    const stronger = await argon2Hash(PASSWORD, {
      algorithm: 2 as Algorithm,
      memoryCost: 32768,
      timeCost: 3,
    });
    expect(argon2d.startsWith('$argon2d$')).toBe(true);
    expect(argon2i.startsWith('$argon2i$')).toBe(true);
    for (const stored of [argon2d, argon2i, weak]) {
      await expect(verifyPassword(stored, PASSWORD)).resolves.toEqual({
        valid: true,
        needsRehash: true,
      });
      await expect(verifyPassword(stored, 'wrong')).resolves.toEqual({
        valid: false,
        needsRehash: false,
      });
    }
    await expect(verifyPassword(stronger, PASSWORD)).resolves.toEqual({
      valid: true,
      needsRehash: false,
    });
  });

  it('verifies bcrypt hashes of every prefix, including a published test vector', async () => {
    // OpenBSD's bcrypt test vector for the password "U*U".
    const vector = '$2a$05$CCCCCCCCCCCCCCCCCCCCC.E5YPO9kmyuRGyh0XouQYb4YMJKvyOeW';
    await expect(verifyPassword(vector, 'U*U')).resolves.toEqual({
      valid: true,
      needsRehash: true,
    });
    await expect(verifyPassword(vector, 'U*V')).resolves.toEqual({
      valid: false,
      needsRehash: false,
    });
    for (const version of ['2a', '2b', '2y'] as const) {
      const stored = await bcryptHash(PASSWORD, { cost: 4, version });
      expect(stored.startsWith(`$${version}$04$`)).toBe(true);
      expect((await verifyPassword(stored, PASSWORD)).valid).toBe(true);
      expect((await verifyPassword(stored, 'wrong')).valid).toBe(false);
    }
  });

  it('verifies PHC scrypt hashes (RFC 7914 test vector and a fresh one)', async () => {
    // RFC 7914 §12: scrypt("password", "NaCl", N=1024, r=8, p=16, dkLen=64).
    const rfcHash = Buffer.from(
      'fdbabe1c9d3472007856e7190d01e9fe7c6ad7cbc8237830e77376634b3731622eaf30d92e22a3886ff109279d9830dac727afb94a83ee6d8360cbdfa2cc0640',
      'hex',
    ).toString('base64');
    const rfc = `$scrypt$ln=10,r=8,p=16$${Buffer.from('NaCl').toString('base64')}$${rfcHash}`;
    await expect(verifyPassword(rfc, 'password')).resolves.toEqual({
      valid: true,
      needsRehash: true,
    });
    expect((await verifyPassword(rfc, 'passw0rd')).valid).toBe(false);

    const salt = randomBytes(16);
    const derived = scryptSync(PASSWORD, salt, 32, { N: 2 ** 14, r: 8, p: 1 });
    const unpadded = (b: Buffer) => b.toString('base64').replace(/=+$/, '');
    const fresh = `$scrypt$ln=14,r=8,p=1$${unpadded(salt)}$${unpadded(derived)}`;
    expect((await verifyPassword(fresh, PASSWORD)).valid).toBe(true);
    // passlib writes "." where standard base64 has "+".
    expect((await verifyPassword(fresh.replaceAll('+', '.'), PASSWORD)).valid).toBe(true);
    expect((await verifyPassword(fresh, 'wrong')).valid).toBe(false);
  });

  it("verifies Django's pbkdf2_sha256 hashes", async () => {
    const salt = 'seasalt2024';
    const digest = pbkdf2Sync(PASSWORD, salt, 10_000, 32, 'sha256').toString('base64');
    const stored = `pbkdf2_sha256$10000$${salt}$${digest}`;
    await expect(verifyPassword(stored, PASSWORD)).resolves.toEqual({
      valid: true,
      needsRehash: true,
    });
    expect((await verifyPassword(stored, 'wrong')).valid).toBe(false);
    expect((await verifyPassword(`pbkdf2_sha256$9999$${salt}$${digest}`, PASSWORD)).valid).toBe(
      false,
    );
  });

  it('treats unknown, malformed and abusive hashes as not valid, without throwing', async () => {
    const junk = [
      '',
      PASSWORD,
      'md5$abc$def',
      '$argon2id$v=19$m=19456,t=2,p=1$garbage',
      '$2b$04$short',
      // 4 GiB of memory: refused before any work is done.
      '$argon2id$v=19$m=4194304,t=2,p=1$c2FsdHNhbHRzYWx0c2FsdA$aGFzaGhhc2hoYXNoaGFzaGhhc2hoYXNoaGFzaGhhc2g',
      '$scrypt$ln=30,r=8,p=1$c2FsdA$aGFzaGhhc2hoYXNoaGFzaA',
      '$scrypt$ln=10,r=8$c2FsdA$aGFzaA',
      'pbkdf2_sha256$abc$salt$aGFzaA==',
      'pbkdf2_sha256$999999999$salt$aGFzaGhhc2hoYXNoaGFzaA==',
      // bcrypt cost 31 would take hours; phpass 2^30 rounds minutes. Both past the bounds.
      `$2b$31$${'C'.repeat(53)}`,
      '$P$Z9IQRaTwmfeRo7ud9Fh4E2PdI0S3r.L',
    ];
    for (const stored of junk) {
      await expect(verifyPassword(stored, PASSWORD)).resolves.toEqual({
        valid: false,
        needsRehash: false,
      });
    }
  });
});

describe('migrated formats', () => {
  it('verifies phpass with its own test vector, and salted digests as stored by a migration', async () => {
    await expect(
      verifyPassword('$P$9IQRaTwmfeRo7ud9Fh4E2PdI0S3r.L0', 'test12345'),
    ).resolves.toEqual({ valid: true, needsRehash: true });
    expect((await verifyPassword('$P$9IQRaTwmfeRo7ud9Fh4E2PdI0S3r.L0', 'test12346')).valid).toBe(
      false,
    );
    const digest = createHash('sha1').update(`pre${PASSWORD}`).digest('base64url');
    const stored = `$sha1$p=${Buffer.from('pre').toString('base64url')},a=$${digest}`;
    expect((await verifyPassword(stored, PASSWORD)).valid).toBe(true);
    expect((await verifyPassword(stored, 'wrong')).valid).toBe(false);
  });
});

describe('verifyAgainstDummy', () => {
  it('always answers false, even for the dummy password itself', async () => {
    await expect(verifyAgainstDummy(PASSWORD)).resolves.toBe(false);
    await expect(verifyAgainstDummy('gatehouse-dummy-password')).resolves.toBe(false);
  });
});

describe('passwordHashParams', () => {
  it('gives cheap parameters only to a test run that asks, never in production', async () => {
    vi.stubEnv('GATEHOUSE_TEST_FAST_HASH', '1');
    vi.stubEnv('NODE_ENV', 'test');
    expect(passwordHashParams()).toBe(TEST_PASSWORD_HASH_PARAMS);
    const cheap = await hashPassword(PASSWORD);
    expect(cheap).toMatch(/^\$argon2id\$v=19\$m=1024,t=1,p=1\$/);
    await expect(verifyPassword(cheap, PASSWORD)).resolves.toEqual({
      valid: true,
      needsRehash: false,
    });
    await expect(verifyAgainstDummy(PASSWORD)).resolves.toBe(false);

    vi.stubEnv('NODE_ENV', 'production');
    expect(passwordHashParams()).toBe(PASSWORD_HASH_PARAMS);
    // Outside the test run's parameters a cheap hash still verifies, and is replaced.
    await expect(verifyPassword(cheap, PASSWORD)).resolves.toEqual({
      valid: true,
      needsRehash: true,
    });
    expect(await hashPassword(PASSWORD)).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);

    vi.stubEnv('NODE_ENV', 'test');
    vi.stubEnv('VITEST', undefined);
    expect(passwordHashParams()).toBe(PASSWORD_HASH_PARAMS);
  });
});
