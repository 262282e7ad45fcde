// SAML SSO end to end over HTTP against a real SAML IdP (samlify) started by the test: start,
// ACS, the sso token, and every way a response must be refused.
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENDPOINTS } from '@gatehouse/protocol/endpoints';
import { startSamlIdp, type SamlIdp } from '@gatehouse/testing/idp';
import { expectError, expectOk, startHarness, type Harness } from '../../test/harness.js';
import {
  TestBrowser,
  addSamlConnection,
  authnRequestId,
  postToAcs as postFromElsewhere,
  ssoTokenOf,
  startUrl,
  type TestConnection,
} from '../../test/sso.js';

// The browser of these tests: sign-ins return to the browser that started them.
const browser = new TestBrowser();
const navigate = (url: string) => browser.navigate(url);
const postToAcs = (acsUrl: string, samlResponse: string, relayState = '') =>
  browser.postToAcs(acsUrl, samlResponse, relayState);

let h: Harness;
let idp: SamlIdp;
let conn: TestConnection;
/** A connection that accepts IdP-initiated responses. */
let open: TestConnection;

beforeAll(async () => {
  [h, idp] = await Promise.all([startHarness({ listen: true }), startSamlIdp()]);
  conn = await addSamlConnection(h, {
    idpEntityId: idp.entityId,
    idpSsoUrl: idp.ssoUrl,
    certificates: [idp.certificate],
    groupRoles: [{ group: 'engineering-admins', role_id: 'admin' }],
  });
  open = await addSamlConnection(h, {
    idpEntityId: idp.entityId,
    idpSsoUrl: idp.ssoUrl,
    certificates: [idp.certificate],
    allowIdpInitiated: true,
    displayName: 'Unprompted',
  });
});

afterAll(async () => {
  await Promise.all([h?.close(), idp?.close()]);
});

const pkceChallengeOf = (verifier: string) =>
  createHash('sha256').update(verifier).digest('base64url');

const sp = (c: TestConnection) => ({ entityId: c.entityId, acsUrl: c.acsUrl });

/** Starts a sign-in at our server and returns the AuthnRequest ID the IdP would answer. */
async function start(c: TestConnection, extra: Record<string, string> = {}): Promise<string> {
  const res = await navigate(startUrl(h, c.connectionId, extra));
  expect(res.status).toBe(302);
  expect(res.location?.startsWith(idp.ssoUrl)).toBe(true);
  return authnRequestId(res.location ?? '');
}

function authenticate(token: string, extra: { pkce_code_verifier?: string } = {}) {
  return h.call(ENDPOINTS.ssoAuthenticate, {
    body: { sso_token: token, session_duration_minutes: 60, ...extra },
  });
}

async function memberCount(email: string): Promise<number> {
  const rows = await h.db.selectFrom('members').select('id').where('email', '=', email).execute();
  return rows.length;
}

/** A refusal at the ACS: an HTML page naming the error type, no redirect, no token. */
function expectRefusal(
  res: Awaited<ReturnType<typeof navigate>>,
  status: number,
  errorType: string,
): void {
  expect(res.status).toBe(status);
  expect(res.location).toBeNull();
  expect(res.type).toContain('text/html');
  expect(res.text).toContain(`<code id="error-type">${errorType}</code>`);
}

