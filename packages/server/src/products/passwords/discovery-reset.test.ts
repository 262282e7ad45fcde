// Password reset in discovery, browser and management API alike: a link sent to an address (the
// same answer for an unknown one), spent once and expiring, that sets the password of every
// membership of the address that signs in with a password and answers a discovery sign-in.
import { ENDPOINTS } from '@gatehouse/protocol/endpoints';
import type { Member, Organization } from '@gatehouse/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { basic, expectOk, startHarness, type Harness } from '../../test/harness.js';

const OLD_PASSWORD = 'Quartz-Lantern-Orbit-42';
const NEW_PASSWORD = 'Velvet-Harbor-Compass-77';

let h: Harness;
let globex: Organization;
let linksOnly: Organization;
let adaAtGlobex: Member;
let adaLinksOnly: Member;

beforeAll(async () => {
  h = await startHarness({ config: { rateLimits: { sendsPerEmailPerHour: 8 } } });
  globex = await h.admin.createOrganization(h.project.project_id, {
    organization_name: 'Globex',
    organization_slug: 'globex-discovery-reset',
  });
  linksOnly = await h.admin.createOrganization(h.project.project_id, {
    organization_name: 'Links Only',
    organization_slug: 'links-only-discovery-reset',
    auth_methods: 'RESTRICTED',
    allowed_auth_methods: ['magic_link'],
  });
  adaAtGlobex = await h.addMember('ada@acme.test', [], globex.organization_id);
  adaLinksOnly = await h.addMember('ada@acme.test', [], linksOnly.organization_id);
  await h.addMember('grace@acme.test');
});
afterAll(async () => {
  await h.close();
});

/** Every membership of Ada gets the old password again. */
async function setOldPasswords(): Promise<void> {
  for (const id of [h.member.member_id, adaAtGlobex.member_id, adaLinksOnly.member_id]) {
    await h.admin.setMemberPassword(h.project.project_id, id, { password: OLD_PASSWORD });
  }
}

const browserStart = (email: string, extra: { pkce_code_challenge?: string } = {}) =>
  h.call(ENDPOINTS.passwordsDiscoveryResetStart, { body: { email_address: email, ...extra } });
const browserReset = (token: string, password = NEW_PASSWORD, verifier?: string) =>
  h.call(ENDPOINTS.passwordsDiscoveryReset, {
    body: {
      password_reset_token: token,
      password,
      ...(verifier === undefined ? {} : { pkce_code_verifier: verifier }),
    },
  });
const backendStart = (email: string) =>
  h.call(ENDPOINTS.backendPasswordsDiscoveryResetStart, { body: { email_address: email } });
const backendReset = (token: string, password = NEW_PASSWORD, authorization?: string) =>
  h.call(ENDPOINTS.backendPasswordsDiscoveryReset, {
    body: { password_reset_token: token, password },
    ...(authorization ? { authorization } : {}),
  });
const signIn = (organizationId: string, password: string) =>
  h.call(ENDPOINTS.backendPasswordsAuthenticate, {
    body: { organization_id: organizationId, email_address: 'ada@acme.test', password },
  });
/** An answer without the fields every answer has: what it says about the address. */
const said = (data: object) =>
  Object.fromEntries(
    Object.entries(data).filter(([key]) => key !== 'request_id' && key !== 'status_code'),
  );
const mailsTo = async (email: string) =>
  (await h.admin.listOutbox({ limit: 200 })).filter((m) => m.to === email).length;

