// Resending and revoking pending invitations from a member session (§7.1): stytch.member create,
// the caller's own organization only, invited members only; a revoked invitation's links stop
// working, and a revocation racing an acceptance never undoes it.
import { ENDPOINTS } from '@gatehouse/protocol/endpoints';
import { describe, expect, it } from 'vitest';
import { basic, expectError, expectOk } from '../../test/harness.js';
import { useInviteFixture } from './invite-fixture.js';

const { fixture, invite, accept, statusOf } = useInviteFixture();

const resend = (member_id: string, token = fixture.boss) =>
  fixture.h.call(ENDPOINTS.magicLinksInviteResend, { token, body: { member_id } });
const revoke = (member_id: string, token = fixture.boss) =>
  fixture.h.call(ENDPOINTS.magicLinksInviteRevoke, { token, body: { member_id } });

async function invited(email: string, roles?: string[]) {
  return expectOk(
    await invite({ email_address: email, name: 'Invitee', ...(roles ? { roles } : {}) }),
  ).member;
}

describe('resending an invitation', () => {
  it('e-mails a new link that signs the invitee in, keeping their name and roles', async () => {
    const { h } = fixture;
    const member = await invited('again@acme.test', ['admin']);
    const first = await h.lastToken('again@acme.test');
    const sent = expectOk(await resend(member.member_id));
    expect(sent.member_id).toBe(member.member_id);
    expect(sent.member.status).toBe('invited');
    expect(sent.member.name).toBe('Invitee');
    expect(sent.member.roles.map((r) => r.role_id).sort()).toEqual(['admin', 'member']);
    const second = await h.lastToken('again@acme.test');
    expect(second).not.toBe(first);
    const joined = expectOk(await accept(second));
    expect(joined.member.status).toBe('active');
    // Joined: there is nothing left to resend.
    expect(expectError(await resend(member.member_id)).error_type).toBe('member_already_active');
  });

  it('refuses members never invited, and removed ones', async () => {
    const { h } = fixture;
    const pending = await h.admin.createMember(h.project.project_id, h.org.organization_id, {
      email_address: 'pending@acme.test',
      status: 'pending',
    });
    const res = await resend(pending.member_id);
    expect(res.status).toBe(404);
    expect(expectError(res).error_type).toBe('invitation_not_found');
    const gone = await invited('gone@acme.test');
    expectOk(await revoke(gone.member_id));
    expect(expectError(await resend(gone.member_id)).error_type).toBe('member_not_found');
  });
});

