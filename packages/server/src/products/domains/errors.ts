/** The domains product's expected failures (docs/protocol.md §7.12). */
import { fail, type Failure } from '../../result.js';

export const invalidDomain = (): Failure =>
  fail(
    'invalid_domain',
    'Give a domain such as example.com: labels of letters, digits and dashes separated by dots, at most 253 characters.',
  );

export const tooManyDomains = (max: number): Failure =>
  fail('invalid_domain', `An organization lists at most ${max} domains; remove one first.`);

export const domainNotFound = (): Failure =>
  fail('domain_not_found', 'Your organization has no domain with this id.');

export const domainAlreadyAdded = (domain: string): Failure =>
  fail('domain_already_added', `Your organization already lists ${domain}.`);

export const domainClaimed = (domain: string): Failure =>
  fail(
    'domain_claimed',
    `${domain} is verified by another organization; it must remove the domain before yours can verify it.`,
  );

export const domainRecordMissing = (name: string): Failure =>
  fail(
    'domain_record_missing',
    `No TXT record was found at ${name}. Publish the record shown, wait for DNS to update, and verify again.`,
  );

export const domainTokenMismatch = (name: string): Failure =>
  fail(
    'domain_token_mismatch',
    `The TXT record at ${name} does not hold this domain's token. Publish the value shown exactly, and verify again.`,
  );

export const dnsLookupFailed = (name: string): Failure =>
  fail('dns_lookup_failed', `The DNS lookup of ${name} failed or timed out; try again shortly.`);
