// The management API's password reset by e-mail through the hosted provider's official Node SDK
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

describe('password resets through B2BClient', () => {
  it('email.resetStart names the member; email.reset sets the password once', async () => {
    const sent = await sdk.client.passwords.email.resetStart({
      organization_id: sdk.h.org.organization_id,
      email_address: 'ada@acme.test',
    });
    expect([sent.status_code, sent.member_id]).toEqual([200, sdk.h.member.member_id]);
    expect(sent.member_email_id).not.toBe('');
    expectFields(sent.member, MEMBER);
    const token = await sdk.h.lastToken('ada@acme.test');
    const answer = await sdk.client.passwords.email.reset({
      password_reset_token: token,
      password: 'Velvet-Harbor-Compass-77',
      session_duration_minutes: 60,
    });
    expect(answer.member_authenticated).toBe(true);
    expect([answer.organization_id, answer.member_email_id]).toEqual([
      sdk.h.org.organization_id,
      sent.member_email_id,
    ]);
    expectFields(answer.member, MEMBER);
    expectFields(answer.organization, ORGANIZATION);
    await expect(
      sdk.client.passwords.email.reset({
        password_reset_token: token,
        password: 'Another-Lantern-Harbor-91',
      }),
    ).rejects.toMatchObject({ status_code: 404, error_type: 'password_reset_token_not_found' });
  });
});
