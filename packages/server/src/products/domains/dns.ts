/**
 * Looking up a domain's verification record with node:dns (docs/protocol.md §7.12). The lookup
 * is asynchronous (c-ares), so a slow DNS server holds up only the call waiting for it, and it is
 * cut off after {@link LOOKUP_TIMEOUT_MS} whatever the servers do.
 */
import { Resolver } from 'node:dns/promises';

/** How long one lookup may take, all servers and tries included. */
export const LOOKUP_TIMEOUT_MS = 5000;
/** The label the record is published under. */
const RECORD_LABEL = '_gatehouse-verification';
/** The prefix of the record's value. */
const VALUE_PREFIX = 'gatehouse-verification=';

/** What a lookup found: the TXT strings, none (the name has no TXT record), or no answer. */
export type TxtLookup =
  { kind: 'found'; values: string[] } | { kind: 'none' } | { kind: 'failed'; reason: string };

/**
 * The record a domain's admins publish for a token.
 *
 * @example
 * verificationRecord('acme.com', 't0k'); // { name: '_gatehouse-verification.acme.com', value: 'gatehouse-verification=t0k' }
 */
export function verificationRecord(domain: string, token: string): { name: string; value: string } {
  return { name: `${RECORD_LABEL}.${domain}`, value: `${VALUE_PREFIX}${token}` };
}

// Answers that say the name or its TXT record does not exist, as against failures to get one.
const NO_RECORD = new Set(['ENOTFOUND', 'ENODATA', 'NXDOMAIN']);

/**
 * Looks up the TXT record at `name` on `servers` (null: the system's), each record's strings
 * joined as RFC 7208 §3.3 joins them. `signal` cancels it (the server closing).
 *
 * @example
 * const found = await lookupTxt('_gatehouse-verification.acme.com', ['127.0.0.1:5353']);
 */
export async function lookupTxt(
  name: string,
  servers: readonly string[] | null,
  signal?: AbortSignal,
): Promise<TxtLookup> {
  // One resolver per lookup: its servers come from the config, and cancelling it ends only this.
  const resolver = new Resolver({ timeout: LOOKUP_TIMEOUT_MS, tries: 1 });
  if (servers) resolver.setServers(servers);
  let timer: NodeJS.Timeout | undefined;
  const cancel = () => resolver.cancel();
  signal?.addEventListener('abort', cancel, { once: true });
  try {
    const deadline = new Promise<TxtLookup>((resolve) => {
      timer = setTimeout(() => {
        resolver.cancel();
        resolve({ kind: 'failed', reason: 'timeout' });
      }, LOOKUP_TIMEOUT_MS);
    });
    const lookup = resolver.resolveTxt(name).then(
      (records): TxtLookup => ({ kind: 'found', values: records.map((parts) => parts.join('')) }),
      (error: unknown): TxtLookup => {
        const code = (error as { code?: unknown }).code;
        if (typeof code === 'string' && NO_RECORD.has(code)) return { kind: 'none' };
        return { kind: 'failed', reason: typeof code === 'string' ? code : 'error' };
      },
    );
    return await Promise.race([lookup, deadline]);
  } finally {
    clearTimeout(timer);
    signal?.removeEventListener('abort', cancel);
  }
}

/**
 * Whether one of the TXT values is exactly the domain's expected value (surrounding blanks
 * aside, as DNS consoles add them).
 *
 * @example
 * holdsToken(['v=spf1 -all', 'gatehouse-verification=t0k'], 'gatehouse-verification=t0k'); // true
 */
export function holdsToken(values: readonly string[], expected: string): boolean {
  return values.some((value) => value.trim() === expected);
}
