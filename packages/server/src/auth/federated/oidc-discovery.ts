/** Finding an OIDC provider's endpoints from its issuer (OpenID Connect Discovery), with openid-client. */
import * as oidc from 'openid-client';
import { fail, type Failure } from '../../result.js';

/** The issuer is not https (nor a loopback http issuer). */
export const issuerNotHttps = (): Failure =>
  fail('oidc_discovery_failed', 'The issuer must use https.');

/** The issuer is not a URL. */
export const issuerNotUrl = (): Failure =>
  fail('oidc_discovery_failed', 'The issuer is not an absolute URL.');

/** How long a discovery request may take before the provider counts as unreachable. */
const DISCOVERY_TIMEOUT_SECONDS = 10;

/** Loopback issuers may use plain http (a provider on the same machine, as in development). */
function isLoopbackHttp(url: URL): boolean {
  return (
    url.protocol === 'http:' &&
    (url.hostname === '127.0.0.1' || url.hostname === 'localhost' || url.hostname === '[::1]')
  );
}

/**
 * Checks an issuer URL: https, or http on a loopback host only.
 *
 * @example
 * const url = issuerUrl(body.issuer); if (isFailure(url)) return url;
 */
export function issuerUrl(issuer: string): URL | Failure {
  let url: URL;
  try {
    url = new URL(issuer);
  } catch {
    return issuerNotUrl();
  }
  if (url.protocol !== 'https:' && !isLoopbackHttp(url)) {
    return issuerNotHttps();
  }
  return url;
}

/**
 * An openid-client configuration for a provider: its discovery document fetched and checked
 * (the document's `issuer` must equal the one given), and the client's credentials attached.
 *
 * @example
 * const config = await discoverProvider('https://idp.example.com', clientId, clientSecret);
 */
export async function discoverProvider(
  issuer: string,
  clientId: string,
  clientSecret: string,
): Promise<oidc.Configuration | Failure> {
  const url = issuerUrl(issuer);
  if (url instanceof URL) {
    try {
      return await oidc.discovery(
        url,
        clientId,
        { client_secret: clientSecret },
        oidc.ClientSecretBasic(clientSecret),
        {
          timeout: DISCOVERY_TIMEOUT_SECONDS,
          ...(isLoopbackHttp(url) ? { execute: [oidc.allowInsecureRequests] } : {}),
        },
      );
    } catch (error) {
      const reason = error instanceof Error ? error.message : 'unknown error';
      return fail(
        'oidc_discovery_failed',
        `The issuer's discovery document could not be read: ${reason}`,
      );
    }
  }
  return url;
}
