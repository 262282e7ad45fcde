// A second factor never crosses organizations (§9): an attacker holding only the victim's primary
// factor (mailbox or password) who enrols a factor of their own elsewhere still meets variant B in
// the victim's organization, and only the victim's own factor completes it.
import type { AuthResult } from '@gatehouse/protocol';
import { ENDPOINTS } from '@gatehouse/protocol/endpoints';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  expectOk,
  expectSession,
  startHarness,
  type CallResponse,
  type Harness,
} from '../../test/harness.js';
import { magicLogin, totpAt } from '../../test/mfa.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h.close();
});

const PASSWORD = 'correct horse battery staple 42';

/**
 * One address with two memberships: the victim's organization (MFA required, TOTP enrolled by
 * the victim) and an organization with optional MFA where the attacker can act freely.
 */
async function victim(name: string) {
  const email = `victim@${name}.test`;
  const project = h.project.project_id;
  const victimOrg = await h.admin.createOrganization(project, {
    organization_name: `${name} secure`,
    organization_slug: `${name}-secure`,
  });
  await h.admin.updateOrganization(project, victimOrg.organization_id, {
    mfa_policy: 'REQUIRED_FOR_ALL',
  });
  const victimMember = await h.admin.createMember(project, victimOrg.organization_id, {
    email_address: email,
  });
  const otherOrg = await h.admin.createOrganization(project, {
    organization_name: `${name} relaxed`,
    organization_slug: `${name}-relaxed`,
  });
  const otherMember = await h.admin.createMember(project, otherOrg.organization_id, {
    email_address: email,
  });
  await h.admin.setMemberPassword(project, victimMember.member_id, { password: PASSWORD });

  // The victim enrols their authenticator app in their own organization.
  const pending = await magicLogin(h, email, victimOrg.organization_id);
  const victimIds = {
    organization_id: victimOrg.organization_id,
    member_id: victimMember.member_id,
  };
  const created = await h.call(ENDPOINTS.totpCreate, {
    body: { ...victimIds, intermediate_session_token: pending.intermediate_session_token },
  });
  const victimSecret = expectOk(created).secret;
  const enrolled = await h.call(ENDPOINTS.totpAuthenticate, {
    body: {
      ...victimIds,
      intermediate_session_token: pending.intermediate_session_token,
      code: totpAt(victimSecret, h.clock.now),
      session_duration_minutes: 60,
    },
  });
  expect(enrolled.status).toBe(200);
  return { email, victimOrg, victimMember, victimIds, victimSecret, otherOrg, otherMember };
}

/** Signs into the relaxed organization by e-mail and enrols the attacker's own TOTP there. */
async function attackerSessionWithOwnTotp(
  email: string,
  organizationId: string,
  memberId: string,
): Promise<string> {
  const session = await magicLogin(h, email, organizationId);
  expect(session.member_session).not.toBeNull();
  const token = session.session_token;
  const ids = { organization_id: organizationId, member_id: memberId };
  const created = await h.call(ENDPOINTS.totpCreate, { body: ids, token });
  expect(created.status).toBe(200);
  h.clock.advance(30_000);
  const passed = await h.call(ENDPOINTS.totpAuthenticate, {
    body: { ...ids, code: totpAt(expectOk(created).secret, h.clock.now) },
    token,
  });
  expect(passed.status).toBe(200);
  expect(expectOk(passed).member_session.authentication_factors.map((f) => f.type)).toContain(
    'totp',
  );
  return token;
}

/** No live session of the member exists. */
async function sessionsOf(memberId: string): Promise<number> {
  const rows = await h.db
    .selectFrom('sessions')
    .select('id')
    .where('member_id', '=', memberId)
    .where('revoked_at', 'is', null)
    .execute();
  return rows.length;
}

