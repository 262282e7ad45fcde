/** Reading a SAML IdP's metadata (by URL or as XML): entity ID, single sign-on URL, signing certificates. */
import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';
import { DOMParser } from '@xmldom/xmldom';
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

/**
 * Fetches metadata: https, or http for a test project's loopback IdP. A live project's URL may
 * not reach private or loopback addresses, so the server cannot be made to read its own network.
 */
async function fetchMetadata(text: string, allowLoopback: boolean): Promise<string | Failure> {
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
  const addresses =
    isIP(host) !== 0
      ? [host]
      : await lookup(host, { all: true }).then(
          (found) => found.map((a) => a.address),
          () => [],
        );
  if (addresses.length === 0) return invalid(`The host ${url.hostname} could not be resolved.`);
  const loopbackOnly = addresses.every((a) => a === '::1' || a.startsWith('127.'));
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && allowLoopback && loopbackOnly)) {
    return invalid('The metadata_url must use https.');
  }
  if (!(allowLoopback && loopbackOnly) && addresses.some(isInternal)) {
    return invalid('The metadata_url points into a private network.');
  }
  try {
    const response = await fetch(url, {
      redirect: 'error',
      signal: AbortSignal.timeout(FETCH_TIMEOUT_MS),
    });
    if (!response.ok) return invalid(`Fetching the metadata answered HTTP ${response.status}.`);
    const length = Number(response.headers.get('content-length') ?? 0);
    if (length > MAX_METADATA_BYTES) return invalid('The metadata is larger than 1 MB.');
    return (await readCapped(response)) ?? invalid('The metadata is larger than 1 MB.');
  } catch (error) {
    const reason = error instanceof Error ? error.message : 'unknown error';
    return invalid(`The metadata could not be fetched: ${reason}`);
  }
}

/** The body as text, or null once it passes the cap: nothing past the cap is read or held. */
async function readCapped(response: Response): Promise<string | null> {
  if (!response.body) return '';
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of response.body) {
    size += chunk.byteLength;
    // Leaving the loop cancels the stream, so the rest is never downloaded.
    if (size > MAX_METADATA_BYTES) return null;
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** Parses IdP metadata XML. */
export function parseIdpMetadata(xml: string): IdpMetadata | Failure {
  const errors: string[] = [];
  const doc = new DOMParser({
    errorHandler: {
      warning: () => undefined,
      error: (message: string) => errors.push(message),
      fatalError: (message: string) => errors.push(message),
    },
  }).parseFromString(xml, 'text/xml');
  const root = doc.documentElement;
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
 * Reads IdP metadata from `metadata_xml`, or fetches it from `metadata_url`.
 *
 * @example
 * const metadata = await readIdpMetadata({ metadata_url: 'https://idp.example/metadata' }, false);
 */
export async function readIdpMetadata(
  input: { metadata_url?: string | undefined; metadata_xml?: string | undefined },
  allowLoopback: boolean,
): Promise<IdpMetadata | Failure> {
  const xml = input.metadata_xml ?? (await fetchMetadata(input.metadata_url ?? '', allowLoopback));
  return typeof xml === 'string' ? parseIdpMetadata(xml) : xml;
}
