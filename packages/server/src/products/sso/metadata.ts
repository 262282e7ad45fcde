/** Reading a SAML IdP's metadata (by URL or as XML): entity ID, single sign-on URL, signing certificates. */
import { lookup } from 'node:dns/promises';
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { BlockList, isIP, type LookupFunction } from 'node:net';
import { fail, type Failure } from '../../result.js';

const METADATA_NS = 'urn:oasis:names:tc:SAML:2.0:metadata';
const DSIG_NS = 'http://www.w3.org/2000/09/xmldsig#';
const REDIRECT_BINDING = 'urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect';
const MAX_METADATA_BYTES = 1024 * 1024;
const FETCH_TIMEOUT_MS = 10_000;

/** What the connection needs from the metadata. */
export interface IdpMetadata {
  entityId: string;
  ssoUrl: string;
  /** Base64 DER bodies of the signing certificates. */
  certificates: string[];
}

const invalid = (message: string): Failure => fail('invalid_saml_metadata', message);

/** Addresses a metadata URL of a live project may not point at: this network and this host. */
const INTERNAL = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.168.0.0', 16],
] as const) {
  INTERNAL.addSubnet(net, prefix, 'ipv4');
}
for (const [net, prefix] of [
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
  ['::', 128],
] as const) {
  INTERNAL.addSubnet(net, prefix, 'ipv6');
}

function isInternal(address: string): boolean {
  const family = isIP(address) === 6 ? 'ipv6' : 'ipv4';
  return INTERNAL.check(address, family);
}

/** Resolves a host name to all its addresses; an empty list when it has none. */
export type ResolveHost = (hostname: string) => Promise<string[]>;

/** The system resolver (`getaddrinfo`, as connections use). */
export const systemResolver: ResolveHost = (hostname) =>
  lookup(hostname, { all: true }).then(
    (found) => found.map((a) => a.address),
    () => [],
  );

/**
 * A `lookup` for one connection that answers the address already checked, whatever the name: the
 * connection goes where the check looked, and a second resolution (DNS rebinding) never happens.
 * TLS still names the host (SNI, certificate check) and `Host` still carries it.
 */
function pinnedLookup(address: string): LookupFunction {
  const family = isIP(address) === 6 ? 6 : 4;
  return (_hostname, options, callback) => {
    if (options.all) callback(null, [{ address, family }]);
    else callback(null, address, family);
  };
}

/**
 * Fetches metadata: https, or http for a test project's loopback IdP. A live project's URL may
 * not reach private or loopback addresses, so the server cannot be made to read its own network.
 * The host is resolved once: the connection goes to the first address checked.
 */
async function fetchMetadata(
  text: string,
  allowLoopback: boolean,
  resolveHost: ResolveHost,
): Promise<string | Failure> {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return invalid('The metadata_url is not an absolute URL.');
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    return invalid('The metadata_url must use https.');
  }
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const addresses = isIP(host) !== 0 ? [host] : await resolveHost(host).catch(() => []);
  const first = addresses[0];
  if (first === undefined) return invalid(`The host ${url.hostname} could not be resolved.`);
  const loopbackOnly = addresses.every((a) => a === '::1' || a.startsWith('127.'));
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && allowLoopback && loopbackOnly)) {
    return invalid('The metadata_url must use https.');
  }
  if (!(allowLoopback && loopbackOnly) && addresses.some(isInternal)) {
    return invalid('The metadata_url points into a private network.');
  }
  return getPinned(url, first);
}

