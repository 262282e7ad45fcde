// Password, MFA, SSO and OAuth calls: exact bodies, IST and PKCE handling, state, usage errors.
import { afterEach, describe, expect, it } from 'vitest';
import { createPkceStore } from './pkce.js';
import { storageKeys } from './storage.js';
import { installFakeApi, ok } from './test/fake-api.js';
import {
  IST,
  PUBLIC_TOKEN,
  SESSION_TOKEN,
  bootstrapData,
  discoveryResult,
  fullSession,
  mfaPending,
} from '@gatehouse/testing';
import { cleanup, cookie, makeClient, setCookie } from './test/harness.js';
import { GatehouseUsageError } from './errors.js';

afterEach(cleanup);

const pkce = () => createPkceStore(storageKeys(PUBLIC_TOKEN));
const ack = () => ok({ request_id: 'r', status_code: 200 });

describe('passwords', () => {
  it('authenticate sends the IST and the passwords verifier, and applies an MFA-pending result', async () => {
    const api = installFakeApi({ '/b2b/passwords/authenticate': () => ok(mfaPending()) });
    const pair = await pkce().create('passwords');
    setCookie('gatehouse_intermediate_session_token', 'earlier-ist');
    const client = makeClient();
    const args = {
      organization_id: 'o',
      email_address: 'ada@acme.test',
      password: 'correct horse',
      session_duration_minutes: 30,
    };
    const result = await client.passwords.authenticate(args);
    expect(result.member_authenticated).toBe(false);
    expect(api.calls()[0]?.body).toEqual({
      ...args,
      code_verifier: pair.code_verifier,
      intermediate_session_token: 'earlier-ist',
    });
    expect(client.session.getSnapshot()).toBeNull();
    expect(cookie('gatehouse_intermediate_session_token')).toBe(IST);
  });

  it('reset start reuses one passwords challenge when bootstrap requires PKCE for resets', async () => {
    const api = installFakeApi({
      [`/projects/bootstrap/${PUBLIC_TOKEN}`]: () =>
        ok(bootstrapData({ pkce_required_for_password_resets: true })),
      '/b2b/passwords/email/reset/start': () => ok({ member_id: 'member-test-1' }),
    });
    const client = makeClient();
    const args = {
      organization_id: 'o',
      email_address: 'ada@acme.test',
      reset_password_expiration_minutes: 30,
    };
    await client.passwords.resetByEmailStart(args);
    await client.passwords.resetByEmailStart(args);
    const challenge = pkce().get('passwords')?.code_challenge;
    expect(challenge).toBeTruthy();
    expect(api.calls().map((r) => r.body)).toEqual([
      { ...args, code_challenge: challenge },
      { ...args, code_challenge: challenge },
    ]);
  });

  it('reset by e-mail sends the verifier, clears the pair and applies the session', async () => {
    const api = installFakeApi({ '/b2b/passwords/email/reset': () => ok(fullSession()) });
    const pair = await pkce().create('passwords');
    const client = makeClient();
    await client.passwords.resetByEmail({
      password_reset_token: 'reset',
      password: 'new password',
      session_duration_minutes: 30,
    });
    expect(api.calls()[0]?.body).toEqual({
      password_reset_token: 'reset',
      password: 'new password',
      session_duration_minutes: 30,
      code_verifier: pair.code_verifier,
    });
    expect(pkce().get('passwords')).toBeNull();
    expect(cookie('gatehouse_session')).toBe(SESSION_TOKEN);
  });

  it('reset by session and by existing password apply their results; strength check does not', async () => {
    const strength = { valid_password: false, score: 1 };
    const api = installFakeApi({
      '/b2b/passwords/session/reset': () => ok(fullSession()),
      '/b2b/passwords/existing_password/reset': () => ok(mfaPending()),
      '/b2b/passwords/strength_check': () => ok(strength),
    });
    const client = makeClient();
    await client.passwords.resetBySession({ password: 'p' });
    expect(client.session.getSnapshot()).not.toBeNull();
    await expect(client.passwords.strengthCheck({ password: 'p' })).resolves.toEqual(strength);
    expect(client.session.getSnapshot()).not.toBeNull();
    await client.passwords.resetByExistingPassword({
      organization_id: 'o',
      email_address: 'ada@acme.test',
      existing_password: 'old',
      new_password: 'new',
      session_duration_minutes: 30,
    });
    expect(client.session.getSnapshot()).toBeNull();
    expect(api.calls().map((r) => r.body)).toEqual([
      { password: 'p' },
      { password: 'p' },
      {
        organization_id: 'o',
        email_address: 'ada@acme.test',
        existing_password: 'old',
        new_password: 'new',
        session_duration_minutes: 30,
      },
    ]);
  });
});

