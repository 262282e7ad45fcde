// `gatehouse keys rotate-server-key` on the suite's database engine (SQLite, or PostgreSQL with
// TEST_DATABASE_URL): every sealed value opens with the new key afterwards, and a wrong old key
// changes nothing.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENDPOINTS } from '@gatehouse/protocol/endpoints';
import { startOidcIdp, type OidcIdp } from '@gatehouse/testing/idp';
import { runCli } from '../cli.js';
import { resolveConfig } from '../config.js';
import { SecretBox } from '../crypto/secret-box.js';
import { enqueueMail } from '../delivery/mail-queue.js';
import { openRuntime } from '../runtime.js';
import { expectOk, startHarness, type Harness } from '../test/harness.js';

let h: Harness;
let idp: OidcIdp;

beforeAll(async () => {
  [h, idp] = await Promise.all([startHarness({ listen: true }), startOidcIdp()]);
  const { session_token } = await h.login();
  expectOk(
    await h.call(ENDPOINTS.totpCreate, {
      token: session_token,
      body: { organization_id: h.org.organization_id, member_id: h.member.member_id },
    }),
  );
  expectOk(
    await h.call(ENDPOINTS.oauthSetProvider, {
      params: { provider: 'google' },
      body: {
        enabled: true,
        client_id: 'rotation-client',
        client_secret: 'rotation-client-secret',
        issuer: idp.issuer,
      },
    }),
  );
  expectOk(
    await h.call(ENDPOINTS.setCaptcha, {
      body: { provider: 'turnstile', site_key: 'rotation-site', secret_key: 'rotation-captcha' },
    }),
  );
  // An e-mail still waiting in the queue (no server delivers this one).
  await enqueueMail(
    h.db,
    new SecretBox(Buffer.from(h.serverKey, 'hex')),
    'queued@acme.test',
    { subject: 'Queued', text: 'a link', html: '<p>a link</p>', links: [] },
    Date.now(),
  );
});

afterAll(async () => {
  await Promise.all([h?.close(), idp?.close()]);
});

async function cli(...argv: string[]) {
  let stdout = '';
  let stderr = '';
  const code = await runCli(argv, {
    stdout: (t) => void (stdout += t),
    stderr: (t) => void (stderr += t),
    env: { DATABASE_URL: h.databaseUrl },
  });
  return { code, stdout, stderr };
}

/** Every sealed value the suite's data holds. */
async function sealedValues(): Promise<string[]> {
  const [keys, totp, codes, providers, captcha, mail] = await Promise.all([
    h.db.selectFrom('signing_keys').select('private_key as v').execute(),
    h.db.selectFrom('totp_registrations').select('secret_encrypted as v').execute(),
    h.db.selectFrom('recovery_codes').select('code_encrypted as v').execute(),
    h.db.selectFrom('oauth_providers').select('secret_encrypted as v').execute(),
    h.db.selectFrom('captcha_settings').select('secret_encrypted as v').execute(),
    h.db.selectFrom('mail_queue').select('body_sealed as v').execute(),
  ]);
  return [...keys, ...totp, ...codes, ...providers, ...captcha, ...mail]
    .map((r) => r.v ?? '')
    .filter(Boolean);
}

describe('gatehouse keys rotate-server-key', () => {
  const newKey = randomBytes(32).toString('hex');

  it('changes nothing when the old key is wrong', async () => {
    const before = await sealedValues();
    const res = await cli(
      'keys',
      'rotate-server-key',
      '--from',
      randomBytes(32).toString('hex'),
      '--to',
      newKey,
    );
    expect(res.code).toBe(2);
    expect(res.stderr).toContain('is not sealed with the old key. Nothing changed.');
    expect(await sealedValues()).toEqual(before);
  });

  it('re-encrypts every sealed value, which then opens with the new key only', async () => {
    const before = await sealedValues();
    expect(before.length).toBeGreaterThanOrEqual(14);
    const res = await cli('keys', 'rotate-server-key', '--from', h.serverKey, '--to', newKey);
    expect(res.code).toBe(0);
    expect(res.stdout).toContain('totp_registrations.secret_encrypted: 1');
    expect(res.stdout).toContain('recovery_codes.code_encrypted: 10');
    expect(res.stdout).toContain('oauth_providers.secret_encrypted: 1');
    expect(res.stdout).toContain('captcha_settings.secret_encrypted: 1');
    expect(res.stdout).toContain('mail_queue.body_sealed: 1');

    const after = await sealedValues();
    const oldBox = new SecretBox(Buffer.from(h.serverKey, 'hex'));
    const newBox = new SecretBox(Buffer.from(newKey, 'hex'));
    expect(after.map((v) => newBox.open(v))).toEqual(before.map((v) => oldBox.open(v)));
    for (const value of after) expect(() => oldBox.open(value)).toThrow();

    // A server started with the new key signs JWTs with the re-encrypted signing key.
    const runtime = await openRuntime(
      resolveConfig({ databaseUrl: h.databaseUrl, serverKey: newKey }),
      { info: () => undefined, warn: () => undefined, error: () => undefined },
    );
    try {
      expect((await runtime.ctx.keys.active()).kid).toBeTruthy();
    } finally {
      await runtime.close();
    }
  });

  it('refuses the same key twice and a malformed one', async () => {
    const same = await cli('keys', 'rotate-server-key', '--from', newKey, '--to', newKey);
    expect(same.code).toBe(2);
    expect(same.stderr).toContain('--from and --to are the same key');
    const bad = await cli('keys', 'rotate-server-key', '--from', 'short', '--to', newKey);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--from must be 32 bytes');
  });
});
