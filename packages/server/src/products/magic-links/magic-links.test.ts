// E-mail magic links (§7.1, §8, §10): sends, redirect choice, redemption, PKCE, single use, races.
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

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h.close();
});

/** A send body; the seeded organization unless told. */
type SendBody = Omit<RequestOf<typeof ENDPOINTS.magicLinksLoginOrSignup>, 'organization_id'> & {
  organization_id?: string;
};
const send = (body: SendBody, options: CallRequestOptions = {}) =>
  h.call(ENDPOINTS.magicLinksLoginOrSignup, {
    body: { organization_id: h.org.organization_id, ...body },
    ...options,
  });
const authenticate = (
  body: RequestOf<typeof ENDPOINTS.magicLinksAuthenticate>,
  options: CallRequestOptions = {},
) =>
  h.call(ENDPOINTS.magicLinksAuthenticate, {
    body: { session_duration_minutes: 60, ...body },
    ...options,
  });
const lastLink = async (to: string) => {
  const message = (await h.admin.listOutbox()).find((m) => m.to === to);
  if (!message) throw new Error(`no mail to ${to}`);
  return { message, url: new URL(message.links[0] ?? '') };
};

function pkcePair() {
  const verifier = randomBytes(32).toString('hex');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

describe('login_or_signup', () => {
  it('sends an active member a login link to the default login URL', async () => {
    const res = await send({ email_address: 'ada@acme.test' });
    expect(res.status).toBe(200);
    expect(Object.keys(expectOk(res)).sort()).toEqual(['request_id', 'status_code']);
    const { message, url } = await lastLink('ada@acme.test');
    expect(url.origin + url.pathname).toBe('http://localhost:3000/authenticate');
    expect(url.searchParams.get('stytch_token_type')).toBe('multi_tenant_magic_links');
    expect(url.searchParams.get('token')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(message.subject).toBe('Your login link for Acme');
    expect(message.text).toContain(url.toString());
    expect(message.html).toContain('href="' + url.toString().replaceAll('&', '&amp;') + '"');
  });

  it('sends a signup link to the given signup URL for JIT, invited and pending members', async () => {
    await h.admin.createMember(h.project.project_id, h.org.organization_id, {
      email_address: 'inv@elsewhere.example',
      status: 'invited',
    });
    await h.admin.createMember(h.project.project_id, h.org.organization_id, {
      email_address: 'pen@elsewhere.example',
      status: 'pending',
    });
    for (const email of ['new@acme.test', 'inv@elsewhere.example', 'pen@elsewhere.example']) {
      const res = await send({
        email_address: email,
        login_redirect_url: 'http://localhost:3000/login?x=1',
        signup_redirect_url: 'http://localhost:3000/signup?x=1#frag',
      });
      expect(res.status).toBe(200);
      const { url, message } = await lastLink(email);
      expect(url.pathname).toBe('/signup');
      expect(url.searchParams.get('x')).toBe('1');
      expect(url.hash).toBe('#frag');
      expect(message.subject).toBe('Finish signing up for Acme');
    }
  });

  it('carries the language the e-mail was written in, and none when the call named none', async () => {
    expect((await send({ email_address: 'ada@acme.test', locale: 'es' })).status).toBe(200);
    const spanish = await lastLink('ada@acme.test');
    expect(spanish.message.subject).toBe('Tu enlace para iniciar sesión en Acme');
    expect(spanish.url.searchParams.get('locale')).toBe('es');
    expect(spanish.url.searchParams.get('stytch_token_type')).toBe('multi_tenant_magic_links');

    const discovery = await h.call(ENDPOINTS.magicLinksDiscoverySend, {
      body: { email_address: 'lang@acme.test', locale: 'es-MX' },
    });
    expect(discovery.status).toBe(200);
    expect((await lastLink('lang@acme.test')).url.searchParams.get('locale')).toBe('es-MX');

    expect((await send({ email_address: 'ada@acme.test' })).status).toBe(200);
    expect((await lastLink('ada@acme.test')).url.searchParams.has('locale')).toBe(false);
  });

  it('answers a known member and an unknown address the organization admits alike', async () => {
    const known = await send({ email_address: 'ada@acme.test' });
    const unknown = await send({ email_address: 'stranger@acme.test' });
    expect([known.status, unknown.status]).toEqual([200, 200]);
    expect(Object.keys(expectOk(known))).toEqual(Object.keys(expectOk(unknown)));
    expect(known.headers.get('content-length')).toBe(unknown.headers.get('content-length'));
    // Both get an e-mail; only the link inside differs.
    expect((await lastLink('stranger@acme.test')).url.searchParams.get('token')).toBeTruthy();
  });

  it('answers the JIT policy errors for non-members', async () => {
    const restricted = await send({ email_address: 'eve@other.example' });
    expect(restricted.status).toBe(403);
    expect(restricted.error?.error_type).toBe('invalid_email_for_jit_provisioning');
    const closed = await h.admin.createOrganization(h.project.project_id, {
      organization_name: 'Closed',
      organization_slug: 'closed',
    });
    const res = await send({
      email_address: 'eve@acme.test',
      organization_id: closed.organization_id,
    });
    expect(res.status).toBe(403);
    expect(res.error?.error_type).toBe('email_jit_provisioning_not_allowed');
  });

  it('refuses bad input and unlisted redirect URLs', async () => {
    const cases: [SendBody, number, string][] = [
      [{ email_address: 'not-an-email' }, 400, 'invalid_email'],
      [
        { email_address: 'ada@acme.test', organization_id: 'organization-test-nope' },
        404,
        'organization_not_found',
      ],
      [
        { email_address: 'ada@acme.test', login_redirect_url: 'https://evil.example/cb' },
        400,
        'invalid_redirect_url',
      ],
      [
        { email_address: 'ada@acme.test', signup_redirect_url: 'not a url' },
        400,
        'invalid_redirect_url',
      ],
      [
        { email_address: 'ada@acme.test', login_redirect_url: 'javascript:alert(1)' },
        400,
        'invalid_redirect_url',
      ],
      [{ email_address: 'ada@acme.test', pkce_code_challenge: 'short' }, 400, 'invalid_request'],
    ];
    for (const [body, status, type] of cases) {
      const res = await send(body);
      expect([res.status, res.error?.error_type]).toEqual([status, type]);
    }
    // Untyped: a number where the type wants a string.
    const mistyped = await h.sdk('/b2b/magic_links/email/login_or_signup', {
      body: { email_address: 42, organization_id: h.org.organization_id },
    });
    expect([mistyped.status, mistyped.error?.error_type]).toEqual([400, 'invalid_request']);
  });

  it('rate-limits sends per address and per IP with 429 and Retry-After', async () => {
    const limited = await startHarness({
      config: { rateLimits: { sendsPerEmailPerHour: 3, sendsPerIpPerHour: 5 } },
    });
    try {
      const sendTo = (email_address: string) =>
        limited.call(ENDPOINTS.magicLinksLoginOrSignup, {
          body: { email_address, organization_id: limited.org.organization_id },
        });
      const perEmail = [];
      for (let i = 0; i < 4; i += 1) perEmail.push((await sendTo('ada@acme.test')).status);
      expect(perEmail).toEqual([200, 200, 200, 429]);
      // The fifth send from this IP is still allowed (the 429 above counted too), the sixth is not.
      expect((await sendTo('bob@acme.test')).status).toBe(200);
      const res = await sendTo('carol@acme.test');
      expect(res.status).toBe(429);
      expect(res.error?.error_type).toBe('too_many_requests');
      expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
      expect((await limited.admin.listOutbox()).length).toBe(4);
      limited.clock.advance(60 * 60_000);
      expect((await sendTo('carol@acme.test')).status).toBe(200);
    } finally {
      await limited.close();
    }
  });
});

describe('authenticate', () => {
  it('logs an active member in with result F and method_id', async () => {
    await send({ email_address: 'ada@acme.test' });
    const token = await h.lastToken('ada@acme.test');
    const res = await authenticate({ magic_links_token: token, session_duration_minutes: 30 });
    expect(res.status).toBe(200);
    const data = expectSession(res);
    expect(data).toMatchObject({
      member_id: h.member.member_id,
      member_authenticated: true,
      intermediate_session_token: '',
      mfa_required: null,
      status_code: 200,
    });
    expect(data.method_id).toMatch(/^member-email-test-/);
    expect(data.session_token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(data.session_jwt.split('.')).toHaveLength(3);
    expect(data.member_session.member_session_id).toMatch(/^member-session-test-/);
    expect(data.member_session.roles).toEqual(['member']);
    expect(data.member_session.authentication_factors[0]).toMatchObject({
      type: 'magic_link',
      delivery_method: 'email',
      sequence_order: 'PRIMARY',
    });
    const minutes =
      (Date.parse(data.member_session.expires_at) - Date.parse(data.member_session.started_at)) /
      60_000;
    expect(minutes).toBe(30);
    expect(data.organization.organization_id).toBe(h.org.organization_id);
  });

  it('creates a JIT member and activates an invited one', async () => {
    await send({ email_address: 'jit@acme.test' });
    const jit = await authenticate({ magic_links_token: await h.lastToken('jit@acme.test') });
    expect(jit.status).toBe(200);
    expect(expectOk(jit).member).toMatchObject({
      email_address: 'jit@acme.test',
      status: 'active',
      email_address_verified: true,
    });
    await h.admin.createMember(h.project.project_id, h.org.organization_id, {
      email_address: 'invitee@partner.example',
      status: 'invited',
    });
    await send({ email_address: 'invitee@partner.example' });
    const invited = await authenticate({
      magic_links_token: await h.lastToken('invitee@partner.example'),
    });
    expect(expectOk(invited).member.status).toBe('active');
  });

  it('refuses used, expired, unknown and foreign tokens with 404 magic_link_not_found', async () => {
    await send({ email_address: 'ada@acme.test' });
    const token = await h.lastToken('ada@acme.test');
    expect((await authenticate({ magic_links_token: token })).status).toBe(200);
    const reused = await authenticate({ magic_links_token: token });
    expect([reused.status, reused.error?.error_type]).toEqual([404, 'magic_link_not_found']);

    await send({ email_address: 'ada@acme.test' });
    const stale = await h.lastToken('ada@acme.test');
    h.clock.advance(61 * 60_000);
    const expired = await authenticate({ magic_links_token: stale });
    expect([expired.status, expired.error?.error_type]).toEqual([404, 'magic_link_not_found']);

    const unknown = await authenticate({ magic_links_token: 'x'.repeat(43) });
    expect(unknown.status).toBe(404);

    await send({ email_address: 'ada@acme.test' });
    const fresh = await h.lastToken('ada@acme.test');
    const other = await h.admin.createProject({ name: 'Other' });
    const foreign = await authenticate(
      { magic_links_token: fresh },
      { publicToken: other.public_token },
    );
    expect([foreign.status, foreign.error?.error_type]).toEqual([404, 'magic_link_not_found']);
    // The foreign attempt did not consume it.
    expect((await authenticate({ magic_links_token: fresh })).status).toBe(200);
  });

  it('validates the duration bounds', async () => {
    // Untyped: 'sixty' is no number, which the type would refuse.
    for (const session_duration_minutes of [4, 527_041, 'sixty', 1.5]) {
      const res = await h.sdk('/b2b/magic_links/authenticate', {
        body: { magic_links_token: 'x'.repeat(43), session_duration_minutes },
      });
      expect(res.status).toBe(400);
      expect(res.error?.body?.[0]?.dataPath).toBe('.session_duration_minutes');
    }
  });

  it('enforces PKCE: mismatch does not consume, the right verifier succeeds', async () => {
    const { verifier, challenge } = pkcePair();
    await send({ email_address: 'ada@acme.test', pkce_code_challenge: challenge });
    const token = await h.lastToken('ada@acme.test');
    const missing = await authenticate({ magic_links_token: token });
    expect([missing.status, missing.error?.error_type]).toEqual([400, 'pkce_mismatch']);
    expect(missing.error?.error_message).toContain('pkce');
    const wrong = await authenticate({
      magic_links_token: token,
      pkce_code_verifier: pkcePair().verifier,
    });
    expect(wrong.error?.error_type).toBe('pkce_mismatch');
    const right = await authenticate({ magic_links_token: token, pkce_code_verifier: verifier });
    expect(right.status).toBe(200);
  });

  it('ignores a verifier for a token issued without a challenge', async () => {
    await send({ email_address: 'ada@acme.test' });
    const res = await authenticate({
      magic_links_token: await h.lastToken('ada@acme.test'),
      pkce_code_verifier: pkcePair().verifier,
    });
    expect(res.status).toBe(200);
  });

  it('requires a challenge when the project requires PKCE', async () => {
    const strict = await h.admin.createProject({
      name: 'Strict',
      pkceRequired: { email_magic_links: true },
    });
    const org = await h.admin.createOrganization(strict.project_id, {
      organization_name: 'S',
      organization_slug: 'strict',
      email_allowed_domains: ['acme.test'],
    });
    const res = await send(
      {
        email_address: 'ada@acme.test',
        organization_id: org.organization_id,
        login_redirect_url: 'http://localhost:3000/a',
        signup_redirect_url: 'http://localhost:3000/a',
      },
      { publicToken: strict.public_token },
    );
    expect([res.status, res.error?.error_type]).toEqual([400, 'pkce_required']);
  });

  it('adds the factor to a live session of the same member instead of rotating it', async () => {
    const first = await h.login();
    await send({ email_address: 'ada@acme.test' });
    const res = await authenticate(
      { magic_links_token: await h.lastToken('ada@acme.test') },
      { token: first.session_token },
    );
    expect(res.status).toBe(200);
    expect(expectOk(res).session_token).toBe(first.session_token);
    expect(expectSession(res).member_session.member_session_id).toBe(
      first.member_session.member_session_id,
    );
  });

  it('returns variant B when the organization requires MFA', async () => {
    const mfa = await h.admin.createOrganization(h.project.project_id, {
      organization_name: 'Vault',
      organization_slug: 'vault',
      mfa_policy: 'REQUIRED_FOR_ALL',
    });
    await h.admin.createMember(h.project.project_id, mfa.organization_id, {
      email_address: 'ada@acme.test',
    });
    await send({ email_address: 'ada@acme.test', organization_id: mfa.organization_id });
    const res = await authenticate({ magic_links_token: await h.lastToken('ada@acme.test') });
    expect(res.status).toBe(200);
    expect(expectOk(res)).toMatchObject({
      member_session: null,
      session_token: '',
      session_jwt: '',
      member_authenticated: false,
      mfa_required: { member_options: null, secondary_auth_initiated: null },
    });
    expect(expectOk(res).intermediate_session_token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(expectOk(res).member.email_address).toBe('ada@acme.test');
  });

  it('gives exactly one success to 20 concurrent redemptions of one link', async () => {
    await send({ email_address: 'ada@acme.test' });
    const token = await h.lastToken('ada@acme.test');
    const results = await Promise.all(
      Array.from({ length: 20 }, () => authenticate({ magic_links_token: token })),
    );
    const statuses = results.map((r) => r.status).sort();
    expect(statuses.filter((s) => s === 200)).toHaveLength(1);
    expect(statuses.filter((s) => s === 404)).toHaveLength(19);
  });
});

describe('discovery send', () => {
  it('answers the same ack for known and unknown addresses, each getting a discovery link', async () => {
    const known = await h.call(ENDPOINTS.magicLinksDiscoverySend, {
      body: { email_address: 'ada@acme.test' },
    });
    const unknown = await h.call(ENDPOINTS.magicLinksDiscoverySend, {
      body: { email_address: 'ghost@nowhere.example' },
    });
    expect([known.status, unknown.status]).toEqual([200, 200]);
    expect(Object.keys(expectOk(known)).sort()).toEqual(Object.keys(expectOk(unknown)).sort());
    for (const to of ['ada@acme.test', 'ghost@nowhere.example']) {
      const { url } = await lastLink(to);
      expect(url.pathname).toBe('/discovery');
      expect(url.searchParams.get('stytch_token_type')).toBe('discovery');
    }
  });

  it('refuses an unlisted discovery URL and a bad address', async () => {
    const url = await h.call(ENDPOINTS.magicLinksDiscoverySend, {
      body: { email_address: 'ada@acme.test', discovery_redirect_url: 'https://evil.example' },
    });
    expect(url.error?.error_type).toBe('invalid_redirect_url');
    const email = await h.call(ENDPOINTS.magicLinksDiscoverySend, {
      body: { email_address: 'a@b' },
    });
    expect(email.error?.error_type).toBe('invalid_email');
  });
});