describe('MFA', () => {
  const ids = { organization_id: 'organization-test-1', member_id: 'member-test-1' };

  it('sends the IST on SMS, TOTP and recovery calls and applies their full sessions', async () => {
    const api = installFakeApi({
      '/b2b/otps/sms/send': ack,
      '/b2b/otps/sms/authenticate': () => ok(fullSession()),
      '/b2b/totp': () =>
        ok({ totp_id: 't', secret: 'S', qr_code: 'data:image/png;base64,', recovery_codes: [] }),
      '/b2b/totp/authenticate': () => ok(fullSession()),
      '/b2b/recovery_codes/recover': () => ok({ ...fullSession(), recovery_codes_remaining: 9 }),
    });
    const client = makeClient();
    const steps: [() => Promise<unknown>, object][] = [
      [
        () => client.otps.sms.send({ ...ids, mfa_phone_number: '+15555550100' }),
        { mfa_phone_number: '+15555550100' },
      ],
      [
        () =>
          client.otps.sms.authenticate({ ...ids, code: '123456', set_mfa_enrollment: 'enroll' }),
        { code: '123456', set_mfa_enrollment: 'enroll' },
      ],
      [() => client.totp.create({ ...ids, expiration_minutes: 60 }), { expiration_minutes: 60 }],
      [
        () =>
          client.totp.authenticate({
            ...ids,
            code: '654321',
            set_default_mfa: true,
            session_duration_minutes: 60,
          }),
        { code: '654321', set_default_mfa: true, session_duration_minutes: 60 },
      ],
      [
        () => client.recoveryCodes.recover({ ...ids, recovery_code: 'abcd-efgh-ijkl' }),
        { recovery_code: 'abcd-efgh-ijkl' },
      ],
    ];
    for (const [run, extra] of steps) {
      // Each successful step retires the IST; put it back as a pending MFA flow would have it.
      setCookie('gatehouse_intermediate_session_token', IST);
      await run();
      expect(api.calls().at(-1)?.body).toEqual({
        ...ids,
        ...extra,
        intermediate_session_token: IST,
      });
    }
    expect(client.session.getSnapshot()?.session.member_session_id).toBe('member-session-test-1');
    expect(cookie('gatehouse_intermediate_session_token')).toBeNull();
  });

  it('rotates with an empty body and gets codes with a GET', async () => {
    const api = installFakeApi({
      '/b2b/recovery_codes/rotate': () => ok({ recovery_codes: ['a'] }),
      '/b2b/recovery_codes': () => ok({ recovery_codes: ['b'] }),
    });
    const client = makeClient();
    await expect(client.recoveryCodes.rotate()).resolves.toEqual({ recovery_codes: ['a'] });
    await expect(client.recoveryCodes.get()).resolves.toEqual({ recovery_codes: ['b'] });
    expect(api.calls().map((r) => [r.method, r.body])).toEqual([
      ['POST', {}],
      ['GET', undefined],
    ]);
  });
});