/** The response is variant B for the victim, and the victim's own TOTP then completes it. */
async function expectVariantBThenVictimCompletes(
  res: CallResponse<AuthResult>,
  v: Awaited<ReturnType<typeof victim>>,
): Promise<void> {
  expect(res.status).toBe(200);
  const data = expectOk(res);
  expect(data).toMatchObject({
    member_id: v.victimMember.member_id,
    member_session: null,
    session_token: '',
    session_jwt: '',
    member_authenticated: false,
    mfa_required: { secondary_auth_initiated: null },
  });
  expect(data.intermediate_session_token).not.toBe('');
  // The victim's session from enrolment is the only one in their organization.
  expect(await sessionsOf(v.victimMember.member_id)).toBe(1);

  h.clock.advance(30_000);
  const done = await h.call(ENDPOINTS.totpAuthenticate, {
    body: {
      ...v.victimIds,
      intermediate_session_token: data.intermediate_session_token,
      code: totpAt(v.victimSecret, h.clock.now),
      session_duration_minutes: 60,
    },
  });
  expect(done.status).toBe(200);
  expect(expectOk(done).member_session.organization_id).toBe(v.victimOrg.organization_id);
  expect(await sessionsOf(v.victimMember.member_id)).toBe(2);
}

describe('a second factor passed in one organization', () => {
  it('does not satisfy MFA through sessions/exchange', async () => {
    const v = await victim('route-one');
    const token = await attackerSessionWithOwnTotp(
      v.email,
      v.otherOrg.organization_id,
      v.otherMember.member_id,
    );
    const res = await h.call(ENDPOINTS.sessionsExchange, {
      body: { organization_id: v.victimOrg.organization_id, session_duration_minutes: 60 },
      token,
    });
    await expectVariantBThenVictimCompletes(res, v);
  });

  it('does not satisfy MFA through a discovery exchange made with a session', async () => {
    const v = await victim('route-two');
    const token = await attackerSessionWithOwnTotp(
      v.email,
      v.otherOrg.organization_id,
      v.otherMember.member_id,
    );
    const listed = await h.call(ENDPOINTS.discoveryOrganizations, { body: {}, token });
    const entry = expectOk(listed).discovered_organizations.find(
      (d) => d.organization.organization_id === v.victimOrg.organization_id,
    );
    expect(entry).toBeDefined();
    expect(entry?.mfa_required).not.toBeNull();
    const res = await h.call(ENDPOINTS.discoveryExchange, {
      body: { organization_id: v.victimOrg.organization_id, session_duration_minutes: 60 },
      token,
    });
    await expectVariantBThenVictimCompletes(res, v);
  });

  it('cannot be made with the password alone through a new organization', async () => {
    const v = await victim('route-three');
    const pending = await h.call(ENDPOINTS.passwordsAuthenticate, {
      body: {
        organization_id: v.victimOrg.organization_id,
        email_address: v.email,
        password: PASSWORD,
        session_duration_minutes: 60,
      },
    });
    expect(pending.status).toBe(200);
    const ist = expectOk(pending).intermediate_session_token;
    expect(ist).not.toBe('');

    const created = await h.call(ENDPOINTS.discoveryOrganizationsCreate, {
      body: { intermediate_session_token: ist, session_duration_minutes: 60 },
    });
    expect(created.status).toBe(404);
    expect(created.error?.error_type).toBe('intermediate_session_not_found');
    const orgs = await h.db
      .selectFrom('members')
      .select('organization_id')
      .where('email', '=', v.email)
      .execute();
    expect(orgs).toHaveLength(2);

    // The refused IST still serves its own member: exchanging it stays at variant B.
    const res = await h.call(ENDPOINTS.discoveryExchange, {
      body: {
        intermediate_session_token: ist,
        organization_id: v.victimOrg.organization_id,
        session_duration_minutes: 60,
      },
    });
    await expectVariantBThenVictimCompletes(res, v);
  });

  it('still counts back in its own organization when a session re-enters it', async () => {
    const v = await victim('round-trip');
    const session = await magicLogin(h, v.email, v.victimOrg.organization_id);
    h.clock.advance(30_000);
    const passed = await h.call(ENDPOINTS.totpAuthenticate, {
      body: {
        ...v.victimIds,
        intermediate_session_token: session.intermediate_session_token,
        code: totpAt(v.victimSecret, h.clock.now),
      },
    });
    expect(passed.status).toBe(200);
    const res = await h.call(ENDPOINTS.sessionsExchange, {
      body: { organization_id: v.victimOrg.organization_id, session_duration_minutes: 60 },
      token: expectOk(passed).session_token,
    });
    expect(res.status).toBe(200);
    expect(expectSession(res).member_session.member_session_id).toBe(
      expectOk(passed).member_session.member_session_id,
    );
  });
});
