// Which factors of one organization's sign-in count in another (docs/security.md, "Factors
// across organizations"): an SSO sign-in through a connection one organization's admins run, and
// a password of one membership, never enter another organization of the same address, by the
// browser API's session exchange and discovery nor by the management API's exchange; a magic
// link does. The SSO sign-in is real: an OpenID provider the attacker's organization trusts
// asserts the victim's address.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENDPOINTS } from '@gatehouse/protocol/endpoints';
import type { Member, Organization } from '@gatehouse/protocol';
import { startOidcIdp, type OidcIdp } from '@gatehouse/testing/idp';
import { expectOk, startHarness, type Harness } from '../../test/harness.js';
import {
  TestBrowser,
  addDiscoveredOidcConnection,
  signInAtIdp,
  ssoTokenOf,
  startUrl,
} from '../../test/sso.js';

const browser = new TestBrowser();
const VICTIM = 'victim@victim.test';
const PASSWORD = 'Quartz-Lantern-Orbit-42';
const CLIENT = { clientId: 'gatehouse-test', clientSecret: 'a-client-secret-of-some-length' };

let h: Harness;
let idp: OidcIdp;
let connectionId: string;
let callbackUrl: string;
let victimOrg: Organization;
let victim: Member;

beforeAll(async () => {
  [h, idp] = await Promise.all([startHarness({ listen: true }), startOidcIdp()]);
  // The seeded organization is the attacker's: its admins run an identity provider that asserts
  // any address they like, the victim's included.
  ({ connectionId, callbackUrl } = await addDiscoveredOidcConnection(h, idp, CLIENT));
  idp.users.set(VICTIM, { password: 'attacker-knows', name: 'Not the victim' });
  victimOrg = await h.admin.createOrganization(h.project.project_id, {
    organization_name: 'Victim Co',
    organization_slug: 'victim-co',
  });
  victim = await h.addMember(VICTIM, ['admin'], victimOrg.organization_id);
});

afterAll(async () => {
  await Promise.all([h?.close(), idp?.close()]);
});

/** Signs the victim's address in to the attacker's organization through its SSO connection. */
async function ssoSession(): Promise<string> {
  const start = await browser.navigate(startUrl(h, connectionId));
  const { callback } = await signInAtIdp(start.location ?? '', callbackUrl, {
    email: VICTIM,
    password: 'attacker-knows',
  });
  const back = await browser.navigate(callback ?? '');
  const result = expectOk(
    await h.call(ENDPOINTS.ssoAuthenticate, {
      body: { sso_token: ssoTokenOf(back.location), session_duration_minutes: 60 },
    }),
  );
  expect(result.organization.organization_id).toBe(h.org.organization_id);
  expect(result.session_token).toBeTruthy();
  return result.session_token;
}

/** The victim's live sessions in their own organization. */
const victimSessions = async () =>
  (
    await h.db
      .selectFrom('sessions')
      .select('id')
      .where('member_id', '=', victim.member_id)
      .where('revoked_at', 'is', null)
      .execute()
  ).length;

const REFUSED = { status: 403, error_type: 'primary_auth_required' };
const refusal = (res: { status: number; error?: { error_type: string } | undefined }) => ({
  status: res.status,
  error_type: res.error?.error_type,
});

