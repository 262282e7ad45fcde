// The management API's passwords.email.requireReset: a password the project required be reset
// answers reset_password at sign-in, only to whoever types it right, until a new password
// replaces it; it never reaches another organization's member or another project's.
import { ENDPOINTS } from '@gatehouse/protocol/endpoints';
import type { Member, Organization } from '@gatehouse/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { basic, expectOk, startHarness, type Harness } from '../../test/harness.js';

const PASSWORD = 'Quartz-Lantern-Orbit-42';
const NEW_PASSWORD = 'Velvet-Harbor-Compass-77';

let h: Harness;
let globex: Organization;
let adaAtGlobex: Member;

beforeAll(async () => {
  h = await startHarness();
  globex = await h.admin.createOrganization(h.project.project_id, {
    organization_name: 'Globex',
    organization_slug: 'globex-require-reset',
  });
  adaAtGlobex = await h.addMember('ada@acme.test', [], globex.organization_id);
});
afterAll(async () => {
  await h.close();
});

/** Gives both of Ada's memberships the same, known password. */
async function setPasswords(): Promise<void> {
  for (const id of [h.member.member_id, adaAtGlobex.member_id]) {
    await h.admin.setMemberPassword(h.project.project_id, id, { password: PASSWORD });
  }
}

const signIn = (organizationId: string, password = PASSWORD) =>
  h.call(ENDPOINTS.backendPasswordsAuthenticate, {
    body: { organization_id: organizationId, email_address: 'ada@acme.test', password },
  });
const requireReset = (body: {
  email_address: string;
  organization_id?: string;
  member_id?: string;
}) => h.call(ENDPOINTS.backendPasswordsRequireReset, { body });

describe('management passwords.email.requireReset', () => {
  it("refuses the right password with reset_password, a wrong one as before, and the other organization's stays usable", async () => {
    await setPasswords();
    const marked = expectOk(
      await requireReset({
        email_address: 'ada@acme.test',
        organization_id: h.org.organization_id,
      }),
    );
    expect(marked.member_id).toBe(h.member.member_id);
    expect(marked.organization?.organization_id).toBe(h.org.organization_id);
    expect(marked.member?.member_password_id).not.toBe('');

    const right = await signIn(h.org.organization_id);
    expect([right.status, right.error?.error_type]).toEqual([400, 'reset_password']);
    const wrong = await signIn(h.org.organization_id, 'Not-The-Password-123');
    expect([wrong.status, wrong.error?.error_type]).toEqual([401, 'unauthorized_credentials']);
    // The browser API answers alike, and so does a change with the existing password.
    const browser = await h.call(ENDPOINTS.passwordsAuthenticate, {
      body: {
        organization_id: h.org.organization_id,
        email_address: 'ada@acme.test',
        password: PASSWORD,
        session_duration_minutes: 60,
      },
    });
    expect(browser.error?.error_type).toBe('reset_password');
    const existing = await h.call(ENDPOINTS.backendPasswordsResetExisting, {
      body: {
        organization_id: h.org.organization_id,
        email_address: 'ada@acme.test',
        existing_password: PASSWORD,
        new_password: NEW_PASSWORD,
      },
    });
    expect(existing.error?.error_type).toBe('reset_password');
    // Ada's membership of Globex was not named: its password still signs in.
    expect((await signIn(globex.organization_id)).status).toBe(200);
  });

  it('ends once a reset link sets a new password', async () => {
    await setPasswords();
    expectOk(await requireReset({ email_address: 'ada@acme.test', member_id: h.member.member_id }));
    expect((await signIn(h.org.organization_id)).error?.error_type).toBe('reset_password');
    expectOk(
      await h.call(ENDPOINTS.backendPasswordsResetStart, {
        body: { organization_id: h.org.organization_id, email_address: 'ada@acme.test' },
      }),
    );
    const token = await h.lastToken('ada@acme.test');
    expectOk(
      await h.call(ENDPOINTS.backendPasswordsReset, {
        body: { password_reset_token: token, password: NEW_PASSWORD, session_duration_minutes: 60 },
      }),
    );
    expect((await signIn(h.org.organization_id, NEW_PASSWORD)).status).toBe(200);
  });

  it('with the address alone marks every membership of it, discovery included', async () => {
    await setPasswords();
    const marked = expectOk(await requireReset({ email_address: 'ADA@acme.test' }));
    expect(marked.member_id).toBeUndefined();
    expect((await signIn(h.org.organization_id)).error?.error_type).toBe('reset_password');
    expect((await signIn(globex.organization_id)).error?.error_type).toBe('reset_password');
    const discovery = await h.call(ENDPOINTS.backendPasswordsDiscoveryAuthenticate, {
      body: { email_address: 'ada@acme.test', password: PASSWORD },
    });
    expect([discovery.status, discovery.error?.error_type]).toEqual([400, 'reset_password']);
    const wrong = await h.call(ENDPOINTS.backendPasswordsDiscoveryAuthenticate, {
      body: { email_address: 'ada@acme.test', password: 'Not-The-Password-123' },
    });
    expect(wrong.error?.error_type).toBe('unauthorized_credentials');
  });

  it("refuses another organization's member under this organization, a wrong address and another project's key", async () => {
    await setPasswords();
    const crossed = await requireReset({
      email_address: 'ada@acme.test',
      organization_id: h.org.organization_id,
      member_id: adaAtGlobex.member_id,
    });
    expect([crossed.status, crossed.error?.error_type]).toEqual([404, 'member_not_found']);
    const otherAddress = await requireReset({
      email_address: 'grace@acme.test',
      member_id: h.member.member_id,
    });
    expect([otherAddress.status, otherAddress.error?.error_type]).toEqual([
      404,
      'member_not_found',
    ]);
    const unknown = await requireReset({ email_address: 'nobody@acme.test' });
    expect([unknown.status, unknown.error?.error_type]).toEqual([404, 'member_not_found']);
    const noOrg = await requireReset({
      email_address: 'ada@acme.test',
      organization_id: 'organization-test-nope',
    });
    expect([noOrg.status, noOrg.error?.error_type]).toEqual([404, 'organization_not_found']);
    const bad = await requireReset({ email_address: 'not-an-address' });
    expect([bad.status, bad.error?.error_type]).toEqual([400, 'invalid_email']);
    const project = await h.admin.createProject({ name: 'Elsewhere' });
    const foreign = await h.call(ENDPOINTS.backendPasswordsRequireReset, {
      body: { email_address: 'ada@acme.test', member_id: h.member.member_id },
      authorization: basic(project.project_id, project.secret),
    });
    expect([foreign.status, foreign.error?.error_type]).toEqual([404, 'member_not_found']);
    // None of them marked anything.
    expect((await signIn(h.org.organization_id)).status).toBe(200);
    expect((await signIn(globex.organization_id)).status).toBe(200);
  });

  it('concurrent calls all succeed and leave the password marked once, cleared by one new password', async () => {
    await setPasswords();
    const answers = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        requireReset(
          i % 2 === 0
            ? { email_address: 'ada@acme.test', member_id: h.member.member_id }
            : { email_address: 'ada@acme.test', organization_id: h.org.organization_id },
        ),
      ),
    );
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200, 200, 200]);
    expect((await signIn(h.org.organization_id)).error?.error_type).toBe('reset_password');
    await h.admin.setMemberPassword(h.project.project_id, h.member.member_id, {
      password: NEW_PASSWORD,
    });
    expect((await signIn(h.org.organization_id, NEW_PASSWORD)).status).toBe(200);
  });
});
