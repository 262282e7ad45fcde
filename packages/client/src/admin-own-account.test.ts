// A member's own sign-in methods through the real client against a real server: an authenticator
// app enrolled with the session and removed with `self.deleteTotp`, and a wrong current password
// refused without signing the browser out.
// @vitest-environment happy-dom
// @vitest-environment-options {"url": "http://localhost:3000/"}
import { startHarness, totpAt, type Harness } from '@gatehouse/testing/server';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createAdminClient } from './admin.js';
import { GatehouseAPIError } from './errors.js';
import { useSignedInClients } from './test/signed-in.js';

vi.setConfig({ testTimeout: 30_000, hookTimeout: 30_000 });

let h: Harness;

beforeAll(async () => {
  h = await startHarness();
  for (const email of ['own-totp@acme.test', 'own-password@acme.test']) {
    await h.admin.createMember(h.project.project_id, h.org.organization_id, {
      email_address: email,
    });
  }
});

afterAll(async () => {
  await h.close();
});

const signedIn = useSignedInClients(() => h);

describe("a member's own sign-in methods", () => {
  it('enrolls an authenticator app with the session and removes it', async () => {
    const client = await signedIn('own-totp@acme.test');
    const admin = createAdminClient(client);
    const { member } = await admin.self.get();
    const ids = { organization_id: member.organization_id, member_id: member.member_id };
    const { secret, recovery_codes } = await client.totp.create(ids);
    expect(recovery_codes).toHaveLength(10);
    await client.totp.authenticate({ ...ids, code: totpAt(secret, h.clock.now) });
    expect((await admin.self.get()).member.totp_registration_id).not.toBe('');
    const removed = await admin.self.deleteTotp();
    expect(removed.member.totp_registration_id).toBe('');
  });

  it('refuses a wrong current password and stays signed in', async () => {
    const client = await signedIn('own-password@acme.test');
    await client.passwords.resetBySession({ password: 'a first passphrase for 2026 here' });
    const error = await client.passwords
      .resetBySession({
        password: 'a second passphrase for 2027 here',
        existing_password: 'not the password at all',
      })
      .then(
        () => null,
        (e: unknown) => e,
      );
    expect(error).toBeInstanceOf(GatehouseAPIError);
    expect((error as GatehouseAPIError).error_type).toBe('existing_password_mismatch');
    expect(client.session.getSnapshot()).not.toBeNull();
    await client.passwords.resetBySession({
      password: 'a second passphrase for 2027 here',
      existing_password: 'a first passphrase for 2026 here',
    });
    expect(client.session.getSnapshot()).not.toBeNull();
  });
});
