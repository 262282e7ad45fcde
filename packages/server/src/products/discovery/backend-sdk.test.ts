// The management API's discovery calls through the hosted provider's official Node SDK
// (`stytch` 14, `B2BClient`) over TLS: the typed fields the SDK promises, each present.
import { ENDPOINTS } from '@gatehouse/protocol/endpoints';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSdkHarness, type SdkHarness } from '../../test/backend-sdk.js';
import { expectOk } from '../../test/harness.js';
import { expectFields, MEMBER, ORGANIZATION } from '../../test/sdk-fields.js';

let sdk: SdkHarness;
beforeAll(async () => {
  sdk = await startSdkHarness();
});
afterAll(async () => {
  await sdk?.close();
});

/** An intermediate session token for `email`, from a discovery link the backend sent. */
async function discover(email: string): Promise<string> {
  await sdk.client.magicLinks.email.discovery.send({ email_address: email });
  const token = await sdk.h.lastToken(email);
  const res = await sdk.h.call(ENDPOINTS.magicLinksDiscoveryAuthenticate, {
    body: { discovery_magic_links_token: token },
  });
  return expectOk(res).intermediate_session_token;
}

describe('discovery through B2BClient', () => {
  it('organizations.list, then intermediateSessions.exchange into one of them', async () => {
    const ist = await discover('ada@acme.test');
    const list = await sdk.client.discovery.organizations.list({ intermediate_session_token: ist });
    expect(list.email_address).toBe('ada@acme.test');
    const found = list.discovered_organizations.map((d) => d.organization?.organization_id);
    expect(found).toContain(sdk.h.org.organization_id);
    const entered = await sdk.client.discovery.intermediateSessions.exchange({
      intermediate_session_token: ist,
      organization_id: sdk.h.org.organization_id,
      session_duration_minutes: 60,
    });
    expect([entered.member_authenticated, entered.member_id]).toEqual([
      true,
      sdk.h.member.member_id,
    ]);
    expectFields(entered.member, MEMBER);
    expectFields(entered.organization, ORGANIZATION);
  });

  it('organizations.create founds an organization', async () => {
    const ist = await discover('founder@startup.test');
    const created = await sdk.client.discovery.organizations.create({
      intermediate_session_token: ist,
      organization_name: 'Startup',
      organization_slug: 'startup',
    });
    expect(created.member_authenticated).toBe(true);
    expect(created.organization.organization_slug).toBe('startup');
    expectFields(created.organization, ORGANIZATION);
    expectFields(created.member, MEMBER);
  });
});

describe('magicLinks.discovery.authenticate through B2BClient', () => {
  /** A refusal the SDK threw, or null when the call succeeded. */
  const refusal = (call: Promise<unknown>) =>
    call.then(
      () => null,
      (error: unknown) => error,
    );

  it('redeems a discovery link once: an IST, the address and its organizations', async () => {
    await sdk.client.magicLinks.email.discovery.send({ email_address: 'ada@acme.test' });
    const token = await sdk.h.lastToken('ada@acme.test');
    const answer = await sdk.client.magicLinks.discovery.authenticate({
      discovery_magic_links_token: token,
    });
    expect([answer.status_code, answer.email_address]).toEqual([200, 'ada@acme.test']);
    expect(answer.request_id).toMatch(/^request-id-test-/);
    const [found] = answer.discovered_organizations;
    expect(found?.organization?.organization_id).toBe(sdk.h.org.organization_id);
    expectFields(found?.organization, ORGANIZATION);
    expectFields(found?.membership?.member ?? undefined, MEMBER);
    const list = await sdk.client.discovery.organizations.list({
      intermediate_session_token: answer.intermediate_session_token,
    });
    expect(list.email_address).toBe('ada@acme.test');
    expect(
      await refusal(
        sdk.client.magicLinks.discovery.authenticate({ discovery_magic_links_token: token }),
      ),
    ).toMatchObject({ status_code: 404, error_type: 'magic_link_not_found' });
  });

  it('refuses an empty token with a 400 in the provider error shape', async () => {
    const failure = await refusal(
      sdk.client.magicLinks.discovery.authenticate({ discovery_magic_links_token: '' }),
    );
    expect(failure).toMatchObject({ status_code: 400, error_type: 'invalid_request' });
    expect(failure).toHaveProperty('error_message');
    expect(failure).toHaveProperty('request_id');
  });

  it("refuses another project's link and a wrong secret, leaving the link usable", async () => {
    const other = await sdk.h.admin.createProject({ name: 'Elsewhere' });
    await sdk.client.magicLinks.email.discovery.send({ email_address: 'ada@acme.test' });
    const token = await sdk.h.lastToken('ada@acme.test');
    const foreign = sdk.clientFor(other.project_id, other.secret);
    expect(
      await refusal(
        foreign.magicLinks.discovery.authenticate({ discovery_magic_links_token: token }),
      ),
    ).toMatchObject({ status_code: 404, error_type: 'magic_link_not_found' });
    const wrong = sdk.clientFor(sdk.h.project.project_id, `${sdk.h.project.secret}x`);
    expect(
      await refusal(
        wrong.magicLinks.discovery.authenticate({ discovery_magic_links_token: token }),
      ),
    ).toMatchObject({ status_code: 401, error_type: 'unauthorized_credentials' });
    const answer = await sdk.client.magicLinks.discovery.authenticate({
      discovery_magic_links_token: token,
    });
    expect(answer.email_address).toBe('ada@acme.test');
  });
});
