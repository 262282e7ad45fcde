// The real client against a real server through a discovery password reset: the e-mailed link,
// the `passwords` PKCE pair the project requires, the intermediate session it answers (§11 rule
// 2) and a password sign-in with the new password afterwards.
// @vitest-environment happy-dom
// @vitest-environment-options {"url": "http://localhost:3000/"}
import { startHarness, type Harness } from '@gatehouse/testing/server';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createClient } from './client.js';
import { GatehouseAPIError } from './errors.js';
import { resetBrowserState } from './test/fake-api.js';
import { cookie } from './test/harness.js';
import type { GatehouseClient } from './types.js';

const IST_COOKIE = 'gatehouse_intermediate_session_token';
const NEW_PASSWORD = 'Velvet-Harbor-Kettle-58';

vi.setConfig({ testTimeout: 30_000, hookTimeout: 30_000 });

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
  await h.admin.updateProject(h.project.project_id, { pkceRequired: { password_resets: true } });
});
afterAll(async () => {
  await h.close();
});

const clients: GatehouseClient[] = [];
afterEach(() => {
  for (const client of clients.splice(0)) client.destroy();
  resetBrowserState();
});

function pageClient(): GatehouseClient {
  const client = createClient(h.project.public_token, { baseUrl: h.url });
  clients.push(client);
  return client;
}

const pkceKey = () => `gatehouse_sdk_state_${h.project.public_token}::PKCE_VERIFIER:passwords`;

describe('passwords.discovery', () => {
  it('resets by the e-mailed link into an intermediate session, then signs in with the new password', async () => {
    const client = pageClient();
    // A signed-in member first: the reset's answer must sign them out (§11 rule 2).
    await client.magicLinks.email.loginOrSignup({
      email_address: 'ada@acme.test',
      organization_id: h.org.organization_id,
    });
    await client.magicLinks.authenticate({
      magic_links_token: await h.lastToken('ada@acme.test'),
      session_duration_minutes: 60,
    });
    expect(client.session.getSnapshot()).not.toBeNull();

    await client.passwords.discovery.resetByEmailStart({ email_address: 'ada@acme.test' });
    const outbox = await h.admin.listOutbox({ limit: 1 });
    const link = new URL(outbox[0]?.links[0] ?? '');
    expect(link.searchParams.get('stytch_token_type')).toBe('discovery');
    expect(localStorage.getItem(pkceKey())).not.toBeNull();

    const result = await client.passwords.discovery.resetByEmail({
      password_reset_token: await h.lastToken('ada@acme.test'),
      password: NEW_PASSWORD,
    });
    expect(result.email_address).toBe('ada@acme.test');
    expect(
      result.discovered_organizations.map((d) => [
        d.organization.organization_id,
        d.membership.type,
      ]),
    ).toEqual([[h.org.organization_id, 'active_member']]);
    expect(client.session.getSnapshot()).toBeNull();
    expect(cookie('gatehouse_session')).toBeNull();
    expect(cookie(IST_COOKIE)).toBe(result.intermediate_session_token);
    // The pair is spent with the link.
    expect(localStorage.getItem(pkceKey())).toBeNull();

    const signedIn = await client.passwords.authenticate({
      organization_id: h.org.organization_id,
      email_address: 'ada@acme.test',
      password: NEW_PASSWORD,
      session_duration_minutes: 60,
    });
    expect(signedIn.member_authenticated).toBe(true);
    expect(client.session.getSnapshot()?.member.email_address).toBe('ada@acme.test');
  });

  it('refuses a link from another browser, which lacks the verifier, and leaves it usable', async () => {
    const starter = pageClient();
    await starter.passwords.discovery.resetByEmailStart({ email_address: 'ada@acme.test' });
    const token = await h.lastToken('ada@acme.test');
    const pair = localStorage.getItem(pkceKey());
    starter.destroy();
    resetBrowserState();

    const other = pageClient();
    const error = await other.passwords.discovery
      .resetByEmail({ password_reset_token: token, password: NEW_PASSWORD })
      .then(
        () => null,
        (e: unknown) => e,
      );
    expect(error).toBeInstanceOf(GatehouseAPIError);
    expect(error).toMatchObject({ error_type: 'pkce_mismatch' });
    expect(cookie(IST_COOKIE)).toBeNull();

    localStorage.setItem(pkceKey(), pair ?? '');
    const result = await other.passwords.discovery.resetByEmail({
      password_reset_token: token,
      password: `${NEW_PASSWORD}!`,
    });
    expect(result.intermediate_session_token).toBeTruthy();
  });
});
