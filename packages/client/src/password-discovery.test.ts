// passwords.discovery: exact bodies, the `passwords` PKCE pair, the DR result's state, usage errors.
import { afterEach, describe, expect, it } from 'vitest';
import { IST, PUBLIC_TOKEN, bootstrapData, discoveryResult, fullSession } from '@gatehouse/testing';
import { GatehouseAPIError, GatehouseUsageError } from './errors.js';
import { createPkceStore } from './pkce.js';
import { storageKeys } from './storage.js';
import { apiError, installFakeApi, ok } from './test/fake-api.js';
import { cleanup, cookie, makeClient, setCookie } from './test/harness.js';

afterEach(cleanup);

const pkce = () => createPkceStore(storageKeys(PUBLIC_TOKEN));
const ack = () => ok({ request_id: 'r', status_code: 200 });
const START = '/b2b/passwords/discovery/reset/start';
const RESET = '/b2b/passwords/discovery/reset';

describe('passwords.discovery.resetByEmailStart', () => {
  it('sends the arguments as given, without a challenge when PKCE is not required', async () => {
    const api = installFakeApi({ [START]: ack });
    const client = makeClient();
    const args = {
      email_address: 'ada@acme.test',
      discovery_redirect_url: 'http://localhost:3000/discovery',
      reset_password_redirect_url: 'http://localhost:3000/reset',
      reset_password_expiration_minutes: 30,
      reset_password_template_id: 'reset-template',
      verify_email_template_id: 'verify-template',
      locale: 'es',
    };
    await client.passwords.discovery.resetByEmailStart(args);
    expect(api.calls().map((r) => r.body)).toEqual([args]);
    expect(pkce().get('passwords')).toBeNull();
  });

  it('reuses one passwords challenge across resends when bootstrap requires PKCE for resets', async () => {
    const api = installFakeApi({
      [`/projects/bootstrap/${PUBLIC_TOKEN}`]: () =>
        ok(bootstrapData({ pkce_required_for_password_resets: true })),
      [START]: ack,
    });
    const client = makeClient();
    await client.passwords.discovery.resetByEmailStart({ email_address: 'ada@acme.test' });
    await client.passwords.discovery.resetByEmailStart({ email_address: 'ada@acme.test' });
    const challenge = pkce().get('passwords')?.code_challenge;
    expect(challenge).toBeTruthy();
    expect(api.calls().map((r) => r.body)).toEqual([
      { email_address: 'ada@acme.test', pkce_code_challenge: challenge },
      { email_address: 'ada@acme.test', pkce_code_challenge: challenge },
    ]);
  });
});

describe('passwords.discovery.resetByEmail', () => {
  it('sends the verifier and the IST, clears the pair and lands in the intermediate state', async () => {
    const api = installFakeApi({
      '/b2b/sessions/authenticate': () => ok(fullSession()),
      [RESET]: () => ok(discoveryResult()),
    });
    const pair = await pkce().create('passwords');
    const client = makeClient();
    await client.session.authenticate();
    expect(client.session.getSnapshot()).not.toBeNull();
    setCookie('gatehouse_intermediate_session_token', 'earlier-ist');
    const result = await client.passwords.discovery.resetByEmail({
      password_reset_token: 'reset-token',
      password: 'new password',
    });
    expect(result.intermediate_session_token).toBe(IST);
    expect(api.calls().find((r) => r.path === RESET)?.body).toEqual({
      password_reset_token: 'reset-token',
      password: 'new password',
      pkce_code_verifier: pair.code_verifier,
      intermediate_session_token: 'earlier-ist',
    });
    expect(pkce().get('passwords')).toBeNull();
    expect(client.session.getSnapshot()).toBeNull();
    expect(cookie('gatehouse_session')).toBeNull();
    expect(client.session.getIntermediateSessionToken()).toBe(IST);
  });

  it('keeps the pair and the state when the server refuses the link', async () => {
    installFakeApi({
      [RESET]: () => apiError(404, 'password_reset_token_not_found'),
    });
    await pkce().create('passwords');
    setCookie('gatehouse_intermediate_session_token', 'earlier-ist');
    const client = makeClient();
    await expect(
      client.passwords.discovery.resetByEmail({ password_reset_token: 't', password: 'p' }),
    ).rejects.toBeInstanceOf(GatehouseAPIError);
    expect(pkce().get('passwords')).not.toBeNull();
    expect(cookie('gatehouse_intermediate_session_token')).toBe('earlier-ist');
  });

  type Run = (c: ReturnType<typeof makeClient>) => Promise<unknown>;
  const misuse: [string, Run][] = [
    ['start without email_address', (c) => c.passwords.discovery.resetByEmailStart({} as never)],
    [
      'start with a string expiration',
      (c) =>
        c.passwords.discovery.resetByEmailStart({
          email_address: 'e',
          reset_password_expiration_minutes: '30',
        } as never),
    ],
    [
      'reset without a password',
      (c) => c.passwords.discovery.resetByEmail({ password_reset_token: 't' } as never),
    ],
  ];
  it.each(misuse)('%s is a usage error before any request', async (_name, run) => {
    const api = installFakeApi();
    const client = makeClient();
    await client.bootstrap();
    await expect(run(client)).rejects.toBeInstanceOf(GatehouseUsageError);
    expect(api.calls()).toEqual([]);
  });
});