describe('discovery password reset', () => {
  it('sets the password of every membership that signs in with one, and answers a discovery sign-in', async () => {
    await setOldPasswords();
    const before = expectOk(await signIn(h.org.organization_id, OLD_PASSWORD));
    expect(said(expectOk(await browserStart('ada@acme.test')))).toEqual({});
    const sent = (await h.admin.listOutbox({ limit: 5 })).find((m) => m.to === 'ada@acme.test');
    const link = new URL(sent?.links[0] ?? '');
    expect(link.searchParams.get('stytch_token_type')).toBe('discovery');
    const token = await h.lastToken('ada@acme.test');
    const linksOnlyHash = () =>
      h.db
        .selectFrom('passwords')
        .select('hash')
        .where('member_id', '=', adaLinksOnly.member_id)
        .executeTakeFirstOrThrow();
    const untouched = await linksOnlyHash();

    const found = expectOk(await browserReset(token));
    expect(found.email_address).toBe('ada@acme.test');
    expect(found.intermediate_session_token).not.toBe('');
    expect(found.discovered_organizations.map((d) => d.organization.organization_id)).toEqual(
      expect.arrayContaining([h.org.organization_id, globex.organization_id]),
    );
    // Both organizations that take passwords have the new one; the old one is gone there.
    expect((await signIn(h.org.organization_id, NEW_PASSWORD)).status).toBe(200);
    expect((await signIn(globex.organization_id, NEW_PASSWORD)).status).toBe(200);
    expect((await signIn(globex.organization_id, OLD_PASSWORD)).status).toBe(401);
    // The organization that takes no passwords kept its member's password untouched.
    expect(await linksOnlyHash()).toEqual(untouched);
    // The new password ended the sessions the old one had started.
    const stale = await h.call(ENDPOINTS.authenticateSession, {
      body: { session_token: before.session_token },
    });
    expect(stale.status).toBe(404);
    // The IST enters an organization: the link proved the address.
    const entered = await h.call(ENDPOINTS.discoveryExchange, {
      body: {
        intermediate_session_token: found.intermediate_session_token,
        organization_id: globex.organization_id,
        session_duration_minutes: 60,
      },
    });
    expect(expectOk(entered).member_authenticated).toBe(true);
  });

  it('answers an unknown address, and one whose organizations take no password, the same, sending nothing', async () => {
    const outboxBefore = (await h.admin.listOutbox({ limit: 200 })).length;
    const unknown = await browserStart('nobody@acme.test');
    const known = await browserStart('grace@acme.test');
    expect([unknown.status, known.status]).toEqual([200, 200]);
    expect(said(expectOk(unknown))).toEqual(said(expectOk(known)));
    expect(said(expectOk(unknown))).toEqual({});
    const backend = await backendStart('nobody@acme.test');
    expect(said(expectOk(backend))).toEqual({});
    // Grace is a member of Acme, which takes passwords: she gets a link; nobody else does.
    expect(await mailsTo('nobody@acme.test')).toBe(0);
    expect((await h.admin.listOutbox({ limit: 200 })).length).toBe(outboxBefore + 1);
    const bad = await browserStart('not-an-address');
    expect([bad.status, bad.error?.error_type]).toEqual([400, 'invalid_email']);
  });

  it('spends a link once, even under concurrent resets, and refuses an expired one', async () => {
    await setOldPasswords();
    expectOk(await backendStart('ada@acme.test'));
    const token = await h.lastToken('ada@acme.test');
    const answers = await Promise.all(Array.from({ length: 5 }, () => backendReset(token)));
    expect(answers.filter((a) => a.status === 200)).toHaveLength(1);
    for (const refused of answers.filter((a) => a.status !== 200)) {
      expect([refused.status, refused.error?.error_type]).toEqual([
        404,
        'password_reset_token_not_found',
      ]);
    }
    expectOk(await backendStart('ada@acme.test'));
    const late = await h.lastToken('ada@acme.test');
    h.clock.advance(31 * 60_000);
    const expired = await backendReset(late);
    expect([expired.status, expired.error?.error_type]).toEqual([
      404,
      'password_reset_token_not_found',
    ]);
  });

  it('keeps the link through a weak password and a PKCE mismatch; another project and the organization reset cannot spend it', async () => {
    const verifier = 'v'.repeat(43);
    const { createHash } = await import('node:crypto');
    const challenge = createHash('sha256').update(verifier).digest('base64url');
    expectOk(await browserStart('ada@acme.test', { pkce_code_challenge: challenge }));
    const token = await h.lastToken('ada@acme.test');
    const weak = await browserReset(token, 'password', verifier);
    expect(weak.error?.error_type).toBe('weak_password');
    const mismatch = await browserReset(token, NEW_PASSWORD, 'w'.repeat(43));
    expect(mismatch.error?.error_type).toBe('pkce_mismatch');
    const other = await h.admin.createProject({ name: 'Elsewhere' });
    const foreign = await backendReset(token, NEW_PASSWORD, basic(other.project_id, other.secret));
    expect([foreign.status, foreign.error?.error_type]).toEqual([
      404,
      'password_reset_token_not_found',
    ]);
    const asOrganizationLink = await h.call(ENDPOINTS.backendPasswordsReset, {
      body: { password_reset_token: token, password: NEW_PASSWORD, session_duration_minutes: 60 },
    });
    expect(asOrganizationLink.error?.error_type).toBe('password_reset_token_not_found');
    expect((await browserReset(token, NEW_PASSWORD, verifier)).status).toBe(200);
  });

  it("refuses an organization's reset link here, and voids an outstanding link once any new password is set", async () => {
    expectOk(
      await h.call(ENDPOINTS.backendPasswordsResetStart, {
        body: { organization_id: h.org.organization_id, email_address: 'ada@acme.test' },
      }),
    );
    const organizationToken = await h.lastToken('ada@acme.test');
    const crossed = await backendReset(organizationToken);
    expect(crossed.error?.error_type).toBe('password_reset_token_not_found');
    expectOk(await backendStart('ada@acme.test'));
    const token = await h.lastToken('ada@acme.test');
    await h.admin.setMemberPassword(h.project.project_id, adaAtGlobex.member_id, {
      password: OLD_PASSWORD,
    });
    const voided = await backendReset(token);
    expect(voided.error?.error_type).toBe('password_reset_token_not_found');
  });

  it('limits sends per address like the other reset e-mails, for unknown addresses too', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 10; i += 1)
      statuses.push((await browserStart('stranger@acme.test')).status);
    expect(statuses.slice(0, 8)).toEqual(Array(8).fill(200));
    expect(statuses.slice(8)).toEqual([429, 429]);
  });
});
