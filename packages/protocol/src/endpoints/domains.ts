/**
 * An organization's verified e-mail domains, for its admins (docs/protocol.md §7.12): listing
 * them, adding one with the DNS TXT record to publish, removing one and verifying one on demand.
 */
import { z } from 'zod';
import type { DomainDeleteResult, DomainResult, DomainsResult } from '../domains.js';
import { endpoint } from './endpoint.js';

export const DOMAIN_ENDPOINTS = {
  organizationDomains: endpoint<DomainsResult>()({
    method: 'GET',
    path: '/sdk/v1/b2b/organizations/me/domains',
    credential: 'S',
    summary:
      "The caller's organization's e-mail domains with their TXT records and status (`stytch.organization` `update.settings.allowed-domains`).",
    body: null,
  }),
  organizationDomainAdd: endpoint<DomainResult>()({
    method: 'POST',
    path: '/sdk/v1/b2b/organizations/me/domains',
    credential: 'S',
    summary:
      "Adds a domain to the caller's organization, pending until its TXT record is found (`stytch.organization` `update.settings.allowed-domains`).",
    body: z.object({ domain: z.string().max(253) }).strict(),
  }),
  organizationDomainDelete: endpoint<DomainDeleteResult>()({
    method: 'DELETE',
    path: '/sdk/v1/b2b/organizations/me/domains/:domain_id',
    credential: 'S',
    summary:
      "Removes a domain of the caller's organization, and with it the claim (`stytch.organization` `update.settings.allowed-domains`).",
    body: null,
  }),
  organizationDomainVerify: endpoint<DomainResult>()({
    method: 'POST',
    path: '/sdk/v1/b2b/organizations/me/domains/:domain_id/verify',
    credential: 'S',
    summary:
      "Looks up a domain's TXT record now and marks it verified when it holds the token (`stytch.organization` `update.settings.allowed-domains`).",
    body: null,
  }),
} as const;
