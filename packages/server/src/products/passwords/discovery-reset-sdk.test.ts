// passwords.discovery.email.resetStart and reset through the hosted provider's official Node SDK
// (`stytch` 14, `B2BClient`) over TLS: the typed answers, the same for an unknown address, and a
// link spent once.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSdkHarness, type SdkHarness } from '../../test/backend-sdk.js';
import { expectFields, ORGANIZATION } from '../../test/sdk-fields.js';

let sdk: SdkHarness;
beforeAll(async () => {
  sdk = await startSdkHarness();
});
afterAll(async () => {
  await sdk?.close();
});

describe('passwords.discovery.email through B2BClient', () => {
  it('resetStart answers alike for a member and an unknown address; reset answers discovery once', async () => {
    const known = await sdk.client.passwords.discovery.email.resetStart({
      email_address: 'ada@acme.test',
    });
    const unknown = await sdk.client.passwords.discovery.email.resetStart({
      email_address: 'nobody@acme.test',
    });
    expect(Object.keys(known).sort()).toEqual(['request_id', 'status_code']);
    expect(Object.keys(unknown).sort()).toEqual(['request_id', 'status_code']);
    const token = await sdk.h.lastToken('ada@acme.test');
    const answer = await sdk.client.passwords.discovery.email.reset({
      password_reset_token: token,
      password: 'Velvet-Harbor-Compass-77',
    });
    expect(answer.status_code).toBe(200);
    expect(answer.email_address).toBe('ada@acme.test');
    expect(answer.intermediate_session_token).not.toBe('');
    const [discovered] = answer.discovered_organizations;
    expectFields(discovered?.organization, ORGANIZATION);
    expect(discovered?.organization?.organization_id).toBe(sdk.h.org.organization_id);
    await expect(
      sdk.client.passwords.discovery.email.reset({
        password_reset_token: token,
        password: 'Another-Lantern-Harbor-91',
      }),
    ).rejects.toMatchObject({ status_code: 404, error_type: 'password_reset_token_not_found' });
    const signedIn = await sdk.client.passwords.authenticate({
      organization_id: sdk.h.org.organization_id,
      email_address: 'ada@acme.test',
      password: 'Velvet-Harbor-Compass-77',
    });
    expect(signedIn.member_authenticated).toBe(true);
  });
});
