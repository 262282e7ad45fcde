// The encoded argon2 hash's parameters, read without the native binding: the same as the
// binding's own reader for every variant and length, and nothing for what is not such a hash.
import { hash, parseOptions, type Algorithm } from '@node-rs/argon2';
import { describe, expect, it } from 'vitest';
import { parseArgon2 } from './argon2-phc.js';

const VARIANTS = { 0: 'argon2d', 1: 'argon2i', 2: 'argon2id' } as const;

describe('parseArgon2', () => {
  it.each([
    [2, { memoryCost: 19_456, timeCost: 2, parallelism: 1, outputLen: 32 }],
    [1, { memoryCost: 1024, timeCost: 3, parallelism: 2, outputLen: 16 }],
    [0, { memoryCost: 4096, timeCost: 1, parallelism: 4, outputLen: 64 }],
    [2, { memoryCost: 8, timeCost: 1, parallelism: 1, outputLen: 33, salt: Buffer.alloc(9, 7) }],
  ] as const)('reads what the binding reads (algorithm %i, %o)', async (algorithm, options) => {
    const stored = await hash('Quartz-Lantern-42!', {
      ...options,
      algorithm: algorithm as Algorithm,
    });
    const theirs = parseOptions(stored);
    expect(parseArgon2(stored)).toEqual({
      variant: VARIANTS[algorithm],
      version: 19,
      memoryCost: theirs.memoryCost,
      timeCost: theirs.timeCost,
      parallelism: theirs.parallelism,
      saltLen: theirs.saltLen,
      outputLen: theirs.outputLen,
    });
  });

  it('reads a hash without its version as version 16', () => {
    expect(
      parseArgon2(
        '$argon2i$m=4096,t=3,p=1$c2FsdHNhbHRzYWx0c2FsdA$aGFzaGhhc2hoYXNoaGFzaGhhc2hoYXNoaGFzaGhhc2g',
      ),
    ).toMatchObject({
      variant: 'argon2i',
      version: 16,
      memoryCost: 4096,
      saltLen: 16,
      outputLen: 32,
    });
  });

  it.each([
    '',
    'argon2id$v=19$m=19456,t=2,p=1$c2FsdHNhbHQ$aGFzaA',
    '$argon2x$v=19$m=19456,t=2,p=1$c2FsdHNhbHQ$aGFzaA',
    '$argon2id$v=19$m=19456,t=2$c2FsdHNhbHQ$aGFzaA',
    '$argon2id$v=19$m=19456,t=2,p=1$c2FsdHNhbHQ',
    '$argon2id$v=19$m=19456,t=2,p=1$c2FsdHNhbHQ$aGFzaA==',
    '$argon2id$v=19$m=19456,t=2,p=1$c2FsdHNhbHQ$aGFzaA$extra',
    '$argon2id$v=19$m=19456,t=2,p=1$c2FsdHNhbHQ$aGFza',
    '$argon2id$v=19$m=-1,t=2,p=1$c2FsdHNhbHQ$aGFzaA',
    '$argon2id$v=19$m=99999999999,t=2,p=1$c2FsdHNhbHQ$aGFzaA',
    `$argon2id$v=19$m=19456,t=2,p=1$${'A'.repeat(100_000)}$`,
  ])('is null for %j', (stored) => {
    expect(parseArgon2(stored)).toBeNull();
  });
});