describe('SP-initiated sign-in', () => {
  it('JIT-provisions a new member with a role from a group, then signs them in', async () => {
    const requestId = await start(conn, { signup_redirect_url: 'http://localhost:3000/signup' });
    const response = await idp.createResponse({
      sp: sp(conn),
      email: 'grace@acme.test',
      firstName: 'Grace',
      lastName: 'Hopper',
      groups: ['engineering-admins', 'everyone'],
      inResponseTo: requestId,
    });
    const acs = await postToAcs(conn.acsUrl, response);
    expect(acs.status).toBe(302);
    const back = new URL(acs.location ?? '');
    expect(back.origin + back.pathname).toBe('http://localhost:3000/signup');

    const result = expectOk(await authenticate(ssoTokenOf(acs.location)));
    expect(result.member_authenticated).toBe(true);
    expect(result.member.email_address).toBe('grace@acme.test');
    expect(result.member.name).toBe('Grace Hopper');
    expect(result.member.roles).toEqual(
      expect.arrayContaining([
        {
          role_id: 'admin',
          sources: [
            { type: 'sso_connection_group', details: { connection_id: conn.connectionId } },
          ],
        },
      ]),
    );
    // The browser API's member carries the registration, the assertion's attributes in it.
    const [registration, ...others] = result.member.sso_registrations;
    expect(others).toEqual([]);
    expect(registration).toMatchObject({
      connection_id: conn.connectionId,
      external_id: expect.stringMatching(/.+/) as string,
    });
    expect(Object.values(registration?.sso_attributes ?? {})).toEqual(
      expect.arrayContaining([['engineering-admins', 'everyone']]),
    );
    expect(result.member_session?.authentication_factors).toEqual([
      expect.objectContaining({
        type: 'sso',
        delivery_method: 'sso_saml',
        sequence_order: 'PRIMARY',
      }),
    ]);
  });

  it('signs an existing member in and returns to the login URL', async () => {
    const requestId = await start(conn);
    const response = await idp.createResponse({
      sp: sp(conn),
      email: 'ada@acme.test',
      inResponseTo: requestId,
    });
    const acs = await postToAcs(conn.acsUrl, response);
    expect(acs.status).toBe(302);
    expect(acs.location?.startsWith('http://localhost:3000/authenticate?')).toBe(true);
    const result = expectOk(await authenticate(ssoTokenOf(acs.location)));
    expect(result.member.member_id).toBe(h.member.member_id);
    // Losing a group at the IdP loses its role at the next sign-in.
    expect(result.member.roles.map((r) => r.role_id)).toEqual(['member']);
  });

  it('redeems an sso token once only', async () => {
    const requestId = await start(conn);
    const acs = await postToAcs(
      conn.acsUrl,
      await idp.createResponse({ sp: sp(conn), email: 'ada@acme.test', inResponseTo: requestId }),
    );
    const token = ssoTokenOf(acs.location);
    expectOk(await authenticate(token));
    expect(expectError(await authenticate(token)).error_type).toBe('sso_token_not_found');
  });

  it('binds the token to the PKCE challenge of the start, without spending it on a mismatch', async () => {
    const verifier = 'a'.repeat(40);
    const requestId = await start(conn, { pkce_code_challenge: pkceChallengeOf(verifier) });
    const acs = await postToAcs(
      conn.acsUrl,
      await idp.createResponse({ sp: sp(conn), email: 'ada@acme.test', inResponseTo: requestId }),
    );
    const token = ssoTokenOf(acs.location);
    expect(expectError(await authenticate(token)).error_type).toBe('pkce_mismatch');
    expect(
      expectError(await authenticate(token, { pkce_code_verifier: 'b'.repeat(40) })).error_type,
    ).toBe('pkce_mismatch');
    expectOk(await authenticate(token, { pkce_code_verifier: verifier }));
  });

  it('applies the organization MFA policy after SSO', async () => {
    const mfaOrg = await h.admin.createOrganization(h.project.project_id, {
      organization_name: 'Strict',
      organization_slug: 'strict-sso',
      mfa_policy: 'REQUIRED_FOR_ALL',
    });
    const strict = await addSamlConnection(h, {
      organizationId: mfaOrg.organization_id,
      idpEntityId: idp.entityId,
      idpSsoUrl: idp.ssoUrl,
      certificates: [idp.certificate],
    });
    const requestId = await start(strict);
    const acs = await postToAcs(
      strict.acsUrl,
      await idp.createResponse({
        sp: sp(strict),
        email: 'mfa@strict.test',
        inResponseTo: requestId,
      }),
    );
    const result = expectOk(await authenticate(ssoTokenOf(acs.location)));
    expect(result.member_authenticated).toBe(false);
    expect(result.member_session).toBeNull();
    expect(result.intermediate_session_token).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });
});