/** GETs the URL from `address` (no redirects, no pooled connection), capped in time and size. */
function getPinned(url: URL, address: string): Promise<string | Failure> {
  const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((resolve) => {
    const failed = (error: Error) =>
      resolve(invalid(`The metadata could not be fetched: ${error.message}`));
    const request = send(
      url,
      {
        lookup: pinnedLookup(address),
        agent: false,
        signal: AbortSignal.timeout(FETCH_TIMEOUT_MS),
      },
      (response) => {
        const status = response.statusCode ?? 0;
        const tooLarge = () => {
          request.destroy();
          resolve(invalid('The metadata is larger than 1 MB.'));
        };
        if (status < 200 || status > 299) {
          request.destroy();
          return resolve(invalid(`Fetching the metadata answered HTTP ${status}.`));
        }
        if (Number(response.headers['content-length'] ?? 0) > MAX_METADATA_BYTES) return tooLarge();
        const chunks: Buffer[] = [];
        let size = 0;
        response.on('data', (chunk: Buffer) => {
          size += chunk.byteLength;
          // Nothing past the cap is read or held.
          if (size > MAX_METADATA_BYTES) return tooLarge();
          chunks.push(chunk);
        });
        response.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
        response.on('error', failed);
      },
    );
    request.on('error', failed);
    request.end();
  });
}

/** Parses IdP metadata XML; the XML parser loads on the first metadata read, not at start. */
async function parseIdpMetadata(xml: string): Promise<IdpMetadata | Failure> {
  const { DOMParser } = await import('@xmldom/xmldom');
  const errors: string[] = [];
  const doc = new DOMParser({
    errorHandler: {
      warning: () => undefined,
      error: (message: string) => errors.push(message),
      fatalError: (message: string) => errors.push(message),
    },
  }).parseFromString(xml, 'text/xml') as Document | undefined;
  // For an empty source the parser reports an error and answers no document at all.
  const root = doc?.documentElement;
  if (errors.length > 0 || !root) return invalid('The metadata is not well-formed XML.');
  const entity =
    root.localName === 'EntityDescriptor'
      ? root
      : root.getElementsByTagNameNS(METADATA_NS, 'EntityDescriptor').item(0);
  const entityId = entity?.getAttribute('entityID') ?? '';
  const idp = entity?.getElementsByTagNameNS(METADATA_NS, 'IDPSSODescriptor').item(0);
  if (!entity || !idp || entityId === '') {
    return invalid('The metadata has no EntityDescriptor with an IDPSSODescriptor.');
  }
  const services = idp.getElementsByTagNameNS(METADATA_NS, 'SingleSignOnService');
  let redirect = null;
  for (let i = 0; i < services.length && !redirect; i += 1) {
    const service = services.item(i);
    if (service?.getAttribute('Binding') === REDIRECT_BINDING) redirect = service;
  }
  const ssoUrl = redirect?.getAttribute('Location') ?? '';
  if (ssoUrl === '') {
    return invalid('The IdP offers no SingleSignOnService with the HTTP-Redirect binding.');
  }
  const keys = idp.getElementsByTagNameNS(METADATA_NS, 'KeyDescriptor');
  const certificates: string[] = [];
  for (let i = 0; i < keys.length; i += 1) {
    const key = keys.item(i);
    const use = key?.getAttribute('use') ?? '';
    if (!key || (use !== '' && use !== 'signing')) continue;
    const cert = key.getElementsByTagNameNS(DSIG_NS, 'X509Certificate').item(0);
    const body = cert?.textContent?.replace(/\s+/g, '') ?? '';
    if (body !== '') certificates.push(body);
  }
  if (certificates.length === 0) return invalid('The metadata names no signing certificate.');
  return { entityId, ssoUrl, certificates };
}

/**
 * Reads IdP metadata from `metadata_xml`, or fetches it from `metadata_url`, resolving its host
 * with `resolveHost` (the system's by default).
 *
 * @example
 * const metadata = await readIdpMetadata({ metadata_url: 'https://idp.example/metadata' }, false);
 */
export async function readIdpMetadata(
  input: { metadata_url?: string | undefined; metadata_xml?: string | undefined },
  allowLoopback: boolean,
  resolveHost: ResolveHost = systemResolver,
): Promise<IdpMetadata | Failure> {
  const xml =
    input.metadata_xml ??
    (await fetchMetadata(input.metadata_url ?? '', allowLoopback, resolveHost));
  return typeof xml === 'string' ? await parseIdpMetadata(xml) : xml;
}
