// Password resets (§7.2, §8, §10): by e-mail link with PKCE, by existing password, by session.
import { createHash, randomBytes } from 'node:crypto';
import { ENDPOINTS, type RequestOf } from '@gatehouse/protocol/endpoints';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  expectOk,
  expectSession,
  startHarness,
  type CallRequestOptions,
  type Harness,
} from '../../test/harness.js';

const PASSWORD = 'Quartz-Lantern-Orbit-42';
const NEW_PASSWORD = 'Velvet-Harbor-Compass-77';
const RESET_URL = 'http://localhost:3000/reset';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
  await h.admin.setMemberPassword(h.project.project_id, h.member.member_id, { password: PASSWORD });
});
afterAll(async () => {
  await h.close();
});

/** A reset start body; the seeded organization unless told. */
type StartBody = Omit<RequestOf<typeof ENDPOINTS.passwordsResetStart>, 'organization_id'> & {
  organization_id?: string;
};
const start = (body: StartBody, options: CallRequestOptions = {}) =>
  h.call(ENDPOINTS.passwordsResetStart, {
    body: { organization_id: h.org.organization_id, ...body },
    ...options,
  });
const resetByEmail = (
  body: RequestOf<typeof ENDPOINTS.passwordsResetByEmail>,
  options: CallRequestOptions = {},
) => h.call(ENDPOINTS.passwordsResetByEmail, { body, ...options });
const login = (email: string, password: string, organizationId = h.org.organization_id) =>
  h.call(ENDPOINTS.passwordsAuthenticate, {
    body: { organization_id: organizationId, email_address: email, password },
  });

/** A fresh active member of the seeded organization, with a password. */
async function member(email: string) {
  const created = await h.admin.createMember(h.project.project_id, h.org.organization_id, {
    email_address: email,
  });
  return h.admin.setMemberPassword(h.project.project_id, created.member_id, { password: PASSWORD });
}

/** The newest e-mail to `to` and the link in it. */
async function lastMail(to: string) {
  const message = (await h.admin.listOutbox()).find((m) => m.to === to);
  if (!message) throw new Error(`no mail to ${to}`);
  return { message, url: new URL(message.links[0] ?? '') };
}

async function resetToken(email: string, body: Omit<StartBody, 'email_address'> = {}) {
  const res = await start({ email_address: email, ...body });
  expect(res.status).toBe(200);
  return (await lastMail(email)).url.searchParams.get('token') ?? '';
}

