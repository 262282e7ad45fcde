/**
 * An organization's e-mail domains proven by DNS (docs/protocol.md §7.12): each added domain
 * carries the TXT record its admins publish, and becomes verified when the server finds it.
 */
import type { Ack } from './api.js';

/** Where a domain's proof stands. */
export type DomainStatus = 'pending' | 'verified';

/** The DNS TXT record that proves control of a domain. */
export interface DomainTxtRecord {
  /** The record's name: `_gatehouse-verification.<domain>`. */
  name: string;
  /** The record's value: `gatehouse-verification=<token>`. */
  value: string;
}

/** One domain of an organization, as its admins see it. */
export interface OrganizationDomain {
  domain_id: string;
  /** Lower-case host name, without a trailing dot. */
  domain: string;
  status: DomainStatus;
  /** What to publish in DNS; stays the same while the domain is listed. */
  txt_record: DomainTxtRecord;
  /** When it was last proven (RFC 3339); null while pending. */
  verified_at: string | null;
  /** When the record was last looked up, on demand or by the daily re-check; null if never. */
  last_checked_at: string | null;
  created_at: string;
}

/** The organization's domains, oldest first. */
export interface DomainsResult extends Ack {
  domains: OrganizationDomain[];
}

/** One domain, after it was added or verified. */
export interface DomainResult extends Ack {
  domain: OrganizationDomain;
}

/** The domain removed. */
export interface DomainDeleteResult extends Ack {
  domain_id: string;
}
