// An OIDC connection whose provider never sends `email_verified` (Entra ID, ADFS, some Okta
// set-ups) vouches for addresses in its own organization's verified domains, proven by DNS
// against a DNS server on loopback; a pending domain, another organization's verified domain and
// an explicit `email_verified: false` do not (auth/federated/trust.ts). Against a real OpenID
// provider.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Organization } from '@gatehouse/protocol';
import { ENDPOINTS } from '@gatehouse/protocol/endpoints';
import { startOidcIdp, type OidcIdp } from '@gatehouse/testing/idp';
import { expectOk, startHarness, type Harness } from '../../test/harness.js';
import { startDnsStub, type DnsStub } from '../../test/dns-stub.js';
import { magicLogin } from '../../test/mfa.js';
import {
  TestBrowser,
  addDiscoveredOidcConnection,
  signInAtIdp,
  ssoTokenOf,
  startUrl,
} from '../../test/sso.js';

let h: Harness;
let idp: OidcIdp;
let dns: DnsStub;
let connectionId: string;
let callbackUrl: string;
let other: Organization;
let acmeAdmin: string;

const CLIENT = { clientId: 'gatehouse-domains', clientSecret: 'a-client-secret-of-some-length' };
/** What Entra ID, ADFS and some Okta set-ups send: no `email_verified` at all. */
const ABSENT = { email_verified: undefined };

/** Adds a domain as an admin of the organization, and verifies it when `publish` says so. */
async function addDomain(adminToken: string, domain: string, publish: boolean) {
  const added = expectOk(
    await h.call(ENDPOINTS.organizationDomainAdd, { token: adminToken, body: { domain } }),
  ).domain;
  if (!publish) return;
  dns.txt.set(added.txt_record.name, [added.txt_record.value]);
  const verified = expectOk(
    await h.call(ENDPOINTS.organizationDomainVerify, {
      token: adminToken,
      params: { domain_id: added.domain_id },
    }),
  ).domain;
  expect(verified.status).toBe('verified');
}

beforeAll(async () => {
  dns = await startDnsStub();
  [h, idp] = await Promise.all([
    startHarness({ listen: true, config: { dnsServers: [dns.server] } }),
    startOidcIdp(),
  ]);
  ({ connectionId, callbackUrl } = await addDiscoveredOidcConnection(h, idp, CLIENT));
  for (const [email, claims] of [
    ['kai@proven.test', ABSENT],
    ['lou@proven.test', { email_verified: false }],
    ['max@pending.test', ABSENT],
    ['ned@elsewhere.test', ABSENT],
  ] as const) {
    idp.users.set(email, { password: `pw-${email}`, claims });
    // Members already: a refusal is the trust rule's, not the JIT rules'.
    await h.addMember(email);
  }
  await h.addMember('root@acme.test', ['admin']);
  acmeAdmin = (await h.login('root@acme.test')).session_token;
  await addDomain(acmeAdmin, 'proven.test', true);
  await addDomain(acmeAdmin, 'pending.test', false);
  // Another organization of the project verifies elsewhere.test.
  other = await h.admin.createOrganization(h.project.project_id, {
    organization_name: 'Elsewhere',
    organization_slug: 'elsewhere',
  });
  await h.addMember('boss@elsewhere.test', ['admin'], other.organization_id);
  const otherAdmin = (await magicLogin(h, 'boss@elsewhere.test', other.organization_id))
    .session_token;
  await addDomain(otherAdmin, 'elsewhere.test', true);
});

afterAll(async () => {
  await Promise.all([h?.close(), idp?.close(), dns?.close()]);
});

/** A whole sign-in through the connection: the callback's answer. */
async function signIn(email: string) {
  const browser = new TestBrowser();
  const start = await browser.navigate(startUrl(h, connectionId));
  expect(start.status).toBe(302);
  const { callback } = await signInAtIdp(start.location ?? '', callbackUrl, {
    email,
    password: `pw-${email}`,
  });
  if (!callback) throw new Error('The provider did not return');
  return browser.navigate(callback);
}

function expectNotVerified(back: Awaited<ReturnType<typeof signIn>>) {
  expect(back.status, back.text).toBe(403);
  expect(back.location).toBeNull();
  expect(back.text).toContain('<code id="error-type">sso_email_not_verified</code>');
}

describe("an OIDC connection's organization's verified domains", () => {
  it('lists the domains the organization verified, not the pending one', async () => {
    const { organization } = expectOk(
      await h.call(ENDPOINTS.getOrganization, {
        params: { organization_id: h.org.organization_id },
      }),
    );
    expect(organization.claimed_email_domains).toEqual(['proven.test']);
  });

  it('vouch for an address in one of them when email_verified is absent', async () => {
    const back = await signIn('kai@proven.test');
    expect(back.status, back.text).toBe(302);
    const result = expectOk(
      await h.call(ENDPOINTS.ssoAuthenticate, {
        body: { sso_token: ssoTokenOf(back.location), session_duration_minutes: 60 },
      }),
    );
    expect(result.member.email_address).toBe('kai@proven.test');
    expect(result.organization.organization_id).toBe(h.org.organization_id);
  });

  it('do not outweigh an explicit email_verified: false', async () => {
    expectNotVerified(await signIn('lou@proven.test'));
  });

  it('do not include a domain only added, not verified', async () => {
    expectNotVerified(await signIn('max@pending.test'));
  });

  it("do not include another organization's verified domain", async () => {
    expectNotVerified(await signIn('ned@elsewhere.test'));
  });
});

describe('a test sign-in of the connection', () => {
  /** The `email_verified` check of a test sign-in of `email`. */
  async function emailVerifiedCheck(email: string) {
    const started = expectOk(
      await h.call(ENDPOINTS.sdkSsoTestOidc, {
        token: acmeAdmin,
        params: { connection_id: connectionId },
        body: {},
      }),
    );
    const { callback } = await signInAtIdp(started.idp_url, callbackUrl, {
      email,
      password: `pw-${email}`,
    });
    if (!callback) throw new Error('The provider did not return');
    await new TestBrowser().navigate(callback);
    const { test } = expectOk(
      await h.call(ENDPOINTS.sdkSsoTestOidcResult, {
        token: acmeAdmin,
        params: { connection_id: connectionId, test_id: started.test.test_id },
      }),
    );
    return test.checks.find((c) => c.check === 'email_verified');
  }

  it('reports the rule of real sign-ins: a verified domain passes, a pending one fails', async () => {
    expect(await emailVerifiedCheck('kai@proven.test')).toMatchObject({
      status: 'passed',
      message: expect.stringContaining('proven.test is a verified domain') as unknown,
    });
    expect(await emailVerifiedCheck('max@pending.test')).toMatchObject({
      status: 'failed',
      message: expect.stringContaining('not in a verified domain') as unknown,
    });
    expect((await emailVerifiedCheck('lou@proven.test'))?.status).toBe('failed');
  });
});
