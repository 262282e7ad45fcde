// The management API's password reset by e-mail: passwords.email.resetStart and reset, for a host
// backend, under the browser API's allow-lists and single use.
import { ENDPOINTS } from '@gatehouse/protocol/endpoints';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { basic, expectOk, startHarness, type Harness } from '../../test/harness.js';

const PASSWORD = 'Quartz-Lantern-Orbit-42';
const NEW_PASSWORD = 'Velvet-Harbor-Compass-77';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
  await h.admin.setMemberPassword(h.project.project_id, h.member.member_id, { password: PASSWORD });
});
afterAll(async () => {
  await h.close();
});

const start = (email: string, extra: { reset_password_redirect_url?: string } = {}) =>
  h.call(ENDPOINTS.backendPasswordsResetStart, {
    body: { organization_id: h.org.organization_id, email_address: email, ...extra },
  });
const reset = (token: string, password = NEW_PASSWORD, authorization?: string) =>
  h.call(ENDPOINTS.backendPasswordsReset, {
    body: { password_reset_token: token, password, session_duration_minutes: 60 },
    ...(authorization ? { authorization } : {}),
  });

describe('management passwords.email.resetStart and reset', () => {
  it('sends a reset link naming the member; the link sets the password once', async () => {
    const sent = expectOk(await start('ada@acme.test'));
    expect(sent.member_id).toBe(h.member.member_id);
    expect(sent.member.email_address).toBe('ada@acme.test');
    expect(sent.member_email_id).not.toBe('');
    const token = await h.lastToken('ada@acme.test');
    const data = expectOk(await reset(token));
    expect(data.member_authenticated).toBe(true);
    expect([data.member_id, data.organization_id, data.member_email_id]).toEqual([
      h.member.member_id,
      h.org.organization_id,
      sent.member_email_id,
    ]);
    const again = await reset(token, 'Another-Lantern-Harbor-91');
    expect([again.status, again.error?.error_type]).toEqual([
      404,
      'password_reset_token_not_found',
    ]);
    const login = await h.call(ENDPOINTS.backendPasswordsAuthenticate, {
      body: {
        organization_id: h.org.organization_id,
        email_address: 'ada@acme.test',
        password: NEW_PASSWORD,
      },
    });
    expect(login.status).toBe(200);
  });

  it("answers 404 for another project's organization", async () => {
    const other = await h.admin.createProject({ name: 'Elsewhere' });
    const res = await h.call(ENDPOINTS.backendPasswordsResetStart, {
      body: { organization_id: h.org.organization_id, email_address: 'ada@acme.test' },
      authorization: basic(other.project_id, other.secret),
    });
    expect([res.status, res.error?.error_type]).toEqual([404, 'organization_not_found']);
  });

  it("refuses another project's secret key, leaving the link unspent", async () => {
    expectOk(await start('ada@acme.test'));
    const token = await h.lastToken('ada@acme.test');
    const other = await h.admin.createProject({ name: 'Elsewhere too' });
    const foreign = await reset(token, NEW_PASSWORD, basic(other.project_id, other.secret));
    expect([foreign.status, foreign.error?.error_type]).toEqual([
      404,
      'password_reset_token_not_found',
    ]);
    expect(expectOk(await reset(token, 'Copper-Meadow-Signal-58')).member_authenticated).toBe(true);
  });

  it('refuses a reset URL that is not on the allow-list', async () => {
    const res = await start('ada@acme.test', {
      reset_password_redirect_url: 'https://evil.example/reset',
    });
    expect([res.status, res.error?.error_type]).toEqual([400, 'invalid_redirect_url']);
  });

  it('refuses a magic link as a reset link', async () => {
    expectOk(
      await h.call(ENDPOINTS.backendMagicLinksLoginOrSignup, {
        body: { organization_id: h.org.organization_id, email_address: 'ada@acme.test' },
      }),
    );
    const res = await reset(await h.lastToken('ada@acme.test'), 'Amber-Falcon-Ledger-33');
    expect([res.status, res.error?.error_type]).toEqual([404, 'password_reset_token_not_found']);
  });
});