describe('refused responses', () => {
  it('refuses a response whose signed content was changed', async () => {
    const requestId = await start(conn);
    const response = await idp.createResponse({
      sp: sp(conn),
      email: 'tamper@acme.test',
      inResponseTo: requestId,
      tamper: true,
    });
    expectRefusal(await postToAcs(conn.acsUrl, response), 400, 'invalid_saml_response');
    expect(await memberCount('tamper@acme.test')).toBe(0);
  });

  it('refuses an unsigned response', async () => {
    const requestId = await start(conn);
    const response = await idp.createResponse({
      sp: sp(conn),
      email: 'unsigned@acme.test',
      inResponseTo: requestId,
      signWith: 'none',
    });
    expectRefusal(await postToAcs(conn.acsUrl, response), 400, 'invalid_saml_response');
    expect(await memberCount('unsigned@acme.test')).toBe(0);
  });

  it("refuses a response signed by a certificate that is not the connection's", async () => {
    const requestId = await start(conn);
    const response = await idp.createResponse({
      sp: sp(conn),
      email: 'forged@acme.test',
      inResponseTo: requestId,
      signWith: 'other',
    });
    expectRefusal(await postToAcs(conn.acsUrl, response), 400, 'invalid_saml_response');
  });

  it('refuses the wrong audience', async () => {
    const requestId = await start(conn);
    const response = await idp.createResponse({
      sp: sp(conn),
      email: 'ada@acme.test',
      inResponseTo: requestId,
      audience: 'https://another-app.example/saml',
    });
    expectRefusal(await postToAcs(conn.acsUrl, response), 400, 'invalid_saml_response');
  });

  it('refuses an expired assertion, and accepts one within the 60 s skew', async () => {
    const late = await idp.createResponse({
      sp: sp(conn),
      email: 'ada@acme.test',
      inResponseTo: await start(conn),
      notOnOrAfter: new Date(Date.now() - 2 * 60_000),
    });
    expectRefusal(await postToAcs(conn.acsUrl, late), 400, 'invalid_saml_response');
    const justInSkew = await idp.createResponse({
      sp: sp(conn),
      email: 'ada@acme.test',
      inResponseTo: await start(conn),
      notOnOrAfter: new Date(Date.now() - 20_000),
    });
    expect((await postToAcs(conn.acsUrl, justInSkew)).status).toBe(302);
  });

  it('refuses an assertion that is not yet valid', async () => {
    const early = await idp.createResponse({
      sp: sp(conn),
      email: 'ada@acme.test',
      inResponseTo: await start(conn),
      notBefore: new Date(Date.now() + 5 * 60_000),
    });
    expectRefusal(await postToAcs(conn.acsUrl, early), 400, 'invalid_saml_response');
  });

  it('refuses a response from another issuer', async () => {
    const response = await idp.createResponse({
      sp: sp(conn),
      email: 'ada@acme.test',
      inResponseTo: await start(conn),
      issuer: 'https://impostor.example/idp',
    });
    expectRefusal(await postToAcs(conn.acsUrl, response), 400, 'invalid_saml_response');
  });

  it("refuses a response meant for another connection's ACS", async () => {
    const response = await idp.createResponse({
      sp: { entityId: conn.entityId, acsUrl: open.acsUrl },
      email: 'ada@acme.test',
      inResponseTo: await start(conn),
    });
    expectRefusal(await postToAcs(conn.acsUrl, response), 400, 'invalid_saml_response');
  });

  it('refuses an InResponseTo we never issued', async () => {
    const response = await idp.createResponse({
      sp: sp(conn),
      email: 'ada@acme.test',
      inResponseTo: '_never-issued',
    });
    expectRefusal(await postToAcs(conn.acsUrl, response), 400, 'invalid_saml_response');
  });

  it('refuses an InResponseTo issued for another connection', async () => {
    const requestId = await start(open);
    const response = await idp.createResponse({
      sp: sp(conn),
      email: 'ada@acme.test',
      inResponseTo: requestId,
    });
    expectRefusal(await postToAcs(conn.acsUrl, response), 400, 'invalid_saml_response');
  });

  it('refuses an IdP-initiated response unless the connection allows it', async () => {
    const unprompted = await idp.createResponse({ sp: sp(conn), email: 'ada@acme.test' });
    expectRefusal(await postToAcs(conn.acsUrl, unprompted), 403, 'idp_initiated_sso_not_allowed');

    const allowed = await idp.createResponse({ sp: sp(open), email: 'ada@acme.test' });
    const acs = await postToAcs(open.acsUrl, allowed);
    expect(acs.status).toBe(302);
    expectOk(await authenticate(ssoTokenOf(acs.location)));
  });

  it('refuses a new address when the organization does not provision members by SSO', async () => {
    const closed = await h.admin.createOrganization(h.project.project_id, {
      organization_name: 'Closed',
      organization_slug: 'closed-sso',
    });
    await h.db
      .updateTable('organizations')
      .set({ sso_jit_provisioning: 'NOT_ALLOWED' })
      .where('id', '=', closed.organization_id)
      .execute();
    const c = await addSamlConnection(h, {
      organizationId: closed.organization_id,
      idpEntityId: idp.entityId,
      idpSsoUrl: idp.ssoUrl,
      certificates: [idp.certificate],
    });
    const response = await idp.createResponse({
      sp: sp(c),
      email: 'stranger@closed.test',
      inResponseTo: await start(c),
    });
    expectRefusal(await postToAcs(c.acsUrl, response), 403, 'sso_jit_provisioning_not_allowed');
    expect(await memberCount('stranger@closed.test')).toBe(0);
  });
});

