// The management API's magic-link calls through the hosted provider's official Node SDK
// (`stytch` 14, `B2BClient`) over TLS: the typed fields the SDK promises, each present.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSdkHarness, type SdkHarness } from '../../test/backend-sdk.js';
import { expectFields, MEMBER, ORGANIZATION } from '../../test/sdk-fields.js';

let sdk: SdkHarness;
beforeAll(async () => {
  sdk = await startSdkHarness();
});
afterAll(async () => {
  await sdk?.close();
});

describe('magic links through B2BClient', () => {
  it('email.loginOrSignup names the member; authenticate signs them in once', async () => {
    const sent = await sdk.client.magicLinks.email.loginOrSignup({
      organization_id: sdk.h.org.organization_id,
      email_address: 'ada@acme.test',
    });
    expect([sent.status_code, sent.member_id, sent.member_created]).toEqual([
      200,
      sdk.h.member.member_id,
      false,
    ]);
    expectFields(sent.member, MEMBER);
    expectFields(sent.organization, ORGANIZATION);
    const token = await sdk.h.lastToken('ada@acme.test');
    const signedIn = await sdk.client.magicLinks.authenticate({
      magic_links_token: token,
      session_duration_minutes: 60,
    });
    expect(signedIn.member_authenticated).toBe(true);
    expect(signedIn.organization_id).toBe(sdk.h.org.organization_id);
    expect(signedIn.session_token).not.toBe('');
    expectFields(signedIn.member, MEMBER);
    await expect(
      sdk.client.magicLinks.authenticate({ magic_links_token: token }),
    ).rejects.toMatchObject({ status_code: 404, error_type: 'magic_link_not_found' });
  });

  it('email.discovery.send acknowledges', async () => {
    const answer = await sdk.client.magicLinks.email.discovery.send({
      email_address: 'ghost@nowhere.example',
    });
    expect(answer.status_code).toBe(200);
    expect(answer.request_id).not.toBe('');
  });
});