describe('revoking an invitation', () => {
  it('removes the invited member and voids every link they were sent', async () => {
    const { h } = fixture;
    const member = await invited('revoked@acme.test');
    const first = await h.lastToken('revoked@acme.test');
    expectOk(await resend(member.member_id));
    const second = await h.lastToken('revoked@acme.test');
    expect(expectOk(await revoke(member.member_id))).toMatchObject({ member_id: member.member_id });
    expect(await statusOf('revoked@acme.test')).toBe('deleted');
    for (const token of [first, second]) {
      const res = await accept(token);
      expect(res.status).toBe(404);
    }
    expect(await statusOf('revoked@acme.test')).toBe('deleted');
    // Revoked once: again is not found, as for any removed member.
    expect(expectError(await revoke(member.member_id)).error_type).toBe('member_not_found');
  });

  it('never removes a member who joined', async () => {
    const { h } = fixture;
    const boss = expectOk(await h.call(ENDPOINTS.memberMe, { token: fixture.boss })).member;
    const res = await revoke(boss.member_id);
    expect(res.status).toBe(400);
    expect(expectError(res).error_type).toBe('member_already_active');
    expect(await statusOf('boss@acme.test')).toBe('active');
  });

  it('lets exactly one of a revocation and an acceptance at the same moment win', async () => {
    const { h } = fixture;
    for (let round = 0; round < 4; round++) {
      const email = `race${round}@acme.test`;
      const member = await invited(email);
      const token = await h.lastToken(email);
      const [revoked, accepted] = await Promise.all([revoke(member.member_id), accept(token)]);
      const status = await statusOf(email);
      if (revoked.status === 200) {
        expect(accepted.status).not.toBe(200);
        expect(status).toBe('deleted');
      } else {
        expect(accepted.status).toBe(200);
        expect(expectError(revoked).error_type).toBe('member_already_active');
        expect(status).toBe('active');
      }
    }
  });

  it('never brings back an invitation revoked at the same moment as it is resent', async () => {
    for (let round = 0; round < 4; round++) {
      const member = await invited(`resend-race${round}@acme.test`);
      // Either may start first.
      const [revoked, resent] =
        round % 2 === 0
          ? await Promise.all([revoke(member.member_id), resend(member.member_id)])
          : await Promise.all([resend(member.member_id), revoke(member.member_id)]).then(
              ([b, a]) => [a, b] as const,
            );
      expect(revoked.status).toBe(200);
      // Resent before the revocation, or refused after it: either way the invitation is gone.
      if (resent.status !== 200) {
        expect(['member_not_found', 'invitation_not_found']).toContain(
          expectError(resent).error_type,
        );
      }
      expect(await statusOf(`resend-race${round}@acme.test`)).toBe('deleted');
    }
  });

  it('revokes once when asked many times at once', async () => {
    const member = await invited('many@acme.test');
    const answers = await Promise.all(Array.from({ length: 5 }, () => revoke(member.member_id)));
    expect(answers.filter((a) => a.status === 200)).toHaveLength(1);
    for (const a of answers.filter((x) => x.status !== 200)) {
      expect(['member_not_found', 'invitation_not_found']).toContain(expectError(a).error_type);
    }
  });
});

describe('abuse', () => {
  it('answers 403 to members without stytch.member create, before reading the body', async () => {
    const { h } = fixture;
    const member = await invited('guarded@acme.test');
    const plain = (await h.login('ada@acme.test')).session_token;
    for (const res of [
      await resend(member.member_id, plain),
      await revoke(member.member_id, plain),
    ]) {
      expect(res.status).toBe(403);
      expect(expectError(res).error_type).toBe('unauthorized_action');
    }
    const badBody = await h.sdk('/b2b/magic_links/email/invite/revoke', {
      token: plain,
      body: { bogus: 1 },
    });
    expect(badBody.status).toBe(403);
    expect(badBody.error?.error_type).toBe('unauthorized_action');
    expect(await statusOf('guarded@acme.test')).toBe('invited');
  });

  it("answers 404 for another organization's invitations and leaves them alone", async () => {
    const { h } = fixture;
    const theirs = expectOk(
      await h.call(ENDPOINTS.createOrganization, {
        body: { organization_name: 'Elsewhere', organization_slug: 'elsewhere-invites' },
      }),
    ).organization;
    const member = expectOk(
      await invite({ email_address: 'them@else.test', organization_id: theirs.organization_id }),
    ).member;
    const before = await fixture.h.lastToken('them@else.test');
    for (const res of [await resend(member.member_id), await revoke(member.member_id)]) {
      expect(res.status).toBe(404);
      expect(expectError(res).error_type).toBe('member_not_found');
    }
    expect(await statusOf('them@else.test', theirs.organization_id)).toBe('invited');
    expect(await fixture.h.lastToken('them@else.test')).toBe(before);
  });

  it('refuses credentials that are not a session', async () => {
    const { h } = fixture;
    const member = await invited('creds@acme.test');
    const jwt = (await h.login('boss@acme.test')).session_jwt;
    const asJwt = await revoke(member.member_id, jwt);
    expect(expectError(asJwt).error_type).toBe('session_not_found');
    const secret = await h.call(ENDPOINTS.magicLinksInviteRevoke, {
      authorization: basic(h.project.project_id, h.project.secret),
      body: { member_id: member.member_id },
    });
    expect(secret.status).toBe(401);
    const publicOnly = await h.call(ENDPOINTS.magicLinksInviteResend, {
      body: { member_id: member.member_id },
    });
    expect(publicOnly.status).toBe(401);
    expect(await statusOf('creds@acme.test')).toBe('invited');
  });
});
