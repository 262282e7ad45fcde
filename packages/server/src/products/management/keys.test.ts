// JWT signing key rotation over HTTP and the CLI, across two instances over one database: the old
// key keeps verifying its JWTs until they expire, the new one signs at once, and the other
// instance learns of it without a restart.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeProtectedHeader } from 'jose';
import { ENDPOINTS } from '@gatehouse/protocol/endpoints';
import { runCli } from '../../cli.js';
import { basic, expectError, expectOk, startHarness, type Harness } from '../../test/harness.js';

let h: Harness;
let b: { url: string };

beforeAll(async () => {
  h = await startHarness({ listen: true });
  b = await h.sibling();
});

afterAll(async () => {
  await h?.close();
});

const kidOf = (jwt: string) => decodeProtectedHeader(jwt).kid;
const jwksKids = async (url: string) =>
  ((await (await fetch(`${url}/.well-known/jwks.json`)).json()) as { keys: { kid: string }[] }).keys
    .map((k) => k.kid)
    .sort();

/** sessions/authenticate by JWT alone, on either instance. */
async function authenticateJwt(url: string, jwt: string) {
  const res = await fetch(`${url}/v1/b2b/sessions/authenticate`, {
    method: 'POST',
    headers: {
      authorization: basic(h.project.project_id, h.project.secret),
      'content-type': 'application/json',
    },
    body: JSON.stringify({ session_jwt: jwt }),
  });
  return res.status;
}

describe('signing key rotation', () => {
  // First: the CLI runs on the real clock, which later tests leave behind.
  it('rotates from the CLI', async () => {
    let stdout = '';
    const code = await runCli(['keys', 'rotate'], {
      stdout: (t) => void (stdout += t),
      stderr: () => undefined,
      env: { DATABASE_URL: h.databaseUrl, GATEHOUSE_SERVER_KEY: h.serverKey },
    });
    expect(code).toBe(0);
    const kid = /^kid: (\S+)$/m.exec(stdout)?.[1];
    expect(kid).toBeDefined();
    const { keys } = expectOk(await h.call(ENDPOINTS.signingKeys));
    expect(keys[0]?.kid).toBe(kid);
  });

  it('signs with the new key at once while JWTs of the old one keep verifying', async () => {
    // Well past the CLI's rotation, which ran on the real clock.
    h.clock.advance(60_000);
    const before = await h.login();
    const oldKid = kidOf(before.session_jwt);
    const { key } = expectOk(await h.call(ENDPOINTS.rotateSigningKey, { body: {} }));
    expect(key.kid).not.toBe(oldKid);

    const after = await h.login();
    expect(kidOf(after.session_jwt)).toBe(key.kid);
    expect(await authenticateJwt(h.url, before.session_jwt)).toBe(200);
    expect(await jwksKids(h.url)).toEqual(expect.arrayContaining([oldKid, key.kid]));

    const { keys } = expectOk(await h.call(ENDPOINTS.signingKeys));
    expect(keys[0]).toMatchObject({ kid: key.kid, retired_at: null });
    expect(keys.find((k) => k.kid === oldKid)?.retired_at).not.toBeNull();
  });

  it('reaches the other instance without a restart', async () => {
    h.clock.advance(11_000);
    const { key } = expectOk(await h.call(ENDPOINTS.rotateSigningKey, { body: {} }));
    const jwt = (await h.login()).session_jwt;
    expect(kidOf(jwt)).toBe(key.kid);
    // B has never seen the key: meeting it makes B read the keyring again.
    expect(await authenticateJwt(b.url, jwt)).toBe(200);
    expect(await jwksKids(b.url)).toContain(key.kid);
  });

  it('refuses a second rotation within ten seconds, and a caller without the secret', async () => {
    h.clock.advance(11_000);
    expectOk(await h.call(ENDPOINTS.rotateSigningKey, { body: {} }));
    const again = await h.call(ENDPOINTS.rotateSigningKey, { body: {} });
    expect(again.status).toBe(429);
    expect(expectError(again).error_type).toBe('too_many_requests');
    const anonymous = await h.call(ENDPOINTS.rotateSigningKey, {
      body: {},
      authorization: basic(h.project.project_id, 'not-the-secret'),
    });
    expect(anonymous.status).toBe(401);
  });

  it('takes concurrent rotations without losing the signing key', async () => {
    h.clock.advance(11_000);
    const statuses = await Promise.all(
      Array.from({ length: 8 }, () =>
        h.call(ENDPOINTS.rotateSigningKey, { body: {} }).then((r) => r.status),
      ),
    );
    expect(statuses.every((s) => s === 200 || s === 429)).toBe(true);
    expect(statuses).toContain(200);
    // Whatever won, new JWTs are signed by a published key and verify on both instances.
    const jwt = (await h.login()).session_jwt;
    expect(await jwksKids(h.url)).toContain(kidOf(jwt));
    expect(await authenticateJwt(h.url, jwt)).toBe(200);
    expect(await authenticateJwt(b.url, jwt)).toBe(200);
  });

  it('drops a retired key from the JWKS once its last JWT has expired', async () => {
    h.clock.advance(11_000);
    const old = await h.login();
    expectOk(await h.call(ENDPOINTS.rotateSigningKey, { body: {} }));
    expect(await jwksKids(h.url)).toContain(kidOf(old.session_jwt));
    h.clock.advance(7 * 60_000);
    const kids = await jwksKids(h.url);
    expect(kids).not.toContain(kidOf(old.session_jwt));
    expect(kids).toHaveLength(1);
  });
});
