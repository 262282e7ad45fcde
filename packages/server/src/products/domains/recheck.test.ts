// The daily re-check of verified domains (docs/protocol.md §7.12): a record still there keeps the
// domain verified; one missing for three checks in a row takes the domain out of the claimed
// domains; a domain checked within the day is left alone.
import { ENDPOINTS } from '@gatehouse/protocol/endpoints';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ResolvedConfig } from '../../config.js';
import { expectOk, startHarness, type Harness } from '../../test/harness.js';
import { startDnsStub, type DnsStub } from '../../test/dns-stub.js';
import { FAILURES_BEFORE_UNVERIFY, RECHECK_INTERVAL_MS, recheckDueDomains } from './recheck.js';

let h: Harness;
let dns: DnsStub;
let token: string;
/** How far the re-check's clock is ahead of the server's, so that sessions stay live. */
let ahead = 0;

const silentLog = { info: () => undefined, warn: () => undefined, error: () => undefined };

beforeAll(async () => {
  dns = await startDnsStub();
  h = await startHarness({ config: { dnsServers: [dns.server] } });
  await h.admin.createMember(h.project.project_id, h.org.organization_id, {
    email_address: 'boss@acme.test',
    roles: ['admin'],
  });
  token = (await h.login('boss@acme.test')).session_token;
});

afterAll(async () => {
  await h?.close();
  await dns?.close();
});

function recheck() {
  return recheckDueDomains(
    {
      db: h.db,
      config: { dnsServers: [dns.server] } as ResolvedConfig,
      now: () => h.clock.now + ahead,
      log: silentLog,
    },
    new AbortController().signal,
  );
}

async function listed() {
  return expectOk(await h.call(ENDPOINTS.organizationDomains, { token })).domains;
}

async function claimed() {
  return expectOk(await h.call(ENDPOINTS.organizationMe, { token })).organization
    .claimed_email_domains;
}

describe('the daily re-check', () => {
  it('keeps a domain whose record stays, and unverifies one missing three times in a row', async () => {
    const kept = expectOk(
      await h.call(ENDPOINTS.organizationDomainAdd, { token, body: { domain: 'kept.test' } }),
    ).domain;
    const lost = expectOk(
      await h.call(ENDPOINTS.organizationDomainAdd, { token, body: { domain: 'lost.test' } }),
    ).domain;
    for (const d of [kept, lost]) {
      dns.txt.set(d.txt_record.name, [d.txt_record.value]);
      expectOk(
        await h.call(ENDPOINTS.organizationDomainVerify, {
          token,
          params: { domain_id: d.domain_id },
        }),
      );
    }
    expect(await claimed()).toEqual(['kept.test', 'lost.test']);
    // Checked just now: nothing is due.
    expect(await recheck()).toBe(0);

    dns.txt.delete(lost.txt_record.name);
    for (let round = 1; round <= FAILURES_BEFORE_UNVERIFY; round++) {
      ahead += RECHECK_INTERVAL_MS + 1000;
      expect(await recheck()).toBe(2);
      const lostNow = (await listed()).find((d) => d.domain_id === lost.domain_id);
      expect(lostNow?.status).toBe(round < FAILURES_BEFORE_UNVERIFY ? 'verified' : 'pending');
    }
    expect(await claimed()).toEqual(['kept.test']);
    const keptNow = (await listed()).find((d) => d.domain_id === kept.domain_id);
    expect(keptNow?.status).toBe('verified');
    // An unverified domain is no longer re-checked; the verified one is, a day later.
    ahead += RECHECK_INTERVAL_MS + 1000;
    expect(await recheck()).toBe(1);
  });

  it('forgives a miss once the record is back', async () => {
    const d = expectOk(
      await h.call(ENDPOINTS.organizationDomainAdd, { token, body: { domain: 'flaky.test' } }),
    ).domain;
    dns.txt.set(d.txt_record.name, [d.txt_record.value]);
    expectOk(
      await h.call(ENDPOINTS.organizationDomainVerify, {
        token,
        params: { domain_id: d.domain_id },
      }),
    );
    for (let round = 0; round < FAILURES_BEFORE_UNVERIFY * 2; round++) {
      // Missing every other day: never three in a row.
      if (round % 2 === 0) dns.txt.delete(d.txt_record.name);
      else dns.txt.set(d.txt_record.name, [d.txt_record.value]);
      ahead += RECHECK_INTERVAL_MS + 1000;
      await recheck();
    }
    expect((await listed()).find((x) => x.domain_id === d.domain_id)?.status).toBe('verified');
    expect(await claimed()).toContain('flaky.test');
  });
});
