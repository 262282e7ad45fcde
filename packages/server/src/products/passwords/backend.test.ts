// The management API's password calls for host backends: passwords/authenticate and passwords/strength_check with the secret key.
import { ENDPOINTS, type RequestOf } from '@gatehouse/protocol/endpoints';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectOk, expectSession, startHarness, type Harness } from '../../test/harness.js';

const PASSWORD = 'Quartz-Lantern-Orbit-42';
type AuthenticateBody = RequestOf<typeof ENDPOINTS.backendPasswordsAuthenticate>;

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
  await h.admin.setMemberPassword(h.project.project_id, h.member.member_id, { password: PASSWORD });
});
afterAll(async () => {
  await h.close();
});

const authenticate = (body: Partial<AuthenticateBody>) =>
  h.call(ENDPOINTS.backendPasswordsAuthenticate, {
    body: {
      organization_id: h.org.organization_id,
      email_address: h.member.email_address,
      password: PASSWORD,
      ...body,
    },
  });

describe('management passwords/authenticate', () => {
  it('signs the member in with the secret key: result F, 60 minutes unless told', async () => {
    const data = expectSession(await authenticate({}));
    expect(data.member_id).toBe(h.member.member_id);
    expect(data.organization.organization_id).toBe(h.org.organization_id);
    expect(data.session_token).not.toBe('');
    const { started_at, expires_at } = data.member_session;
    expect(Date.parse(expires_at) - Date.parse(started_at)).toBe(60 * 60_000);
  });

  it('needs the secret key: the public token is not enough', async () => {
    const res = await h.call(ENDPOINTS.backendPasswordsAuthenticate, {
      body: {
        organization_id: h.org.organization_id,
        email_address: h.member.email_address,
        password: PASSWORD,
      },
      authorization: `Basic ${Buffer.from(`${h.project.public_token}:${h.project.public_token}`).toString('base64')}`,
    });
    expect([res.status, res.error?.error_type]).toEqual([401, 'unauthorized_credentials']);
  });

  it('refuses a wrong password and an unknown address alike', async () => {
    const wrong = await authenticate({ password: 'Not-The-Password-1' });
    const unknown = await authenticate({ email_address: 'nobody@acme.test' });
    expect([wrong.status, wrong.error?.error_type]).toEqual([401, 'unauthorized_credentials']);
    expect(unknown.error).toEqual({ ...wrong.error, request_id: unknown.error?.request_id });
  });

  it('extends the session_token sent with it, and refuses a dead one or a JWT alone', async () => {
    const first = expectSession(await authenticate({}));
    const again = expectSession(await authenticate({ session_token: first.session_token }));
    expect(again.session_token).toBe(first.session_token);
    expect(again.member_session.member_session_id).toBe(first.member_session.member_session_id);

    const dead = await authenticate({ session_token: 'not-a-live-session-token' });
    expect([dead.status, dead.error?.error_type]).toEqual([404, 'session_not_found']);
    const jwtOnly = await authenticate({ session_jwt: first.session_jwt });
    expect([jwtOnly.status, jwtOnly.error?.error_type]).toEqual([400, 'invalid_request']);
    const claims = await authenticate({ session_custom_claims: { tier: 'gold' } });
    expect(claims.error?.error_message).toMatch(/session_custom_claims/);
  });
});

describe('management passwords/strength_check', () => {
  it("scores a password under the project's policy", async () => {
    const weak = expectOk(
      await h.call(ENDPOINTS.backendPasswordsStrengthCheck, { body: { password: 'password' } }),
    );
    expect(weak.valid_password).toBe(false);
    const strong = expectOk(
      await h.call(ENDPOINTS.backendPasswordsStrengthCheck, {
        body: { password: PASSWORD, email_address: 'ada@acme.test' },
      }),
    );
    expect(strong.valid_password).toBe(true);
    expect(strong.score).toBeGreaterThanOrEqual(weak.score);
  });
});
