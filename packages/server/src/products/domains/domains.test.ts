// An organization's admins prove e-mail domains by DNS (docs/protocol.md §7.12), against a DNS
// server on loopback: adding, verifying, refusals, other organizations' ids, members without the
// permission, one organization per domain (concurrent verifications included), slow and silent
// DNS, the verification budget and hostile input. Runs on SQLite and PostgreSQL.
import type { Organization } from '@gatehouse/protocol';
import { ENDPOINTS } from '@gatehouse/protocol/endpoints';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError, expectOk, startHarness, type Harness } from '../../test/harness.js';
import { magicLogin } from '../../test/mfa.js';
import { startDnsStub, type DnsStub } from '../../test/dns-stub.js';
import { VERIFY_ATTEMPTS_PER_ORGANIZATION_PER_HOUR } from './routes.js';

let h: Harness;
let dns: DnsStub;
let count = 0;

beforeAll(async () => {
  dns = await startDnsStub();
  h = await startHarness({ config: { dnsServers: [dns.server] } });
});

afterAll(async () => {
  await h?.close();
  await dns?.close();
});

interface Team {
  org: Organization;
  /** An admin's session. */
  admin: string;
  /** A plain member's session. */
  plain: string;
}

/** A fresh organization with a signed-in admin and a signed-in plain member. */
async function team(): Promise<Team> {
  const slug = `domains-${++count}`;
  const org = await h.admin.createOrganization(h.project.project_id, {
    organization_name: slug,
    organization_slug: slug,
  });
  const tokens: string[] = [];
  for (const [name, roles] of [
    ['boss', ['admin']],
    ['ada', []],
  ] as const) {
    const email = `${name}@${slug}.test`;
    await h.admin.createMember(h.project.project_id, org.organization_id, {
      email_address: email,
      roles: [...roles],
    });
    tokens.push((await magicLogin(h, email, org.organization_id)).session_token);
  }
  return { org, admin: tokens[0]!, plain: tokens[1]! };
}

async function add(t: Team, domain: string) {
  return h.call(ENDPOINTS.organizationDomainAdd, { token: t.admin, body: { domain } });
}

async function verify(t: Team, domainId: string, token = t.admin) {
  return h.call(ENDPOINTS.organizationDomainVerify, { token, params: { domain_id: domainId } });
}

async function claimed(t: Team): Promise<string[]> {
  return expectOk(await h.call(ENDPOINTS.organizationMe, { token: t.admin })).organization
    .claimed_email_domains;
}

/** Adds a domain and publishes its record on the stub. */
async function published(t: Team, domain: string) {
  const added = expectOk(await add(t, domain)).domain;
  dns.txt.set(added.txt_record.name, [
    ...(dns.txt.get(added.txt_record.name) ?? []),
    added.txt_record.value,
  ]);
  return added;
}

describe('adding a domain', () => {
  it('normalizes it and answers the TXT record to publish, pending', async () => {
    const t = await team();
    const added = expectOk(await add(t, '  Mail.Example-Corp.TEST. ')).domain;
    expect(added.domain).toBe('mail.example-corp.test');
    expect(added.status).toBe('pending');
    expect(added.verified_at).toBeNull();
    expect(added.txt_record.name).toBe('_gatehouse-verification.mail.example-corp.test');
    expect(added.txt_record.value).toMatch(/^gatehouse-verification=[A-Za-z0-9_-]{43}$/);
    const listed = expectOk(await h.call(ENDPOINTS.organizationDomains, { token: t.admin }));
    expect(listed.domains).toEqual([added]);
    expect(await claimed(t)).toEqual([]);
  });

  it('refuses one the organization already lists, in any case', async () => {
    const t = await team();
    expectOk(await add(t, 'twice.test'));
    const again = await add(t, 'TWICE.test');
    expect(again.status).toBe(409);
    expect(expectError(again).error_type).toBe('domain_already_added');
  });

  it('refuses public mail domains with the organizations’ own list', async () => {
    const t = await team();
    for (const domain of ['gmail.com', 'Outlook.COM', 'yahoo.co.uk.']) {
      const res = await add(t, domain);
      expect(res.status).toBe(400);
      expect(expectError(res).error_type).toBe('invalid_email_domain');
    }
  });

  it('refuses what is not a host name, and hostile sizes, with a 4xx', async () => {
    const t = await team();
    for (const domain of [
      '',
      'localhost',
      '127.0.0.1',
      '-acme.test',
      'acme-.test',
      'a..test',
      'acme test.com',
      'acme.test/path',
      'user@acme.test',
      `${'a'.repeat(64)}.test`,
      `${'a'.repeat(63)}.${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(55)}.1`,
    ]) {
      const res = await add(t, domain);
      expect(res.status, domain).toBe(400);
      expect(expectError(res).error_type, domain).toBe('invalid_domain');
    }
    // Past 253 characters, and NUL anywhere, the body itself is refused.
    for (const domain of [
      `${'a.'.repeat(126)}test`,
      `${'a'.repeat(100_000)}.test`,
      'ac\u0000me.test',
    ]) {
      const res = await add(t, domain);
      expect(res.status).toBe(400);
      expect(expectError(res).error_type).toBe('invalid_request');
    }
    const extra = await h.call(ENDPOINTS.organizationDomainAdd, {
      token: t.admin,
      body: { domain: 'extra.test', verified: true } as never,
    });
    expect(extra.status).toBe(400);
    const longId = await verify(t, 'x'.repeat(5000));
    expect(longId.status).toBeGreaterThanOrEqual(400);
    expect(longId.status).toBeLessThan(500);
    expect(
      expectOk(await h.call(ENDPOINTS.organizationDomains, { token: t.admin })).domains,
    ).toEqual([]);
  });
});