describe('SSO and OAuth completion', () => {
  it('sends the sso and oauth verifiers and clears each pair on success', async () => {
    const api = installFakeApi({
      '/b2b/sso/authenticate': () => ok(fullSession()),
      '/b2b/oauth/authenticate': () => ok({ ...fullSession(), provider_values: {} }),
    });
    const sso = await pkce().create('sso');
    const oauth = await pkce().create('oauth');
    const client = makeClient();
    await client.sso.authenticate({ sso_token: 's', session_duration_minutes: 60 });
    await client.oauth.authenticate({ oauth_token: 'o', session_duration_minutes: 60 });
    expect(api.calls().map((r) => r.body)).toEqual([
      { sso_token: 's', session_duration_minutes: 60, pkce_code_verifier: sso.code_verifier },
      { oauth_token: 'o', session_duration_minutes: 60, pkce_code_verifier: oauth.code_verifier },
    ]);
    expect([pkce().get('sso'), pkce().get('oauth')]).toEqual([null, null]);
    expect(client.session.getSnapshot()).not.toBeNull();
  });

  it('OAuth discovery lands in the intermediate state', async () => {
    installFakeApi({ '/b2b/oauth/discovery/authenticate': () => ok(discoveryResult()) });
    const client = makeClient();
    await client.oauth.discovery.authenticate({ discovery_oauth_token: 'd' });
    expect(client.session.getSnapshot()).toBeNull();
    expect(client.session.getIntermediateSessionToken()).toBe(IST);
  });
});

describe('spec §5 argument requirements', () => {
  type Run = (c: ReturnType<typeof makeClient>) => Promise<unknown>;
  const cases: [string, Run][] = [
    [
      'reset start without email_address',
      (c) => c.passwords.resetByEmailStart({ organization_id: 'o' } as never),
    ],
    [
      'reset start with a string expiration',
      (c) =>
        c.passwords.resetByEmailStart({
          organization_id: 'o',
          email_address: 'e',
          reset_password_expiration_minutes: '30',
        } as never),
    ],
    [
      'reset by e-mail without a duration',
      (c) => c.passwords.resetByEmail({ password_reset_token: 't', password: 'p' } as never),
    ],
    [
      'reset by existing password without new_password',
      (c) =>
        c.passwords.resetByExistingPassword({
          organization_id: 'o',
          email_address: 'e',
          existing_password: 'x',
          session_duration_minutes: 30,
        } as never),
    ],
    ['reset by session without password', (c) => c.passwords.resetBySession({} as never)],
    [
      'strength check with a numeric email',
      (c) => c.passwords.strengthCheck({ password: 'p', email_address: 1 } as never),
    ],
    ['SMS send without member_id', (c) => c.otps.sms.send({ organization_id: 'o' } as never)],
    [
      'SMS authenticate without code',
      (c) => c.otps.sms.authenticate({ organization_id: 'o', member_id: 'm' } as never),
    ],
    [
      'TOTP create with a string expiration',
      (c) =>
        c.totp.create({ organization_id: 'o', member_id: 'm', expiration_minutes: '5' } as never),
    ],
    [
      'TOTP authenticate with a string set_default_mfa',
      (c) =>
        c.totp.authenticate({
          organization_id: 'o',
          member_id: 'm',
          code: '1',
          set_default_mfa: 'yes',
        } as never),
    ],
    [
      'recover without recovery_code',
      (c) => c.recoveryCodes.recover({ organization_id: 'o', member_id: 'm' } as never),
    ],
    [
      'SSO authenticate without a token',
      (c) => c.sso.authenticate({ session_duration_minutes: 60 } as never),
    ],
    ['OAuth discovery without a token', (c) => c.oauth.discovery.authenticate({} as never)],
  ];

  it.each(cases)('%s is a usage error before any request', async (_name, run) => {
    const api = installFakeApi();
    const client = makeClient();
    await client.bootstrap();
    await expect(run(client)).rejects.toBeInstanceOf(GatehouseUsageError);
    expect(api.calls()).toEqual([]);
  });
});