describe('replays', () => {
  it('accepts a response to a request once, on this instance or another over the same database', async () => {
    const response = await idp.createResponse({
      sp: sp(conn),
      email: 'ada@acme.test',
      inResponseTo: await start(conn),
    });
    expect((await postToAcs(conn.acsUrl, response)).status).toBe(302);
    expectRefusal(await postToAcs(conn.acsUrl, response), 400, 'invalid_saml_response');
    const other = await h.sibling();
    const elsewhere = conn.acsUrl.replace(h.url, other.url);
    expectRefusal(await postToAcs(elsewhere, response), 400, 'invalid_saml_response');
  });

  it('remembers assertion IDs across instances, so an unprompted assertion is used once', async () => {
    const assertionId = `_replay-${Date.now()}`;
    const response = await idp.createResponse({
      sp: sp(open),
      email: 'ada@acme.test',
      assertionId,
    });
    expect((await postToAcs(open.acsUrl, response)).status).toBe(302);
    const other = await h.sibling();
    const elsewhere = open.acsUrl.replace(h.url, other.url);
    expectRefusal(await postToAcs(elsewhere, response), 400, 'saml_assertion_replayed');
    expectRefusal(await postToAcs(open.acsUrl, response), 400, 'saml_assertion_replayed');
  });

  it('lets exactly one of many concurrent posts of one response through', async () => {
    const response = await idp.createResponse({
      sp: sp(conn),
      email: 'ada@acme.test',
      inResponseTo: await start(conn),
    });
    const results = await Promise.all(
      Array.from({ length: 12 }, () => postToAcs(conn.acsUrl, response)),
    );
    expect(results.filter((r) => r.status === 302)).toHaveLength(1);
    expect(results.filter((r) => r.status === 400)).toHaveLength(11);
  });
});

describe('certificate rotation', () => {
  it('accepts responses signed by either certificate, and refuses the old one once removed', async () => {
    const rotating = await addSamlConnection(h, {
      idpEntityId: idp.entityId,
      idpSsoUrl: idp.ssoUrl,
      certificates: [idp.otherCertificate, idp.certificate],
    });
    const byOld = await idp.createResponse({
      sp: sp(rotating),
      email: 'ada@acme.test',
      inResponseTo: await start(rotating),
      signWith: 'other',
    });
    expect((await postToAcs(rotating.acsUrl, byOld)).status).toBe(302);
    const byNew = await idp.createResponse({
      sp: sp(rotating),
      email: 'ada@acme.test',
      inResponseTo: await start(rotating),
    });
    expect((await postToAcs(rotating.acsUrl, byNew)).status).toBe(302);

    await h.db
      .deleteFrom('sso_certificates')
      .where('id', '=', `${rotating.connectionId}-cert-0`)
      .execute();
    const byOldAgain = await idp.createResponse({
      sp: sp(rotating),
      email: 'ada@acme.test',
      inResponseTo: await start(rotating),
      signWith: 'other',
    });
    expectRefusal(await postToAcs(rotating.acsUrl, byOldAgain), 400, 'invalid_saml_response');
  });
});

