/**
 * Our SAML service provider: AuthnRequests (HTTP-Redirect binding) and SP metadata with
 * @node-saml/node-saml, and the verification of responses posted to the ACS, bounded here and
 * checked on worker threads (saml-scan.ts, saml-pool.ts, saml-verify.ts).
 */
import type { SAML } from '@node-saml/node-saml';
import { fail, type Failure } from '../../result.js';
import type { SamlSettings } from './connections.js';
import type { SamlRefusedCheck } from './saml-verify.js';
import { samlPool } from './saml-pool.js';
import { scanSamlXml } from './saml-scan.js';

/** Clock skew accepted on `NotBefore` / `NotOnOrAfter`. */
export const SAML_CLOCK_SKEW_MS = 60_000;

/** How long an assertion ID is remembered when the assertion names no expiry of its own. */
const DEFAULT_ASSERTION_LIFETIME_MS = 60 * 60_000;

/** One connection's SP as node-saml needs it. */
export interface SamlServiceProvider {
  entityId: string;
  acsUrl: string;
  settings: SamlSettings;
  /** The IdP's signing certificates (PEM); any of them may have signed a response. */
  certificates: string[];
}

async function samlFor(sp: SamlServiceProvider, requestId?: string): Promise<SAML> {
  // node-saml writes our AuthnRequests and metadata only; responses are verified in
  // saml-verify.ts, so none of its response options matter here. Loaded on first use: a server
  // without SAML connections does not hold it (bench/RESULTS.md, "Idle memory").
  const { SAML, ValidateInResponseTo } = await import('@node-saml/node-saml');
  return new SAML({
    entryPoint: sp.settings.idp_sso_url,
    issuer: sp.entityId,
    audience: sp.entityId,
    callbackUrl: sp.acsUrl,
    // node-saml needs a certificate even to write a request; a pending connection never gets here.
    idpCert: sp.certificates.length > 0 ? sp.certificates : ['unused'],
    idpIssuer: sp.settings.idp_entity_id,
    validateInResponseTo: ValidateInResponseTo.never,
    identifierFormat: null,
    disableRequestedAuthnContext: true,
    signatureAlgorithm: 'sha256',
    ...(requestId === undefined ? {} : { generateUniqueId: () => requestId }),
  });
}

/**
 * The IdP URL a browser is sent to: an AuthnRequest with our `requestId`, deflated into the
 * query (HTTP-Redirect binding).
 *
 * @example
 * const location = await authnRequestUrl(sp, `_${randomUUID()}`);
 */
export async function authnRequestUrl(sp: SamlServiceProvider, requestId: string): Promise<string> {
  return (await samlFor(sp, requestId)).getAuthorizeUrlAsync('', undefined, {});
}

/** Our side as SP metadata XML: entity ID and ACS URL (HTTP-POST). */
export async function serviceProviderMetadata(sp: SamlServiceProvider): Promise<string> {
  return (await samlFor(sp)).generateServiceProviderMetadata(null, null);
}

/** What a verified response says. */
export interface SamlAssertion {
  assertionId: string;
  /** When the assertion stops being valid (its latest `NotOnOrAfter`), for the replay record. */
  expiresAt: number;
  /** The AuthnRequest it answers; null when the IdP sent it unprompted. */
  inResponseTo: string | null;
  /** The assertion's `NameID`: the IdP's id of the person. */
  subject: string;
  email: string;
  firstName: string;
  lastName: string;
  groups: string[];
  /** Every attribute of the assertion, by name (a test sign-in shows them). */
  attributes: Record<string, string[]>;
}

/** A refused response, with the check that refused it when it is one of the named checks. */
export type SamlRefusal = Failure & { check?: SamlRefusedCheck };

function firstOf(attributes: Record<string, string[]>, name: string): string | undefined {
  return name === '' ? undefined : attributes[name]?.[0];
}

const invalid = (message: string): Failure => fail('invalid_saml_response', message);

/** The largest decoded response read (the ACS body limit bounds the base64 form anyway). */
const MAX_RESPONSE_CHARS = 768 * 1024;

/**
 * Verifies a `SAMLResponse` (base64, HTTP-POST binding) for one connection. The decoded document
 * is first bounded on this thread (saml-scan.ts: no DTD, element count, depth, attributes); the
 * parsing and every check (saml-verify.ts: signature by one of the connection's certificates,
 * a single assertion, issuer, destination, audience, times with 60 s of skew, and a bearer
 * subject confirmation for our ACS and request) run on a worker within a time budget
 * (saml-pool.ts). Answers the assertion's content, or a failure saying what was wrong. It does
 * not decide whether the request named by InResponseTo is ours, nor replays: the caller checks
 * those against the database.
 *
 * Assertion times are compared with the wall clock, as the IdP stamps them; `now` (the server's
 * clock) dates the replay record of an assertion that names no expiry.
 *
 * @example
 * const assertion = await verifySamlResponse(sp, body.SAMLResponse, Date.now());
 */
export async function verifySamlResponse(
  sp: SamlServiceProvider,
  samlResponse: string,
  now: number,
): Promise<SamlAssertion | SamlRefusal> {
  if (sp.certificates.length === 0) return invalid('The connection has no signing certificate.');
  if (!/^[A-Za-z0-9+/=\s]*$/.test(samlResponse)) {
    return invalid('The SAMLResponse is not base64.');
  }
  const xml = Buffer.from(samlResponse, 'base64').toString('utf8');
  if (xml.length > MAX_RESPONSE_CHARS) return invalid('The SAML response is too large.');
  const refusal = scanSamlXml(xml);
  if (refusal !== null) return invalid(refusal);
  const result = await samlPool().check({
    xml,
    entityId: sp.entityId,
    acsUrl: sp.acsUrl,
    idpEntityId: sp.settings.idp_entity_id,
    certificates: sp.certificates,
    now: Date.now(),
    skewMs: SAML_CLOCK_SKEW_MS,
  });
  if (!result.ok) {
    if ('busy' in result) return fail('too_many_requests', result.reason, 1);
    return result.check === undefined
      ? invalid(result.reason)
      : { ...invalid(result.reason), check: result.check };
  }
  const checked = result.assertion;
  const mapping = sp.settings.attribute_mapping;
  const { attributes } = checked;
  return {
    assertionId: checked.assertionId,
    expiresAt: (checked.notOnOrAfter ?? now + DEFAULT_ASSERTION_LIFETIME_MS) + SAML_CLOCK_SKEW_MS,
    inResponseTo: checked.inResponseTo,
    subject: checked.nameId,
    email: firstOf(attributes, mapping.email) ?? checked.nameId,
    firstName: firstOf(attributes, mapping.first_name) ?? '',
    lastName: firstOf(attributes, mapping.last_name) ?? '',
    groups: mapping.groups === '' ? [] : (attributes[mapping.groups] ?? []),
    attributes,
  };
}
