// The management API's password changes through the hosted provider's official Node SDK
// (`stytch` 14, `B2BClient`) over TLS: passwords.existingPassword.reset and
// passwords.sessions.reset, with the fields the SDK types and the provider's error shape.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSdkHarness, type SdkHarness } from '../../test/backend-sdk.js';
import { expectFields, MEMBER, MEMBER_SESSION, ORGANIZATION } from '../../test/sdk-fields.js';

let sdk: SdkHarness;
/** Ada's password as the last test left it. */
let current = 'Quartz-Lantern-Orbit-42';

beforeAll(async () => {
  sdk = await startSdkHarness();
  await sdk.h.admin.setMemberPassword(sdk.h.project.project_id, sdk.h.member.member_id, {
    password: current,
  });
});
afterAll(async () => {
  await sdk?.close();
});

/** A refusal the SDK threw, or null when the call succeeded. */
const refusal = (call: Promise<unknown>) =>
  call.then(
    () => null,
    (error: unknown) => error,
  );

/** Ada signed in with her current password. */
const signIn = () =>
  sdk.client.passwords.authenticate({
    organization_id: sdk.h.org.organization_id,
    email_address: 'ada@acme.test',
    password: current,
    session_duration_minutes: 60,
  });

const existingReset = (
  fields: Partial<Parameters<SdkHarness['client']['passwords']['existingPassword']['reset']>[0]>,
  client = sdk.client,
) =>
  client.passwords.existingPassword.reset({
    organization_id: sdk.h.org.organization_id,
    email_address: 'ada@acme.test',
    existing_password: current,
    new_password: 'Velvet-Harbor-Compass-77',
    ...fields,
  });

describe('passwords.existingPassword.reset through B2BClient', () => {
  it('replaces the password given the current one and answers a new session', async () => {
    const before = await signIn();
    const answer = await existingReset({ new_password: 'Velvet-Harbor-Compass-77' });
    current = 'Velvet-Harbor-Compass-77';
    expect([answer.status_code, answer.member_authenticated, answer.member_id]).toEqual([
      200,
      true,
      sdk.h.member.member_id,
    ]);
    expect(answer.session_token).not.toBe('');
    expectFields(answer.member, MEMBER);
    expectFields(answer.organization, ORGANIZATION);
    expectFields(answer.member_session, MEMBER_SESSION);
    // The change ends every earlier session.
    expect(
      await refusal(sdk.client.sessions.authenticate({ session_token: before.session_token })),
    ).toMatchObject({ status_code: 404, error_type: 'session_not_found' });
    const after = await signIn();
    expect(after.member_id).toBe(sdk.h.member.member_id);
  });

  it('answers a wrong password and an unknown address alike', async () => {
    const wrong = await refusal(existingReset({ existing_password: 'Not-The-Password-1' }));
    const unknown = await refusal(existingReset({ email_address: 'nobody@acme.test' }));
    expect(wrong).toMatchObject({ status_code: 401, error_type: 'unauthorized_credentials' });
    const shape = (e: unknown) => {
      const { error_type, error_message, status_code } = e as Record<string, unknown>;
      return { error_type, error_message, status_code };
    };
    expect(shape(unknown)).toEqual(shape(wrong));
    expect((await signIn()).member_id).toBe(sdk.h.member.member_id);
  });

  it('refuses a weak new password and a malformed address with 400', async () => {
    expect(await refusal(existingReset({ new_password: 'password' }))).toMatchObject({
      status_code: 400,
      error_type: 'weak_password',
    });
    const malformed = await refusal(existingReset({ email_address: 'not an address' }));
    expect(malformed).toMatchObject({ status_code: 400 });
    expect(malformed).toHaveProperty('error_message');
    expect(malformed).toHaveProperty('request_id');
  });

  it("refuses another project's organization, and another organization's address", async () => {
    const other = await sdk.h.admin.createProject({ name: 'Elsewhere' });
    const foreignOrg = await sdk.h.admin.createOrganization(other.project_id, {
      organization_name: 'Acme elsewhere',
      organization_slug: 'acme-elsewhere',
    });
    expect(
      await refusal(existingReset({ organization_id: foreignOrg.organization_id })),
    ).toMatchObject({ status_code: 404, error_type: 'organization_not_found' });
    const sibling = await sdk.h.admin.createOrganization(sdk.h.project.project_id, {
      organization_name: 'Sibling',
      organization_slug: 'sibling',
    });
    expect(
      await refusal(existingReset({ organization_id: sibling.organization_id })),
    ).toMatchObject({ status_code: 401, error_type: 'unauthorized_credentials' });
  });

  it('refuses a wrong secret', async () => {
    const wrong = sdk.clientFor(sdk.h.project.project_id, `${sdk.h.project.secret}x`);
    expect(await refusal(existingReset({}, wrong))).toMatchObject({
      status_code: 401,
      error_type: 'unauthorized_credentials',
    });
  });
});