describe('verifying a domain', () => {
  it('marks it verified when the TXT record holds its token, and it joins the claimed domains', async () => {
    const t = await team();
    const added = await published(t, 'verified-one.test');
    dns.txt.set(added.txt_record.name, ['v=spf1 -all', ` ${added.txt_record.value} `]);
    const verified = expectOk(await verify(t, added.domain_id)).domain;
    expect(verified.status).toBe('verified');
    expect(verified.verified_at).not.toBeNull();
    expect(verified.last_checked_at).not.toBeNull();
    expect(dns.asked).toContain(added.txt_record.name);
    expect(await claimed(t)).toEqual(['verified-one.test']);
    // A verified domain may be allowed for joining by e-mail from a member session.
    const updated = expectOk(
      await h.call(ENDPOINTS.organizationUpdateMe, {
        token: t.admin,
        body: { email_allowed_domains: ['verified-one.test'] },
      }),
    ).organization;
    expect(updated.email_allowed_domains).toEqual(['verified-one.test']);
    // A pending one may not.
    const pending = expectOk(await add(t, 'pending-one.test')).domain;
    const refused = await h.call(ENDPOINTS.organizationUpdateMe, {
      token: t.admin,
      body: { email_allowed_domains: ['verified-one.test', pending.domain] },
    });
    expect(refused.status).toBe(400);
    expect(expectError(refused).error_type).toBe('invalid_email_domain');
  });

  it('answers domain_record_missing when the name has no TXT record, and stays pending', async () => {
    const t = await team();
    const added = expectOk(await add(t, 'unpublished.test')).domain;
    const res = await verify(t, added.domain_id);
    expect(res.status).toBe(400);
    const error = expectError(res);
    expect(error.error_type).toBe('domain_record_missing');
    expect(error.error_message).toContain('_gatehouse-verification.unpublished.test');
    const [listed] = expectOk(
      await h.call(ENDPOINTS.organizationDomains, { token: t.admin }),
    ).domains;
    expect(listed?.status).toBe('pending');
    expect(listed?.last_checked_at).not.toBeNull();
    expect(await claimed(t)).toEqual([]);
  });

  it('answers domain_token_mismatch for a record with another token', async () => {
    const t = await team();
    const added = expectOk(await add(t, 'wrong-token.test')).domain;
    dns.txt.set(added.txt_record.name, [
      'gatehouse-verification=someone-elses-token',
      `${added.txt_record.value}x`,
    ]);
    const res = await verify(t, added.domain_id);
    expect(res.status).toBe(400);
    expect(expectError(res).error_type).toBe('domain_token_mismatch');
    expect(await claimed(t)).toEqual([]);
  });

  it('answers 503 dns_lookup_failed when DNS does not answer within 5 s', async () => {
    const t = await team();
    const added = expectOk(await add(t, 'silent.test')).domain;
    dns.silent.add(added.txt_record.name);
    const started = Date.now();
    const res = await verify(t, added.domain_id);
    expect(res.status).toBe(503);
    expect(expectError(res).error_type).toBe('dns_lookup_failed');
    expect(Date.now() - started).toBeLessThan(9000);
  }, 20_000);

  it('does not hold up other requests while DNS is slow', async () => {
    const t = await team();
    const added = await published(t, 'slow.test');
    dns.delays.set(added.txt_record.name, 1500);
    const started = Date.now();
    const slow = verify(t, added.domain_id);
    await new Promise((resolve) => setTimeout(resolve, 100));
    const listedAt = Date.now();
    expectOk(await h.call(ENDPOINTS.organizationDomains, { token: t.admin }));
    expectOk(await h.call(ENDPOINTS.organizationMe, { token: t.plain }));
    expect(Date.now() - listedAt).toBeLessThan(1000);
    expect(expectOk(await slow).domain.status).toBe('verified');
    expect(Date.now() - started).toBeGreaterThanOrEqual(1400);
  });

  it('limits verification attempts per organization', async () => {
    const t = await team();
    for (let i = 0; i < VERIFY_ATTEMPTS_PER_ORGANIZATION_PER_HOUR; i++) {
      expect((await verify(t, 'email-domain-test-unknown')).status).toBe(404);
    }
    const limited = await verify(t, 'email-domain-test-unknown');
    expect(limited.status).toBe(429);
    expect(expectError(limited).error_type).toBe('too_many_requests');
    // Another organization's budget is its own.
    const other = await team();
    expect((await verify(other, 'email-domain-test-unknown')).status).toBe(404);
  });
});