describe('start', () => {
  it('shows an error page, never a redirect, for a login URL off the allow-list', async () => {
    const res = await navigate(
      startUrl(h, conn.connectionId, { login_redirect_url: 'https://evil.example/steal' }),
    );
    expectRefusal(res, 400, 'invalid_redirect_url');
  });

  it("refuses an unknown public token, another project's connection and a missing connection", async () => {
    expectRefusal(
      await navigate(
        `${h.url}/v1/public/sso/start?public_token=public-token-test-nope&connection_id=x`,
      ),
      401,
      'unauthorized_credentials',
    );
    const other = await h.admin.createProject({ name: 'Other', createOrganizationEnabled: true });
    const otherStart = new URLSearchParams({
      public_token: other.public_token,
      connection_id: conn.connectionId,
    });
    expectRefusal(
      await navigate(`${h.url}/v1/public/sso/start?${otherStart.toString()}`),
      404,
      'connection_not_found',
    );
    expectRefusal(
      await navigate(`${h.url}/v1/public/sso/start?public_token=${h.project.public_token}`),
      400,
      'invalid_request',
    );
  });

  it('requires a PKCE challenge when the project does', async () => {
    await h.admin.updateProject(h.project.project_id, {
      pkceRequired: { sso: true },
    });
    try {
      expectRefusal(await navigate(startUrl(h, conn.connectionId)), 400, 'pkce_required');
    } finally {
      await h.admin.updateProject(h.project.project_id, { pkceRequired: { sso: false } });
    }
  });

  it('serves SP metadata naming our entity ID and ACS URL', async () => {
    const res = await navigate(conn.entityId);
    expect(res.status).toBe(200);
    expect(res.type).toContain('application/samlmetadata+xml');
    expect(res.text).toContain(`entityID="${conn.entityId}"`);
    expect(res.text).toContain(`Location="${conn.acsUrl}"`);
  });
});

describe('tokens of other kinds', () => {
  it('refuses a magic-link token as an sso token, and an sso token as a magic link', async () => {
    await h.call(ENDPOINTS.magicLinksLoginOrSignup, {
      body: { email_address: 'ada@acme.test', organization_id: h.org.organization_id },
    });
    const magic = await h.lastToken('ada@acme.test');
    expect(expectError(await authenticate(magic)).error_type).toBe('sso_token_not_found');

    const acs = await postToAcs(
      conn.acsUrl,
      await idp.createResponse({
        sp: sp(conn),
        email: 'ada@acme.test',
        inResponseTo: await start(conn),
      }),
    );
    const sso = ssoTokenOf(acs.location);
    const asMagic = await h.call(ENDPOINTS.magicLinksAuthenticate, {
      body: { magic_links_token: sso, session_duration_minutes: 60 },
    });
    expect(expectError(asMagic).error_type).toBe('magic_link_not_found');
    expectOk(await authenticate(sso));
  });
});

describe('login CSRF', () => {
  it('refuses a genuine response posted by a browser other than the one that started', async () => {
    const requestId = await start(conn);
    const response = await idp.createResponse({
      sp: sp(conn),
      email: 'ada@acme.test',
      inResponseTo: requestId,
    });
    // The attacker's own genuine response, posted from the victim's browser (no binding cookie).
    expectRefusal(await postFromElsewhere(conn.acsUrl, response), 400, 'invalid_saml_response');
    const other = new TestBrowser();
    expectRefusal(await other.postToAcs(conn.acsUrl, response), 400, 'invalid_saml_response');
    // The browser that started still signs in with it.
    const acs = await postToAcs(conn.acsUrl, response);
    expect(acs.status).toBe(302);
    expect(ssoTokenOf(acs.location)).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });
});