describe('passwords.sessions.reset through B2BClient', () => {
  it("sets the session member's password, keeping that session and ending the others", async () => {
    const [kept, other] = [await signIn(), await signIn()];
    const answer = await sdk.client.passwords.sessions.reset({
      organization_id: sdk.h.org.organization_id,
      password: 'Amber-Signal-Meadow-58',
      session_token: kept.session_token,
    });
    current = 'Amber-Signal-Meadow-58';
    expect([answer.status_code, answer.member_authenticated, answer.session_token]).toEqual([
      200,
      true,
      kept.session_token,
    ]);
    expectFields(answer.member, MEMBER);
    expectFields(answer.organization, ORGANIZATION);
    expectFields(answer.member_session, MEMBER_SESSION);
    expect(answer.member_session?.member_session_id).toBe(kept.member_session?.member_session_id);
    expect(
      await refusal(sdk.client.sessions.authenticate({ session_token: other.session_token })),
    ).toMatchObject({ status_code: 404, error_type: 'session_not_found' });
    expect((await signIn()).member_id).toBe(sdk.h.member.member_id);
  });

  it('takes the session by its JWT, answering no token', async () => {
    const session = await signIn();
    const answer = await sdk.client.passwords.sessions.reset({
      organization_id: sdk.h.org.organization_id,
      password: 'Cobalt-Thistle-Anchor-63',
      session_jwt: session.session_jwt,
    });
    current = 'Cobalt-Thistle-Anchor-63';
    expect([answer.member_id, answer.session_token]).toEqual([sdk.h.member.member_id, '']);
  });

  it('refuses a weak password with 400, and no session or a dead one', async () => {
    const session = await signIn();
    const reset = (fields: { password?: string; session_token?: string }) =>
      refusal(
        sdk.client.passwords.sessions.reset({
          organization_id: sdk.h.org.organization_id,
          password: 'Ivory-Canyon-Beacon-29',
          ...fields,
        }),
      );
    expect(
      await reset({ password: 'password', session_token: session.session_token }),
    ).toMatchObject({ status_code: 400, error_type: 'weak_password' });
    expect(await reset({})).toMatchObject({
      status_code: 401,
      error_type: 'unauthorized_credentials',
    });
    expect(await reset({ session_token: 'not-a-live-session' })).toMatchObject({
      status_code: 404,
      error_type: 'session_not_found',
    });
  });

  it("refuses another organization's id, another project's key and a wrong secret", async () => {
    const session = await signIn();
    const sibling = await sdk.h.admin.createOrganization(sdk.h.project.project_id, {
      organization_name: 'Sibling two',
      organization_slug: 'sibling-two',
    });
    const body = {
      organization_id: sdk.h.org.organization_id,
      password: 'Ivory-Canyon-Beacon-29',
      session_token: session.session_token,
    };
    expect(
      await refusal(
        sdk.client.passwords.sessions.reset({ ...body, organization_id: sibling.organization_id }),
      ),
    ).toMatchObject({ status_code: 401, error_type: 'unauthorized_credentials' });
    const other = await sdk.h.admin.createProject({ name: 'Elsewhere again' });
    const foreign = sdk.clientFor(other.project_id, other.secret);
    expect(await refusal(foreign.passwords.sessions.reset(body))).toMatchObject({
      status_code: 404,
      error_type: 'session_not_found',
    });
    const wrong = sdk.clientFor(sdk.h.project.project_id, `${sdk.h.project.secret}x`);
    expect(await refusal(wrong.passwords.sessions.reset(body))).toMatchObject({
      status_code: 401,
      error_type: 'unauthorized_credentials',
    });
    // None of the refusals changed the password or ended the session.
    expect((await signIn()).member_id).toBe(sdk.h.member.member_id);
    const live = await sdk.client.sessions.authenticate({ session_token: session.session_token });
    expect(live.member.member_id).toBe(sdk.h.member.member_id);
  });
});

describe('passwords.discovery.authenticate through B2BClient', () => {
  it("answers an IST and the address's organizations, which the IST enters", async () => {
    const answer = await sdk.client.passwords.discovery.authenticate({
      email_address: 'ada@acme.test',
      password: current,
    });
    expect([answer.status_code, answer.email_address]).toEqual([200, 'ada@acme.test']);
    const [found] = answer.discovered_organizations;
    expect(found?.organization?.organization_id).toBe(sdk.h.org.organization_id);
    expectFields(found?.organization, ORGANIZATION);
    const entered = await sdk.client.discovery.intermediateSessions.exchange({
      intermediate_session_token: answer.intermediate_session_token,
      organization_id: sdk.h.org.organization_id,
    });
    expect(entered.member_id).toBe(sdk.h.member.member_id);
  });

  it('answers a wrong password and an unknown address alike, and a bad body with 400', async () => {
    const discover = (email_address: string, password: string, client = sdk.client) =>
      refusal(client.passwords.discovery.authenticate({ email_address, password }));
    const wrong = await discover('ada@acme.test', 'Not-The-Password-1');
    const unknown = await discover('nobody@acme.test', current);
    for (const failure of [wrong, unknown]) {
      expect(failure).toMatchObject({
        status_code: 401,
        error_type: 'unauthorized_credentials',
        error_message: 'Invalid email or password.',
      });
    }
    expect(await discover('not an address', current)).toMatchObject({ status_code: 400 });
    const other = await sdk.h.admin.createProject({ name: 'Elsewhere for discovery' });
    const foreign = sdk.clientFor(other.project_id, other.secret);
    expect(await discover('ada@acme.test', current, foreign)).toMatchObject({
      status_code: 401,
      error_type: 'unauthorized_credentials',
    });
    const badSecret = sdk.clientFor(sdk.h.project.project_id, `${sdk.h.project.secret}x`);
    expect(await discover('ada@acme.test', current, badSecret)).toMatchObject({
      status_code: 401,
      error_type: 'unauthorized_credentials',
    });
  });
});
