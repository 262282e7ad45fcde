// Housekeeping deletes only rows that expired more than a day ago.
import { ENDPOINTS } from '@gatehouse/protocol/endpoints';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectOk, startHarness, type Harness } from '../test/harness.js';
import { magicLogin, mfaOrganization, totpAt } from '../test/mfa.js';
import { SecretBox } from '../crypto/secret-box.js';
import { claimDueMail, enqueueMail, listMail, recordAttempt } from '../delivery/mail-queue.js';
import { purgeExpired } from './housekeeping.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h.close();
});

describe('purgeExpired', () => {
  it('keeps live and recently expired rows, deletes old ones', async () => {
    const login = await h.login();
    await h.call(ENDPOINTS.magicLinksDiscoverySend, {
      body: { email_address: 'ada@acme.test' },
    });
    expect(await purgeExpired(h.db, h.clock.now)).toEqual({
      tokens: 0,
      intermediateSessions: 0,
      sessions: 0,
      rateLimits: 0,
      otpCodes: 0,
      pendingTotps: 0,
      events: 0,
      mail: 0,
    });
    const later = h.clock.now + 2 * 24 * 60 * 60 * 1000;
    const purged = await purgeExpired(h.db, later);
    expect(purged.tokens).toBe(2);
    expect(purged.sessions).toBe(1);
    h.clock.now = later;
    const res = await h.call(ENDPOINTS.sessionsAuthenticate, {
      body: {},
      token: login.session_token,
    });
    expect(res.error?.error_type).toBe('session_not_found');
  });

  it('deletes old SMS codes and abandoned TOTP registrations, keeps confirmed ones', async () => {
    const { org, member, email } = await mfaOrganization(h, 'purge');
    const ids = { organization_id: org.organization_id, member_id: member.member_id };
    const pending = await magicLogin(h, email, org.organization_id);
    const ist = pending.intermediate_session_token;
    await h.call(ENDPOINTS.smsSend, {
      body: { ...ids, intermediate_session_token: ist, mfa_phone_number: '+14155550191' },
    });
    const abandoned = await h.call(ENDPOINTS.totpCreate, {
      body: { ...ids, intermediate_session_token: ist },
    });
    expect(abandoned.status).toBe(200);

    const other = await h.admin.createMember(h.project.project_id, org.organization_id, {
      email_address: 'kept@purge.test',
    });
    const otherIds = { organization_id: org.organization_id, member_id: other.member_id };
    const otherIst = (await magicLogin(h, 'kept@purge.test', org.organization_id))
      .intermediate_session_token;
    const kept = expectOk(
      await h.call(ENDPOINTS.totpCreate, {
        body: { ...otherIds, intermediate_session_token: otherIst },
      }),
    );
    const done = await h.call(ENDPOINTS.totpAuthenticate, {
      body: {
        ...otherIds,
        intermediate_session_token: otherIst,
        code: totpAt(kept.secret, h.clock.now),
      },
    });
    expect(done.status).toBe(200);

    const purged = await purgeExpired(h.db, h.clock.now + 2 * 24 * 60 * 60 * 1000);
    expect([purged.otpCodes, purged.pendingTotps]).toEqual([1, 1]);
    const registrations = await h.db.selectFrom('totp_registrations').select('id').execute();
    expect(registrations.map((r) => r.id)).toEqual([kept.totp_id]);
    const codes = await h.db.selectFrom('recovery_codes').select('totp_registration_id').execute();
    expect(codes).toHaveLength(10);
    expect(codes.every((c) => c.totp_registration_id === kept.totp_id)).toBe(true);
  });

  it('deletes e-mail sent a day ago and given up a week ago, never pending e-mail', async () => {
    const box = new SecretBox(Buffer.from(h.serverKey, 'hex'));
    const day = 24 * 60 * 60 * 1000;
    const start = h.clock.now;
    for (const to of ['sent@purge.test', 'failed@purge.test', 'pending@purge.test']) {
      await enqueueMail(h.db, box, to, { subject: 's', text: 't', html: 'h', links: [] }, start);
    }
    const { claimed } = await claimDueMail(h.db, box, start, 10);
    for (const mail of claimed) {
      const outcome =
        mail.to === 'sent@purge.test'
          ? ({ kind: 'sent' } as const)
          : mail.to === 'failed@purge.test'
            ? ({ kind: 'failed', reason: 'permanent', error: 'rejected with 550' } as const)
            : ({ kind: 'retry', error: 'timed out', at: start + 30_000 } as const);
      expect(await recordAttempt(h.db, mail, outcome, start)).toBe(true);
    }
    const left = async () => (await listMail(h.db)).map((m) => m.to).sort();
    expect((await purgeExpired(h.db, start + day / 2)).mail).toBe(0);
    expect((await purgeExpired(h.db, start + 2 * day)).mail).toBe(1);
    expect(await left()).toEqual(['failed@purge.test', 'pending@purge.test']);
    expect((await purgeExpired(h.db, start + 8 * day)).mail).toBe(1);
    expect(await left()).toEqual(['pending@purge.test']);
  });
});