describe('a session of an SSO connection of another organization', () => {
  it('does not enter the victim’s organization by the browser API’s session exchange', async () => {
    const token = await ssoSession();
    const res = await h.call(ENDPOINTS.sessionsExchange, {
      token,
      body: { organization_id: victimOrg.organization_id, session_duration_minutes: 60 },
    });
    expect(refusal(res)).toEqual(REFUSED);
    expect(await victimSessions()).toBe(0);
  });

  it('does not enter it by the management API’s exchange', async () => {
    const session_token = await ssoSession();
    const res = await h.call(ENDPOINTS.backendSessionsExchange, {
      body: { organization_id: victimOrg.organization_id, session_token },
    });
    expect(refusal(res)).toEqual(REFUSED);
    expect(await victimSessions()).toBe(0);
  });

  it('is told by discovery to sign in there, and cannot exchange into it', async () => {
    const token = await ssoSession();
    const listed = expectOk(await h.call(ENDPOINTS.discoveryOrganizations, { token, body: {} }));
    const there = listed.discovered_organizations.find(
      (d) => d.organization.organization_id === victimOrg.organization_id,
    );
    expect(there?.primary_required).not.toBeNull();
    const res = await h.call(ENDPOINTS.discoveryExchange, {
      token,
      body: { organization_id: victimOrg.organization_id, session_duration_minutes: 60 },
    });
    expect(refusal(res)).toEqual(REFUSED);
    expect(await victimSessions()).toBe(0);
  });

  it('cannot found an organization for the address it did not prove', async () => {
    const token = await ssoSession();
    const res = await h.call(ENDPOINTS.discoveryOrganizationsCreate, {
      token,
      body: { session_duration_minutes: 60, organization_slug: 'victim-lookalike' },
    });
    expect(refusal(res)).toEqual(REFUSED);
    const made = await h.admin.getOrganizationBySlug(h.project.project_id, 'victim-lookalike');
    expect(made).toBeNull();
  });
});

describe('a password of one membership', () => {
  it('does not enter another organization of the address, on either API', async () => {
    // The SSO session sets a password on the member the attacker's IdP provisioned.
    const token = await ssoSession();
    expectOk(
      await h.call(ENDPOINTS.passwordsResetSession, { token, body: { password: PASSWORD } }),
    );
    const signedIn = expectOk(
      await h.call(ENDPOINTS.passwordsAuthenticate, {
        body: {
          organization_id: h.org.organization_id,
          email_address: VICTIM,
          password: PASSWORD,
          session_duration_minutes: 60,
        },
      }),
    );
    const body = { organization_id: victimOrg.organization_id, session_duration_minutes: 60 };
    const browserApi = await h.call(ENDPOINTS.sessionsExchange, {
      token: signedIn.session_token,
      body,
    });
    expect(refusal(browserApi)).toEqual(REFUSED);
    const managementApi = await h.call(ENDPOINTS.backendSessionsExchange, {
      body: { ...body, session_token: signedIn.session_token },
    });
    expect(refusal(managementApi)).toEqual(REFUSED);
    expect(await victimSessions()).toBe(0);
  });
});

describe('a magic link', () => {
  it('proves the address wherever it is used: its session enters the other organization', async () => {
    const other = await h.admin.createOrganization(h.project.project_id, {
      organization_name: 'Ada’s other',
      organization_slug: 'ada-other',
    });
    const member = await h.addMember(h.member.email_address, [], other.organization_id);
    const { session_token } = await h.login();
    const res = expectOk(
      await h.call(ENDPOINTS.sessionsExchange, {
        token: session_token,
        body: { organization_id: other.organization_id, session_duration_minutes: 60 },
      }),
    );
    expect([res.member_authenticated, res.member.member_id]).toEqual([true, member.member_id]);
  });
});

describe('password discovery', () => {
  it('counts the password only in the organization whose member it is', async () => {
    // The attacker's SSO session sets a password on the member its IdP provisioned.
    const token = await ssoSession();
    expectOk(
      await h.call(ENDPOINTS.passwordsResetSession, { token, body: { password: PASSWORD } }),
    );
    const found = expectOk(
      await h.call(ENDPOINTS.passwordsDiscoveryAuthenticate, {
        body: { email_address: VICTIM, password: PASSWORD },
      }),
    );
    const listed = (organizationId: string) =>
      found.discovered_organizations.find((d) => d.organization.organization_id === organizationId);
    expect(listed(h.org.organization_id)?.primary_required).toBeNull();
    expect(listed(victimOrg.organization_id)?.primary_required).not.toBeNull();
    const ist = found.intermediate_session_token;
    const into = (organization_id: string) =>
      h.call(ENDPOINTS.discoveryExchange, {
        body: { intermediate_session_token: ist, organization_id, session_duration_minutes: 60 },
      });
    expect(refusal(await into(victimOrg.organization_id))).toEqual(REFUSED);
    expect(await victimSessions()).toBe(0);
    const own = expectOk(await into(h.org.organization_id));
    expect(own.organization.organization_id).toBe(h.org.organization_id);
  });
});
