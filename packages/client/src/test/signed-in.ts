/** Clients signed in to a real server (a magic link from its outbox), destroyed after each test. */
import type { Harness } from '@gatehouse/testing/server';
import { afterEach } from 'vitest';
import { createClient } from '../client.js';
import type { GatehouseClient } from '../types.js';
import { resetBrowserState } from './fake-api.js';

/**
 * Returns `signedIn(email)`, which signs a member of the harness's organization in with a new
 * client; the clients end, and the browser state is cleared, after each test.
 */
export function useSignedInClients(
  harness: () => Harness,
): (email: string) => Promise<GatehouseClient> {
  const clients: GatehouseClient[] = [];
  afterEach(() => {
    for (const client of clients.splice(0)) client.destroy();
    resetBrowserState();
  });
  return async (email) => {
    const h = harness();
    const client = createClient(h.project.public_token, { baseUrl: h.url });
    clients.push(client);
    await client.magicLinks.email.loginOrSignup({
      email_address: email,
      organization_id: h.org.organization_id,
    });
    await client.magicLinks.authenticate({
      magic_links_token: await h.lastToken(email),
      session_duration_minutes: 60,
    });
    return client;
  };
}
