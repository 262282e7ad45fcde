// The browser a session records (docs/protocol.md §7.10): every sign-in path from a browser
// passes its IP address and user agent down to the new session; a host backend's call records
// none.
import type { ListedSession } from '@gatehouse/protocol';
import { ENDPOINTS } from '@gatehouse/protocol/endpoints';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectOk, expectSession, startHarness, type Harness } from '../../test/harness.js';
import { magicLogin, mfaOrganization, totpAt } from '../../test/mfa.js';
import { ADA_PASSWORD, adaPasswordSignIn, giveAdaPassword } from '../../test/passwords.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
  await giveAdaPassword(h);
});
afterAll(async () => {
  await h?.close();
});

/** The listed form of a session, read by its own member. */
async function listed(token: string): Promise<ListedSession> {
  const own = expectOk(await h.call(ENDPOINTS.ownSessionsList, { token })).member_sessions;
  const current = own.find((s) => s.current);
  if (!current) throw new Error('the session is not listed');
  return current;
}

const passwordSignIn = (userAgent?: string) =>
  adaPasswordSignIn(h, userAgent === undefined ? {} : { headers: { 'user-agent': userAgent } });

/** The session claim's attributes of a session JWT, as the provider's SDKs read them. */
function jwtAttributes(jwt: string): unknown {
  const payload = JSON.parse(Buffer.from(jwt.split('.')[1] ?? '', 'base64url').toString()) as {
    'https://stytch.com/session': { attributes: unknown };
  };
  return payload['https://stytch.com/session'].attributes;
}

describe('the browser a new session records', () => {
  it('is the IP address and user agent of a password sign-in', async () => {
    const session = expectSession(await passwordSignIn('Ada/password'));
    expect(await listed(session.session_token)).toMatchObject({
      ip_address: '127.0.0.1',
      user_agent: 'Ada/password',
    });
  });

  it('keeps the first 512 characters of a long user agent', async () => {
    const session = expectSession(await passwordSignIn(`Ada/${'x'.repeat(2000)}`));
    const { user_agent } = await listed(session.session_token);
    expect(user_agent).toHaveLength(512);
    expect(user_agent?.startsWith('Ada/xxx')).toBe(true);
  });

  it('is that of the call that passes the second factor, after an IST', async () => {
    const { org, member, email } = await mfaOrganization(h, 'client-mfa');
    const pending = await magicLogin(h, email, org.organization_id);
    const ids = { organization_id: org.organization_id, member_id: member.member_id };
    const ist = pending.intermediate_session_token;
    const totp = expectOk(
      await h.call(ENDPOINTS.totpCreate, { body: { ...ids, intermediate_session_token: ist } }),
    );
    const res = await h.call(ENDPOINTS.totpAuthenticate, {
      body: {
        ...ids,
        intermediate_session_token: ist,
        code: totpAt(totp.secret, h.clock.now),
        session_duration_minutes: 60,
      },
      headers: { 'user-agent': 'Grace/totp' },
    });
    expect(await listed(expectSession(res).session_token)).toMatchObject({
      ip_address: '127.0.0.1',
      user_agent: 'Grace/totp',
    });
  });

  it('is that of the call that exchanges a session into another organization', async () => {
    const other = await h.admin.createOrganization(h.project.project_id, {
      organization_name: 'Other',
      organization_slug: 'client-exchange',
    });
    await h.admin.createMember(h.project.project_id, other.organization_id, {
      email_address: 'ada@acme.test',
    });
    // A magic link proves the address wherever it is used; a password, one membership's only.
    const first = await h.login();
    const res = await h.call(ENDPOINTS.sessionsExchange, {
      token: first.session_token,
      body: { organization_id: other.organization_id, session_duration_minutes: 60 },
      headers: { 'user-agent': 'Ada/exchanged' },
    });
    expect(await listed(expectSession(res).session_token)).toMatchObject({
      user_agent: 'Ada/exchanged',
    });
  });

  it('is none for a host backend’s password sign-in, whatever its user agent', async () => {
    const res = await h.call(ENDPOINTS.backendPasswordsAuthenticate, {
      body: {
        organization_id: h.org.organization_id,
        email_address: 'ada@acme.test',
        password: ADA_PASSWORD,
        session_duration_minutes: 60,
      },
      headers: { 'user-agent': 'HostBackend/1.0' },
    });
    expect(await listed(expectOk(res).session_token)).toMatchObject({
      ip_address: null,
      user_agent: null,
    });
  });

  it("is in the session JWT's attributes, from sign-in through every refresh", async () => {
    const session = expectSession(await passwordSignIn('Ada/jwt'));
    const expected = { ip_address: '127.0.0.1', user_agent: 'Ada/jwt' };
    expect(jwtAttributes(session.session_jwt)).toEqual(expected);
    // A refresh from another browser signs the JWT with the session's own browser still.
    const refreshed = expectSession(
      await h.call(ENDPOINTS.sessionsAuthenticate, {
        token: session.session_token,
        body: {},
        headers: { 'user-agent': 'Mallory/other' },
      }),
    );
    expect(jwtAttributes(refreshed.session_jwt)).toEqual(expected);
    const backend = expectOk(
      await h.call(ENDPOINTS.backendPasswordsAuthenticate, {
        body: {
          organization_id: h.org.organization_id,
          email_address: 'ada@acme.test',
          password: ADA_PASSWORD,
          session_duration_minutes: 60,
        },
      }),
    );
    expect(jwtAttributes(backend.session_jwt)).toEqual({ ip_address: '', user_agent: '' });
  });
});