describe('one organization per domain', () => {
  it('refuses a domain verified by another organization until that one removes it', async () => {
    const a = await team();
    const b = await team();
    const ofA = await published(a, 'shared.test');
    expectOk(await verify(a, ofA.domain_id));
    const ofB = await published(b, 'shared.test');
    const refused = await verify(b, ofB.domain_id);
    expect(refused.status).toBe(409);
    expect(expectError(refused).error_type).toBe('domain_claimed');
    expect(await claimed(b)).toEqual([]);
    expectOk(
      await h.call(ENDPOINTS.organizationDomainDelete, {
        token: a.admin,
        params: { domain_id: ofA.domain_id },
      }),
    );
    expect(await claimed(a)).toEqual([]);
    expect(expectOk(await verify(b, ofB.domain_id)).domain.status).toBe('verified');
    expect(await claimed(b)).toEqual(['shared.test']);
  });

  it('lets exactly one of two organizations verifying at the same time through (concurrent)', async () => {
    const teams = await Promise.all([team(), team(), team()]);
    const ids: string[] = [];
    for (const t of teams) ids.push((await published(t, 'race.test')).domain_id);
    const answers = await Promise.all(teams.map((t, i) => verify(t, ids[i]!)));
    expect(answers.map((r) => r.status).sort()).toEqual([200, 409, 409]);
    const owners: Team[] = [];
    for (const t of teams) if ((await claimed(t)).includes('race.test')) owners.push(t);
    expect(owners).toHaveLength(1);
  });

  it('answers concurrent verifications of one domain alike, claiming it once', async () => {
    const t = await team();
    const added = await published(t, 'many.test');
    const answers = await Promise.all(Array.from({ length: 6 }, () => verify(t, added.domain_id)));
    for (const res of answers) expect(expectOk(res).domain.status).toBe('verified');
    expect(await claimed(t)).toEqual(['many.test']);
  });
});

describe('claimed domains outside the member session', () => {
  it('are found by the management API’s organization search, and freed when the organization is deleted', async () => {
    const a = await team();
    const b = await team();
    const ofA = await published(a, 'searched.test');
    expectOk(await verify(a, ofA.domain_id));
    const found = expectOk(
      await h.call(ENDPOINTS.searchOrganizations, {
        body: {
          query: {
            operator: 'AND',
            operands: [{ filter_name: 'claimed_email_domains', filter_value: ['Searched.TEST'] }],
          },
        },
      }),
    );
    expect(found.organizations.map((o) => o.organization_id)).toEqual([a.org.organization_id]);
    expect(found.organizations[0]?.claimed_email_domains).toEqual(['searched.test']);
    const ofB = await published(b, 'searched.test');
    expect((await verify(b, ofB.domain_id)).status).toBe(409);
    expectOk(
      await h.call(ENDPOINTS.deleteOrganization, {
        params: { organization_id: a.org.organization_id },
      }),
    );
    expect(expectOk(await verify(b, ofB.domain_id)).domain.status).toBe('verified');
  });
});

describe('who may manage domains', () => {
  it('answers 403 unauthorized_action to a member without stytch.organization update', async () => {
    const t = await team();
    const added = expectOk(await add(t, 'guarded.test')).domain;
    const calls = [
      h.call(ENDPOINTS.organizationDomains, { token: t.plain }),
      h.call(ENDPOINTS.organizationDomainAdd, { token: t.plain, body: { domain: 'mine.test' } }),
      h.call(ENDPOINTS.organizationDomainDelete, {
        token: t.plain,
        params: { domain_id: added.domain_id },
      }),
      verify(t, added.domain_id, t.plain),
    ];
    for (const res of await Promise.all(calls)) {
      expect(res.status).toBe(403);
      expect(expectError(res).error_type).toBe('unauthorized_action');
    }
    expect(
      expectOk(await h.call(ENDPOINTS.organizationDomains, { token: t.admin })).domains,
    ).toEqual([added]);
  });

  it('answers 401 without a session', async () => {
    const res = await h.sdk('/b2b/organizations/me/domains', { method: 'GET' });
    expect(res.status).toBe(401);
  });

  it('treats another organization’s domain ids as unknown', async () => {
    const a = await team();
    const b = await team();
    const ofA = await published(a, 'theirs.test');
    const asB = await verify(b, ofA.domain_id);
    expect(asB.status).toBe(404);
    expect(expectError(asB).error_type).toBe('domain_not_found');
    const removed = await h.call(ENDPOINTS.organizationDomainDelete, {
      token: b.admin,
      params: { domain_id: ofA.domain_id },
    });
    expect(removed.status).toBe(404);
    expect(expectError(removed).error_type).toBe('domain_not_found');
    expect(
      expectOk(await h.call(ENDPOINTS.organizationDomains, { token: b.admin })).domains,
    ).toEqual([]);
    const [stillThere] = expectOk(
      await h.call(ENDPOINTS.organizationDomains, { token: a.admin }),
    ).domains;
    expect(stillThere?.domain_id).toBe(ofA.domain_id);
    expect(stillThere?.status).toBe('pending');
  });
});
