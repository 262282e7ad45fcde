// A session signed in with Google entering another organization of the address
// (docs/security.md, "Factors across organizations"): the Google factor counts there only for a
// member who has the same Google account linked, whom the federated trust rules admitted already;
// otherwise the exchange asks for a sign-in there, on the browser and management APIs alike.
import { ENDPOINTS } from '@gatehouse/protocol/endpoints';
import type { OidcIdp } from '@gatehouse/testing/idp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectOk, type Harness } from '../../test/harness.js';
import { TestBrowser, signInAtIdp } from '../../test/sso.js';
import { startGoogleOAuth } from './google-fixture.js';

const browser = new TestBrowser();

let h: Harness;
let google: OidcIdp;
let callback: string;

beforeAll(async () => {
  ({ h, google, callback } = await startGoogleOAuth());
  google.users.set('ada@acme.test', {
    password: 'pw-ada',
    name: 'Ada',
    claims: { hd: 'acme.test' },
  });
});

afterAll(async () => {
  await Promise.all([h?.close(), google?.close()]);
});

/** Signs Ada in with Google to the organization of `slug`; returns the session token. */
async function googleSession(slug: string): Promise<string> {
  const query = new URLSearchParams({ public_token: h.project.public_token, slug });
  const start = await browser.navigate(`${h.url}/v1/b2b/public/oauth/google/start?${query}`);
  const { callback: back } = await signInAtIdp(start.location ?? '', callback, {
    email: 'ada@acme.test',
    password: 'pw-ada',
  });
  const landed = await browser.navigate(back ?? '');
  const token = new URL(landed.location ?? '').searchParams.get('token') ?? '';
  const result = expectOk(
    await h.call(ENDPOINTS.oauthAuthenticate, {
      body: { oauth_token: token, session_duration_minutes: 60 },
    }),
  );
  expect(result.member_authenticated).toBe(true);
  return result.session_token;
}

/** A second organization where Ada is a member. */
async function otherOrganization(slug: string) {
  const org = await h.admin.createOrganization(h.project.project_id, {
    organization_name: slug,
    organization_slug: slug,
  });
  await h.addMember('ada@acme.test', [], org.organization_id);
  return org.organization_id;
}

describe('a Google session entering another organization', () => {
  it('is asked to sign in there when that member has no Google account linked', async () => {
    const organization_id = await otherOrganization('ada-unlinked');
    const token = await googleSession('acme');
    const body = { organization_id, session_duration_minutes: 60 };
    const browserApi = await h.call(ENDPOINTS.sessionsExchange, { token, body });
    expect([browserApi.status, browserApi.error?.error_type]).toEqual([
      403,
      'primary_auth_required',
    ]);
    const managementApi = await h.call(ENDPOINTS.backendSessionsExchange, {
      body: { ...body, session_token: token },
    });
    expect([managementApi.status, managementApi.error?.error_type]).toEqual([
      403,
      'primary_auth_required',
    ]);
  });

  it('enters where the member has the same Google account linked', async () => {
    const organization_id = await otherOrganization('ada-linked');
    // Ada signs in there with Google once, which links the account to that membership.
    await googleSession('ada-linked');
    const token = await googleSession('acme');
    const entered = expectOk(
      await h.call(ENDPOINTS.sessionsExchange, {
        token,
        body: { organization_id, session_duration_minutes: 60 },
      }),
    );
    expect([entered.member_authenticated, entered.organization.organization_id]).toEqual([
      true,
      organization_id,
    ]);
    const listed = expectOk(await h.call(ENDPOINTS.discoveryOrganizations, { token, body: {} }));
    const there = listed.discovered_organizations.find(
      (d) => d.organization.organization_id === organization_id,
    );
    expect(there?.primary_required).toBeNull();
  });
});