function pkcePair() {
  const verifier = randomBytes(32).toString('hex');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

describe('passwords/email/reset/start', () => {
  it('e-mails the member a reset link (HTML and text) to the default reset URL', async () => {
    const res = await start({ email_address: 'ADA@acme.test' });
    expect(res.status).toBe(200);
    const data = expectOk(res);
    expect(data.member_id).toBe(h.member.member_id);
    expect(data.member.email_address).toBe('ada@acme.test');
    expect(data.organization.organization_id).toBe(h.org.organization_id);
    const { message, url } = await lastMail('ada@acme.test');
    expect(url.origin + url.pathname).toBe(RESET_URL);
    expect(url.searchParams.get('stytch_token_type')).toBe('multi_tenant_passwords');
    expect(url.searchParams.get('token')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(message.subject).toBe('Reset your password for Acme');
    expect(message.text).toContain(url.toString());
    expect(message.text).toContain('expires in 30 minutes');
    expect(message.html).toContain(`href="${url.toString().replaceAll('&', '&amp;')}"`);
    expect(message.html).toMatch(/^<!doctype html>/);
  });

  it('uses a given reset URL and ignores a template id sent as login_redirect_url', async () => {
    const res = await start({
      email_address: 'ada@acme.test',
      reset_password_redirect_url: 'http://localhost:3000/reset?from=mail#top',
      login_redirect_url: 'my-reset-template',
      reset_password_template_id: 'my-reset-template',
      locale: 'en',
    });
    expect(res.status).toBe(200);
    const { url } = await lastMail('ada@acme.test');
    expect(url.searchParams.get('from')).toBe('mail');
    expect(url.hash).toBe('#top');
  });

  it('refuses unknown members, bad addresses, foreign URLs and bad input', async () => {
    const unknown = await start({ email_address: 'nobody@acme.test' });
    expect([unknown.status, unknown.error?.error_type]).toEqual([404, 'member_not_found']);
    const badEmail = await start({ email_address: 'nope' });
    expect([badEmail.status, badEmail.error?.error_type]).toEqual([400, 'invalid_email']);
    const foreign = await start({
      email_address: 'ada@acme.test',
      reset_password_redirect_url: 'https://evil.example/reset',
    });
    expect([foreign.status, foreign.error?.error_type]).toEqual([400, 'invalid_redirect_url']);
    const foreignLogin = await start({
      email_address: 'ada@acme.test',
      login_redirect_url: 'https://evil.example/login',
    });
    expect([foreignLogin.status, foreignLogin.error?.error_type]).toEqual([
      400,
      'invalid_redirect_url',
    ]);
    // Untyped: a string where the type wants a number.
    const badExpiry = await h.sdk('/b2b/passwords/email/reset/start', {
      body: {
        organization_id: h.org.organization_id,
        email_address: 'ada@acme.test',
        reset_password_expiration_minutes: '30',
      },
    });
    expect(badExpiry.status).toBe(400);
    expect(badExpiry.error?.body?.[0]?.dataPath).toBe('.reset_password_expiration_minutes');
    const noOrg = await start({
      email_address: 'ada@acme.test',
      organization_id: 'organization-test-00000000-0000-4000-8000-000000000000',
    });
    expect([noOrg.status, noOrg.error?.error_type]).toEqual([404, 'organization_not_found']);
  });

  it('requires a code_challenge when the project requires PKCE for password resets', async () => {
    await h.admin.updateProject(h.project.project_id, { pkceRequired: { password_resets: true } });
    try {
      const bootstrap = await h.call(ENDPOINTS.bootstrap, {
        params: { public_token: h.project.public_token },
      });
      expect(expectOk(bootstrap).pkce_required_for_password_resets).toBe(true);
      const res = await start({ email_address: 'ada@acme.test' });
      expect([res.status, res.error?.error_type]).toEqual([400, 'pkce_required']);
      const { challenge } = pkcePair();
      expect(
        (await start({ email_address: 'ada@acme.test', code_challenge: challenge })).status,
      ).toBe(200);
    } finally {
      await h.admin.updateProject(h.project.project_id, {
        pkceRequired: { password_resets: false },
      });
    }
  });
});

describe('passwords/email/reset', () => {
  it('sets the new password and signs the member in for 30 minutes by default', async () => {
    const before = await member('reset@acme.test');
    const token = await resetToken('reset@acme.test');
    const res = await resetByEmail({ password_reset_token: token, password: NEW_PASSWORD });
    expect(res.status).toBe(200);
    const data = expectSession(res);
    // The password id is the member's for life: a reset replaces only the hash.
    expect(data.member.member_password_id).toBe(before.member_password_id);
    expect(data.member_authenticated).toBe(true);
    expect(data.session_token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const session = data.member_session;
    expect(Date.parse(session.expires_at) - Date.parse(session.started_at)).toBe(30 * 60_000);
    expect(session.authentication_factors).toEqual([
      expect.objectContaining({
        type: 'password',
        delivery_method: 'email',
        email_factor: expect.objectContaining({ email_address: 'reset@acme.test' }) as unknown,
      }),
    ]);
    expect((await login('reset@acme.test', NEW_PASSWORD)).status).toBe(200);
    expect((await login('reset@acme.test', PASSWORD)).status).toBe(401);
  });

  it('is single-use', async () => {
    await member('once@acme.test');
    const token = await resetToken('once@acme.test');
    const first = await resetByEmail({
      password_reset_token: token,
      password: NEW_PASSWORD,
      session_duration_minutes: 60,
    });
    expect(first.status).toBe(200);
    const second = await resetByEmail({
      password_reset_token: token,
      password: 'Some-Other-Password-99',
      session_duration_minutes: 60,
    });
    expect([second.status, second.error?.error_type]).toEqual([
      404,
      'password_reset_token_not_found',
    ]);
    expect((await login('once@acme.test', NEW_PASSWORD)).status).toBe(200);
  });

  it('expires after 30 minutes, or after reset_password_expiration_minutes', async () => {
    await member('expiry@acme.test');
    const standard = await resetToken('expiry@acme.test');
    const short = await resetToken('expiry@acme.test', { reset_password_expiration_minutes: 5 });
    expect((await lastMail('expiry@acme.test')).message.text).toContain('expires in 5 minutes');
    h.clock.advance(6 * 60_000);
    const late = await resetByEmail({ password_reset_token: short, password: NEW_PASSWORD });
    expect([late.status, late.error?.error_type]).toEqual([404, 'password_reset_token_not_found']);
    h.clock.advance(23 * 60_000);
    expect(
      (await resetByEmail({ password_reset_token: standard, password: NEW_PASSWORD })).status,
    ).toBe(200);
    const again = await resetToken('expiry@acme.test');
    h.clock.advance(31 * 60_000);
    const expired = await resetByEmail({ password_reset_token: again, password: NEW_PASSWORD });
    expect([expired.status, expired.error?.error_type]).toEqual([
      404,
      'password_reset_token_not_found',
    ]);
  });

  it("refuses another project's token, a magic-link token and a made-up one", async () => {
    const other = await h.admin.createProject({
      name: 'Other',
      redirectUrls: { reset_password: [RESET_URL] },
    });
    const otherOrg = await h.admin.createOrganization(other.project_id, {
      organization_name: 'Other Org',
      organization_slug: 'other-org',
    });
    const otherMember = await h.admin.createMember(other.project_id, otherOrg.organization_id, {
      email_address: 'foreign@acme.test',
    });
    const sent = await h.call(ENDPOINTS.passwordsResetStart, {
      publicToken: other.public_token,
      body: { organization_id: otherOrg.organization_id, email_address: 'foreign@acme.test' },
    });
    expect(sent.status).toBe(200);
    const foreignToken = (await lastMail('foreign@acme.test')).url.searchParams.get('token') ?? '';
    const foreign = await resetByEmail({
      password_reset_token: foreignToken,
      password: NEW_PASSWORD,
    });
    expect([foreign.status, foreign.error?.error_type]).toEqual([
      404,
      'password_reset_token_not_found',
    ]);
    expect(otherMember.member_password_id).toBe('');

    await h.call(ENDPOINTS.magicLinksLoginOrSignup, {
      body: { organization_id: h.org.organization_id, email_address: 'ada@acme.test' },
    });
    const magic = await resetByEmail({
      password_reset_token: await h.lastToken('ada@acme.test'),
      password: NEW_PASSWORD,
    });
    expect(magic.error?.error_type).toBe('password_reset_token_not_found');
    const madeUp = await resetByEmail({
      password_reset_token: randomBytes(32).toString('base64url'),
      password: NEW_PASSWORD,
    });
    expect(madeUp.error?.error_type).toBe('password_reset_token_not_found');
    // Untyped: the body lacks the token.
    const missing = await h.sdk('/b2b/passwords/email/reset', { body: { password: NEW_PASSWORD } });
    expect([missing.status, missing.error?.body?.[0]?.dataPath]).toEqual([
      400,
      '.password_reset_token',
    ]);
  });

  it('is void once a newer link, or any other way, has set a password', async () => {
    await member('twice@acme.test');
    const older = await resetToken('twice@acme.test');
    const newer = await resetToken('twice@acme.test');
    const used = await resetByEmail({ password_reset_token: newer, password: NEW_PASSWORD });
    expect(used.status).toBe(200);
    const stale = await resetByEmail({
      password_reset_token: older,
      password: 'Some-Other-Password-99',
    });
    expect([stale.status, stale.error?.error_type]).toEqual([
      404,
      'password_reset_token_not_found',
    ]);
    expect((await login('twice@acme.test', NEW_PASSWORD)).status).toBe(200);

    const other = await member('others@acme.test');
    const tryLink = async (token: string) => {
      const res = await resetByEmail({
        password_reset_token: token,
        password: 'Late-Link-Pass-31',
      });
      return [res.status, res.error?.error_type];
    };
    const gone = [404, 'password_reset_token_not_found'];
    // Set by the project.
    const beforeAdmin = await resetToken('others@acme.test');
    await h.admin.setMemberPassword(h.project.project_id, other.member_id, {
      password: NEW_PASSWORD,
    });
    expect(await tryLink(beforeAdmin)).toEqual(gone);
    // Changed with the current password.
    const beforeChange = await resetToken('others@acme.test');
    const changed = await h.call(ENDPOINTS.passwordsResetExisting, {
      body: {
        organization_id: h.org.organization_id,
        email_address: 'others@acme.test',
        existing_password: NEW_PASSWORD,
        new_password: 'Amber-Meadow-Signal-58',
      },
    });
    expect(changed.status).toBe(200);
    expect(await tryLink(beforeChange)).toEqual(gone);
    // Set with a session.
    const beforeSession = await resetToken('others@acme.test');
    const session = await h.login('others@acme.test');
    const bySession = await h.call(ENDPOINTS.passwordsResetSession, {
      body: { password: 'Cobalt-Prairie-Lantern-64' },
      token: session.session_token,
    });
    expect(bySession.status).toBe(200);
    expect(await tryLink(beforeSession)).toEqual(gone);
    // A link asked for after the change works.
    expect((await tryLink(await resetToken('others@acme.test')))[0]).toBe(200);
  });

  it('binds the link to the code_challenge: a mismatch leaves it usable', async () => {
    await member('pkce@acme.test');
    const { verifier, challenge } = pkcePair();
    const token = await resetToken('pkce@acme.test', { code_challenge: challenge });
    const none = await resetByEmail({ password_reset_token: token, password: NEW_PASSWORD });
    expect([none.status, none.error?.error_type]).toEqual([400, 'pkce_mismatch']);
    expect(none.error?.error_message.toLowerCase()).toContain('pkce');
    const wrong = await resetByEmail({
      password_reset_token: token,
      password: NEW_PASSWORD,
      code_verifier: pkcePair().verifier,
    });
    expect(wrong.error?.error_type).toBe('pkce_mismatch');
    const right = await resetByEmail({
      password_reset_token: token,
      password: NEW_PASSWORD,
      code_verifier: verifier,
    });
    expect(right.status).toBe(200);
    // A link issued without a challenge ignores any verifier.
    const plain = await resetToken('pkce@acme.test');
    const ignored = await resetByEmail({
      password_reset_token: plain,
      password: 'Another-Velvet-Harbor-8',
      code_verifier: verifier,
    });
    expect(ignored.status).toBe(200);
  });

  it('refuses weak and breached passwords without spending the link', async () => {
    await member('weak@acme.test');
    const token = await resetToken('weak@acme.test');
    const weak = await resetByEmail({ password_reset_token: token, password: 'abcabc' });
    expect([weak.status, weak.error?.error_type]).toEqual([400, 'weak_password']);
    expect(weak.error?.error_message).toMatch(/too easy to guess/);
    const breached = await resetByEmail({ password_reset_token: token, password: 'iloveyou' });
    expect(breached.error?.error_type).toBe('weak_password');
    expect(breached.error?.error_message).toBe(
      'This password may have been used on a different site that experienced a security issue. Please choose another password.',
    );
    const ok = await resetByEmail({ password_reset_token: token, password: NEW_PASSWORD });
    expect(ok.status).toBe(200);
  });

  it('activates an invited member, lifts the password throttle, and returns variant B when MFA is required', async () => {
    const strict = await h.admin.createOrganization(h.project.project_id, {
      organization_name: 'Strict',
      organization_slug: 'strict',
      mfa_policy: 'REQUIRED_FOR_ALL',
    });
    const invited = await h.admin.createMember(h.project.project_id, strict.organization_id, {
      email_address: 'invitee@elsewhere.example',
      status: 'invited',
    });
    const sent = await start({
      organization_id: strict.organization_id,
      email_address: 'invitee@elsewhere.example',
    });
    expect(sent.status).toBe(200);
    const token = (await lastMail('invitee@elsewhere.example')).url.searchParams.get('token') ?? '';
    const res = await resetByEmail({ password_reset_token: token, password: NEW_PASSWORD });
    expect(res.status).toBe(200);
    const data = expectOk(res);
    expect(data.member_authenticated).toBe(false);
    expect(data.intermediate_session_token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(data.member.status).toBe('active');
    expect(data.member.email_address_verified).toBe(true);
    expect(data.member.member_password_id).toMatch(/^member-password-test-/);
    expect(data.member_id).toBe(invited.member_id);

    await member('unlock@acme.test');
    for (let i = 0; i < 5; i += 1) await login('unlock@acme.test', 'wrong-password');
    expect((await login('unlock@acme.test', PASSWORD)).error?.error_type).toBe('too_many_requests');
    const unlockToken = await resetToken('unlock@acme.test');
    expect(
      (await resetByEmail({ password_reset_token: unlockToken, password: NEW_PASSWORD })).status,
    ).toBe(200);
    expect((await login('unlock@acme.test', NEW_PASSWORD)).status).toBe(200);
  });
});

describe('passwords/email/reset/check', () => {
  const check = (body: RequestOf<typeof ENDPOINTS.passwordsResetCheck>) =>
    h.call(ENDPOINTS.passwordsResetCheck, { body });

  it('answers 200 for a live link without spending it, and 404 once it is used', async () => {
    await member('check@acme.test');
    const token = await resetToken('check@acme.test');
    expect((await check({ password_reset_token: token })).status).toBe(200);
    expect((await check({ password_reset_token: token })).status).toBe(200);

    const reset = await resetByEmail({ password_reset_token: token, password: NEW_PASSWORD });
    expect(reset.status).toBe(200);
    const used = await check({ password_reset_token: token });
    expect(used.status).toBe(404);
    expect(used.error?.error_type).toBe('password_reset_token_not_found');
  });

  it('answers 404 for a token it never issued, and pkce_mismatch for the wrong verifier', async () => {
    const unknown = await check({ password_reset_token: 'not-a-token' });
    expect(unknown.error?.error_type).toBe('password_reset_token_not_found');

    await member('check-pkce@acme.test');
    const { challenge } = pkcePair();
    const token = await resetToken('check-pkce@acme.test', { code_challenge: challenge });
    const wrong = await check({ password_reset_token: token, code_verifier: pkcePair().verifier });
    expect(wrong.error?.error_type).toBe('pkce_mismatch');
  });

  it("answers 404 for a token of another kind, and for a live link under another project's token", async () => {
    await member('check-kind@acme.test');
    await h.call(ENDPOINTS.magicLinksLoginOrSignup, {
      body: { email_address: 'check-kind@acme.test', organization_id: h.org.organization_id },
    });
    const magicLink = await h.lastToken('check-kind@acme.test');
    const wrongKind = await check({ password_reset_token: magicLink });
    expect(wrongKind.error?.error_type).toBe('password_reset_token_not_found');

    const token = await resetToken('check-kind@acme.test');
    const other = await h.admin.createProject({ name: 'Other' });
    const foreign = await h.call(ENDPOINTS.passwordsResetCheck, {
      publicToken: other.public_token,
      body: { password_reset_token: token },
    });
    expect(foreign.error?.error_type).toBe('password_reset_token_not_found');
    // Neither spent the live link.
    expect((await check({ password_reset_token: token })).status).toBe(200);
  });
});

describe('passwords/existing_password/reset', () => {
  const resetExisting = (
    body: Omit<RequestOf<typeof ENDPOINTS.passwordsResetExisting>, 'organization_id'>,
  ) =>
    h.call(ENDPOINTS.passwordsResetExisting, {
      body: {
        organization_id: h.org.organization_id,
        session_duration_minutes: 60,
        ...body,
      },
    });

  it('changes the password after checking the current one', async () => {
    await member('change@acme.test');
    const res = await resetExisting({
      email_address: 'change@acme.test',
      existing_password: PASSWORD,
      new_password: NEW_PASSWORD,
    });
    expect(res.status).toBe(200);
    expect(expectOk(res).member_authenticated).toBe(true);
    expect((await login('change@acme.test', NEW_PASSWORD)).status).toBe(200);
    expect((await login('change@acme.test', PASSWORD)).status).toBe(401);
  });

  it('refuses a wrong current password (throttled like a sign-in) and a weak new one', async () => {
    await member('careful@acme.test');
    const weak = await resetExisting({
      email_address: 'careful@acme.test',
      existing_password: PASSWORD,
      new_password: 'password1',
    });
    expect([weak.status, weak.error?.error_type]).toEqual([400, 'weak_password']);
    for (let i = 0; i < 5; i += 1) {
      const wrong = await resetExisting({
        email_address: 'careful@acme.test',
        existing_password: 'not-it',
        new_password: NEW_PASSWORD,
      });
      expect([wrong.status, wrong.error?.error_type]).toEqual([401, 'unauthorized_credentials']);
    }
    const locked = await resetExisting({
      email_address: 'careful@acme.test',
      existing_password: PASSWORD,
      new_password: NEW_PASSWORD,
    });
    expect([locked.status, locked.error?.error_type]).toEqual([429, 'too_many_requests']);
    expect(locked.headers.get('retry-after')).toBe('1');
    const unknown = await resetExisting({
      email_address: 'ghost@acme.test',
      existing_password: PASSWORD,
      new_password: NEW_PASSWORD,
    });
    expect(unknown.error?.error_type).toBe('unauthorized_credentials');
    // Untyped: the body lacks both passwords.
    const missing = await h.sdk('/b2b/passwords/existing_password/reset', {
      body: {
        organization_id: h.org.organization_id,
        session_duration_minutes: 60,
        email_address: 'careful@acme.test',
      },
    });
    expect(missing.status).toBe(400);
    expect(missing.error?.body?.map((i) => i.dataPath).sort()).toEqual([
      '.existing_password',
      '.new_password',
    ]);
  });
});

describe('passwords/session/reset', () => {
  it('needs a live session', async () => {
    const none = await h.call(ENDPOINTS.passwordsResetSession, {
      body: { password: NEW_PASSWORD },
    });
    expect([none.status, none.error?.error_type]).toEqual([401, 'unauthorized_credentials']);
    const dead = await h.call(ENDPOINTS.passwordsResetSession, {
      body: { password: NEW_PASSWORD },
      token: randomBytes(32).toString('base64url'),
    });
    expect([dead.status, dead.error?.error_type]).toEqual([404, 'session_not_found']);
  });

  it("sets the session member's password and returns F for the same session", async () => {
    await h.admin.createMember(h.project.project_id, h.org.organization_id, {
      email_address: 'linkonly@acme.test',
    });
    const session = await h.login('linkonly@acme.test');
    const weak = await h.call(ENDPOINTS.passwordsResetSession, {
      body: { password: 'qwerty123' },
      token: session.session_token,
    });
    expect([weak.status, weak.error?.error_type]).toEqual([400, 'weak_password']);
    const res = await h.call(ENDPOINTS.passwordsResetSession, {
      body: { password: NEW_PASSWORD },
      token: session.session_token,
    });
    expect(res.status).toBe(200);
    const data = expectOk(res);
    expect(data.member_authenticated).toBe(true);
    expect(data.session_token).toBe(session.session_token);
    expect(data.member_session.member_session_id).toBe(session.member_session.member_session_id);
    expect(data.member.member_password_id).toMatch(/^member-password-test-/);
    expect(data.session_jwt).not.toBe('');
    expect((await login('linkonly@acme.test', NEW_PASSWORD)).status).toBe(200);
  });
});
