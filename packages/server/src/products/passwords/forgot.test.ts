// "Having trouble signing in?" for people without a password: member search, a login link to the reset page, then reset by session.
import { ENDPOINTS } from '@gatehouse/protocol/endpoints';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectOk, startHarness, type Harness } from '../../test/harness.js';

const RESET_URL = 'http://localhost:3000/reset';
const NEW_PASSWORD = 'Velvet-Harbor-Compass-77';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h.close();
});

const search = (email: string, organizationId = h.org.organization_id) =>
  h.call(ENDPOINTS.membersSearch, {
    body: { email_address: email, organization_id: organizationId },
  });

/** What the widget does for someone without a password: a login link whose both URLs are the reset page. */
const sendResetLink = (email: string, organizationId = h.org.organization_id) =>
  h.call(ENDPOINTS.magicLinksLoginOrSignup, {
    body: {
      email_address: email,
      organization_id: organizationId,
      login_redirect_url: RESET_URL,
      signup_redirect_url: RESET_URL,
    },
  });

/** Follows the link in the newest e-mail, then sets the password with the new session. */
async function followLinkAndSetPassword(email: string) {
  const message = (await h.admin.listOutbox()).find((m) => m.to === email);
  const url = new URL(message?.links[0] ?? '');
  expect(url.origin + url.pathname).toBe(RESET_URL);
  expect(url.searchParams.get('stytch_token_type')).toBe('multi_tenant_magic_links');
  const auth = await h.call(ENDPOINTS.magicLinksAuthenticate, {
    body: {
      magic_links_token: url.searchParams.get('token') ?? '',
      session_duration_minutes: 60,
    },
  });
  expect(auth.status).toBe(200);
  const reset = await h.call(ENDPOINTS.passwordsResetSession, {
    body: { password: NEW_PASSWORD },
    token: expectOk(auth).session_token,
  });
  expect(reset.status).toBe(200);
  return expectOk(reset);
}

const login = (email: string, organizationId = h.org.organization_id) =>
  h.call(ENDPOINTS.passwordsAuthenticate, {
    body: { organization_id: organizationId, email_address: email, password: NEW_PASSWORD },
  });

describe('members/search', () => {
  it('tells the widget whether the member has a password', async () => {
    const before = await search('ada@acme.test');
    expect(expectOk(before).member).toEqual({
      status: 'active',
      name: 'Ada',
      member_password_id: '',
    });
    await h.admin.setMemberPassword(h.project.project_id, h.member.member_id, {
      password: 'Quartz-Lantern-Orbit-42',
    });
    const after = await search('ada@acme.test');
    expect(expectOk(after).member?.member_password_id).toMatch(/^member-password-test-/);
  });
});

describe('forgot password without a password', () => {
  it('a member without a password gets a login link, then sets a password', async () => {
    await h.admin.createMember(h.project.project_id, h.org.organization_id, {
      email_address: 'nopass@acme.test',
    });
    expect((await sendResetLink('nopass@acme.test')).status).toBe(200);
    const data = await followLinkAndSetPassword('nopass@acme.test');
    expect(data.member.member_password_id).toMatch(/^member-password-test-/);
    expect((await login('nopass@acme.test')).status).toBe(200);
  });

  it('a newcomer whose domain the organization admits (RESTRICTED) joins and sets a password', async () => {
    expect(expectOk(await search('newcomer@acme.test')).member).toBeNull();
    expect((await sendResetLink('newcomer@acme.test')).status).toBe(200);
    const data = await followLinkAndSetPassword('newcomer@acme.test');
    expect(data.member.status).toBe('active');
    expect((await login('newcomer@acme.test')).status).toBe(200);
  });

  it('RESTRICTED with another domain, and NOT_ALLOWED, get the errors the widget shows as no access', async () => {
    const outsider = await sendResetLink('outsider@elsewhere.example');
    expect([outsider.status, outsider.error?.error_type]).toEqual([
      403,
      'invalid_email_for_jit_provisioning',
    ]);
    const closed = await h.admin.createOrganization(h.project.project_id, {
      organization_name: 'Closed',
      organization_slug: 'closed',
      email_jit_provisioning: 'NOT_ALLOWED',
    });
    const refused = await sendResetLink('someone@acme.test', closed.organization_id);
    expect([refused.status, refused.error?.error_type]).toEqual([
      403,
      'email_jit_provisioning_not_allowed',
    ]);
    // A reset e-mail is only for members: the widget never asks for one here.
    const start = await h.call(ENDPOINTS.passwordsResetStart, {
      body: {
        organization_id: closed.organization_id,
        email_address: 'someone@acme.test',
        reset_password_redirect_url: RESET_URL,
      },
    });
    expect([start.status, start.error?.error_type]).toEqual([404, 'member_not_found']);
  });
});
