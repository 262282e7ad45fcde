/** RS256 signing with node:crypto: the tokens verify with jose, the reference implementation. */
import { createPrivateKey } from 'node:crypto';
import { decodeProtectedHeader, exportPKCS8, generateKeyPair, jwtVerify } from 'jose';
import { describe, expect, it } from 'vitest';
import { signRs256 } from './jwt-sign.js';

describe('signRs256', () => {
  it('produces a JWT that jose verifies, with the given header and claims', async () => {
    const { publicKey, privateKey } = await generateKeyPair('RS256', { extractable: true });
    const key = createPrivateKey(await exportPKCS8(privateKey));
    const now = Math.floor(Date.now() / 1000);
    const jwt = signRs256(
      key,
      { kid: 'key-1', typ: 'JWT' },
      { sub: 'member-1', aud: 'project-1', iss: 'https://auth.example', exp: now + 60, é: 'ü' },
    );
    expect(decodeProtectedHeader(jwt)).toEqual({ alg: 'RS256', kid: 'key-1', typ: 'JWT' });
    const { payload } = await jwtVerify(jwt, publicKey, {
      algorithms: ['RS256'],
      audience: 'project-1',
      issuer: 'https://auth.example',
    });
    expect(payload).toMatchObject({ sub: 'member-1', exp: now + 60, é: 'ü' });
  });

  it('is refused by a verifier holding another key', async () => {
    const signer = await generateKeyPair('RS256', { extractable: true });
    const other = await generateKeyPair('RS256');
    const jwt = signRs256(createPrivateKey(await exportPKCS8(signer.privateKey)), {}, { sub: 'x' });
    await expect(jwtVerify(jwt, other.publicKey)).rejects.toThrow(/signature/);
  });
});
