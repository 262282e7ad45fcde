/**
 * An organization's e-mail domains proven by DNS (docs/protocol.md §7.12): adding one with a
 * random token, verifying it by looking up its TXT record, removing it. Verified domains are the
 * organization's `claimed_email_domains`, and one organization of a project holds a domain at a
 * time.
 */
import type { OrganizationDomain } from '@gatehouse/protocol';
import { isoAt, type Context, type Db } from '../../context.js';
import { newId, newToken } from '../../crypto/random.js';
import { allOrNothing, type Failure } from '../../result.js';
import { refusePublicDomains } from '../../tenancy/organizations/jit-domains.js';
import { updateOrganizationRow } from '../../tenancy/organizations/store.js';
import type { Project } from '../../tenancy/projects/service.js';
import { holdsToken, lookupTxt, verificationRecord } from './dns.js';
import {
  dnsLookupFailed,
  domainAlreadyAdded,
  domainClaimed,
  domainNotFound,
  domainRecordMissing,
  domainTokenMismatch,
  invalidDomain,
  tooManyDomains,
} from './errors.js';
import {
  countDomains,
  deleteDomain,
  domainRow,
  domainRows,
  insertDomain,
  markVerified,
  recordFailedCheck,
  verifiedDomainsOf,
  verifiedElsewhere,
  type DomainRow,
} from './store.js';

/** The most domains one organization lists, so that a member session cannot grow a table. */
export const MAX_DOMAINS_PER_ORGANIZATION = 100;

const LABEL = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/;

/**
 * A domain as stored: trimmed, lower-case, without the trailing dot of a fully qualified name;
 * null unless it is a host name of at least two labels whose last is not all digits (so no IP
 * address).
 *
 * @example
 * normalizeDomain(' Mail.ACME.com. '); // 'mail.acme.com'
 * normalizeDomain('acme'); // null
 */
export function normalizeDomain(raw: string): string | null {
  const domain = raw.trim().toLowerCase().replace(/\.$/, '');
  if (domain.length === 0 || domain.length > 253) return null;
  const labels = domain.split('.');
  if (labels.length < 2 || !labels.every((label) => LABEL.test(label))) return null;
  return /^[0-9]+$/.test(labels[labels.length - 1] ?? '') ? null : domain;
}

/** The wire form of a row. */
function toDomain(row: DomainRow): OrganizationDomain {
  return {
    domain_id: row.id,
    domain: row.domain,
    status: row.verified_at === null ? 'pending' : 'verified',
    txt_record: verificationRecord(row.domain, row.token),
    verified_at: row.verified_at,
    last_checked_at: row.last_checked_at,
    created_at: row.created_at,
  };
}

/** Writes the organization's `claimed_email_domains` from its verified rows. */
export async function syncClaimedDomains(
  db: Db,
  projectId: string,
  organizationId: string,
): Promise<void> {
  const claimed = await verifiedDomainsOf(db, projectId, organizationId);
  await updateOrganizationRow(db, projectId, organizationId, {
    claimed_email_domains: JSON.stringify(claimed),
  });
}

/**
 * The organization's domains, oldest first.
 *
 * @example
 * const domains = await listDomains(ctx, project.id, member.organization_id);
 */
export async function listDomains(
  ctx: Context,
  projectId: string,
  organizationId: string,
): Promise<OrganizationDomain[]> {
  return (await domainRows(ctx.db, projectId, organizationId)).map(toDomain);
}

/**
 * Adds a domain, pending, with a fresh token; refuses a malformed one (400 `invalid_domain`), a
 * public mail provider's (400 `invalid_email_domain`), one already listed (409
 * `domain_already_added`) and more than {@link MAX_DOMAINS_PER_ORGANIZATION} (400).
 *
 * @example
 * const added = await addDomain(ctx, project, member.organization_id, 'acme.com');
 */
export async function addDomain(
  ctx: Context,
  project: Project,
  organizationId: string,
  raw: string,
): Promise<OrganizationDomain | Failure> {
  const domain = normalizeDomain(raw);
  if (domain === null) return invalidDomain();
  const publicRefusal = refusePublicDomains([domain]);
  if (publicRefusal) return publicRefusal;
  return allOrNothing(ctx.db, async (trx) => {
    if ((await countDomains(trx, project.id, organizationId)) >= MAX_DOMAINS_PER_ORGANIZATION) {
      return tooManyDomains(MAX_DOMAINS_PER_ORGANIZATION);
    }
    const row: DomainRow = {
      id: newId('email-domain', project.environment),
      project_id: project.id,
      organization_id: organizationId,
      domain,
      token: newToken(),
      verified_domain: null,
      verified_at: null,
      last_checked_at: null,
      check_failures: 0,
      created_at: isoAt(ctx.now()),
    };
    if (!(await insertDomain(trx, row))) return domainAlreadyAdded(domain);
    return toDomain(row);
  });
}

/**
 * Removes a domain of the organization, and with it the organization's claim to it.
 *
 * @example
 * unwrap(await removeDomain(ctx, project.id, member.organization_id, domainId));
 */
export async function removeDomain(
  ctx: Context,
  projectId: string,
  organizationId: string,
  id: string,
): Promise<{ domain_id: string } | Failure> {
  return allOrNothing(ctx.db, async (trx) => {
    if (!(await deleteDomain(trx, projectId, organizationId, id))) return domainNotFound();
    await syncClaimedDomains(trx, projectId, organizationId);
    return { domain_id: id };
  });
}

/**
 * Looks up the domain's TXT record now and marks it verified when one value is its token. The
 * lookup runs outside any transaction: a slow DNS server holds no connection or lock. Refusals:
 * 404 `domain_not_found`, 409 `domain_claimed` (another organization of the project holds it),
 * 400 `domain_record_missing` or `domain_token_mismatch`, 503 `dns_lookup_failed`.
 *
 * @example
 * const verified = await verifyDomain(ctx, project.id, member.organization_id, domainId);
 */
export async function verifyDomain(
  ctx: Context,
  projectId: string,
  organizationId: string,
  id: string,
): Promise<OrganizationDomain | Failure> {
  const row = await domainRow(ctx.db, projectId, organizationId, id);
  if (!row) return domainNotFound();
  if (await verifiedElsewhere(ctx.db, projectId, organizationId, row.domain)) {
    return domainClaimed(row.domain);
  }
  const record = verificationRecord(row.domain, row.token);
  const found = await lookupTxt(record.name, ctx.config.dnsServers);
  if (found.kind === 'failed') return dnsLookupFailed(record.name);
  const at = isoAt(ctx.now());
  if (found.kind === 'none' || !holdsToken(found.values, record.value)) {
    // A single write: the failed check is recorded for the list, whatever follows.
    await recordFailedCheck(ctx.db, row.id, at);
    return found.kind === 'none'
      ? domainRecordMissing(record.name)
      : domainTokenMismatch(record.name);
  }
  return allOrNothing(ctx.db, async (trx) => {
    // Read again: the domain may have been removed while DNS answered.
    const current = await domainRow(trx, projectId, organizationId, id);
    if (!current) return domainNotFound();
    if (!(await markVerified(trx, current, at))) return domainClaimed(current.domain);
    await syncClaimedDomains(trx, projectId, organizationId);
    const updated = await domainRow(trx, projectId, organizationId, id);
    return updated ? toDomain(updated) : domainNotFound();
  });
}
