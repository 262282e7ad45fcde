/** Key pairs with self-signed X.509 certificates for the test identity providers, made by OpenSSL. */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface KeyPair {
  /** PKCS#8 PEM. */
  privateKey: string;
  /** PEM certificate, valid for two days. */
  certificate: string;
}

/**
 * An RSA-2048 key and a self-signed certificate naming `commonName`.
 *
 * @example
 * const { privateKey, certificate } = selfSignedKeyPair('Test IdP');
 */
export function selfSignedKeyPair(commonName: string): KeyPair {
  const dir = mkdtempSync(join(tmpdir(), 'gatehouse-idp-key-'));
  try {
    const keyFile = join(dir, 'key.pem');
    const certFile = join(dir, 'cert.pem');
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'rsa:2048',
        '-nodes',
        '-sha256',
        '-days',
        '2',
        '-subj',
        `/CN=${commonName}`,
        '-keyout',
        keyFile,
        '-out',
        certFile,
      ],
      { stdio: 'ignore' },
    );
    return {
      privateKey: readFileSync(keyFile, 'utf8'),
      certificate: readFileSync(certFile, 'utf8'),
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
