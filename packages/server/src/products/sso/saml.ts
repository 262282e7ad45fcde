/**
 * Our SAML service provider, with @node-saml/node-saml: AuthnRequests (HTTP-Redirect binding),
 * SP metadata, and the checks a response must pass before anyone is signed in. node-saml verifies
 * the XML signature against the connection's certificates, the audience and the time conditions;
 * this module adds what it leaves to the caller: issuer, destination, recipient and the
 * assertion's ID and expiry for the replay record.
 */
import { SAML, ValidateInResponseTo, type Profile } from '@node-saml/node-saml';
import { fail, type Failure } from '../../result.js';
import type { SamlSettings } from './connections.js';

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

function samlFor(sp: SamlServiceProvider, requestId?: string): SAML {
  return new SAML({
    entryPoint: sp.settings.idp_sso_url,
    issuer: sp.entityId,
    audience: sp.entityId,
    callbackUrl: sp.acsUrl,
    // node-saml needs a certificate even to write a request; a pending connection never gets here.
    idpCert: sp.certificates.length > 0 ? sp.certificates : ['unused'],
    idpIssuer: sp.settings.idp_entity_id,
    // Either the response or the assertion must be signed; node-saml refuses a response with
    // neither, and an assertion outside a signed response must carry its own signature.
    wantAssertionsSigned: false,
    wantAuthnResponseSigned: false,
    acceptedClockSkewMs: SAML_CLOCK_SKEW_MS,
    // InResponseTo is checked against our database (sso_requests), which every instance shares.
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
  return samlFor(sp, requestId).getAuthorizeUrlAsync('', undefined, {});
}

/** Our side as SP metadata XML: entity ID and ACS URL (HTTP-POST). */
export function serviceProviderMetadata(sp: SamlServiceProvider): string {
  return samlFor(sp).generateServiceProviderMetadata(null, null);
}

/** What a verified response says. */
export interface SamlAssertion {
  assertionId: string;
  /** When the assertion stops being valid (its latest `NotOnOrAfter`), for the replay record. */
  expiresAt: number;
  /** The AuthnRequest it answers; null when the IdP sent it unprompted. */
  inResponseTo: string | null;
  email: string;
  firstName: string;
  lastName: string;
  groups: string[];
}

type XmlNode = { $?: Record<string, string>; _?: string } & Record<string, unknown>;

function children(node: unknown, name: string): XmlNode[] {
  if (typeof node !== 'object' || node === null) return [];
  const value = (node as Record<string, unknown>)[name];
  return Array.isArray(value) ? (value as XmlNode[]) : [];
}

function attributeValues(profile: Profile, name: string): string[] {
  if (name === '') return [];
  const attributes = (profile.attributes ?? {}) as Record<string, unknown>;
  const value = attributes[name];
  const list = Array.isArray(value) ? (value as unknown[]) : value === undefined ? [] : [value];
  return list.filter((v): v is string => typeof v === 'string' && v !== '');
}

/** The `Destination` of the response element itself (outside the assertion). */
function responseDestination(xml: string): string | null {
  const root = /<(?:[A-Za-z0-9_-]+:)?Response\b([^>]*)>/.exec(xml);
  const destination = root?.[1] ? /\sDestination="([^"]*)"/.exec(root[1]) : null;
  return destination?.[1] ?? null;
}

const invalid = (message: string): Failure => fail('invalid_saml_response', message);

/**
 * Verifies a `SAMLResponse` (base64, HTTP-POST binding) for one connection: signature by one of
 * its certificates (response or assertion), audience, time conditions with 60 s of skew, issuer,
 * destination and recipient. Answers the assertion's content, or a failure saying what was wrong.
 * It does not decide InResponseTo or replays: the caller checks those against the database.
 *
 * @example
 * const assertion = await verifySamlResponse(sp, body.SAMLResponse, Date.now());
 */
export async function verifySamlResponse(
  sp: SamlServiceProvider,
  samlResponse: string,
  now: number,
): Promise<SamlAssertion | Failure> {
  if (sp.certificates.length === 0) return invalid('The connection has no signing certificate.');
  let profile: Profile | null;
  try {
    ({ profile } = await samlFor(sp).validatePostResponseAsync({ SAMLResponse: samlResponse }));
  } catch (error) {
    const reason = error instanceof Error ? error.message : 'unreadable response';
    return invalid(`The SAML response was refused: ${reason}.`);
  }
  if (!profile) return invalid('The SAML response carries no assertion.');
  if (profile.issuer !== sp.settings.idp_entity_id) {
    return invalid(`The assertion's issuer is not the connection's IdP (${profile.issuer}).`);
  }
  const destination = responseDestination(profile.getSamlResponseXml?.() ?? '');
  if (destination !== null && destination !== sp.acsUrl) {
    return invalid("The response's Destination is not this connection's ACS URL.");
  }
  const assertion = (profile.getAssertion?.() as { Assertion?: XmlNode } | undefined)?.Assertion;
  const assertionId = assertion?.$?.ID;
  if (!assertion || !assertionId) return invalid('The assertion has no ID.');
  const confirmations = children(children(assertion, 'Subject')[0], 'SubjectConfirmation')
    .map((c) => children(c, 'SubjectConfirmationData')[0]?.$)
    .filter((d): d is Record<string, string> => d !== undefined);
  if (!confirmations.some((d) => d.Recipient === sp.acsUrl)) {
    return invalid("The assertion's Recipient is not this connection's ACS URL.");
  }
  const inResponseTo =
    typeof profile.inResponseTo === 'string' && profile.inResponseTo !== ''
      ? profile.inResponseTo
      : null;
  if (confirmations.some((d) => d.InResponseTo !== undefined && d.InResponseTo !== inResponseTo)) {
    return invalid("The assertion's InResponseTo differs from the response's.");
  }
  const conditions = children(assertion, 'Conditions')[0]?.$;
  const expiries = [conditions?.NotOnOrAfter, ...confirmations.map((d) => d.NotOnOrAfter)]
    .filter((t): t is string => t !== undefined)
    .map((t) => Date.parse(t))
    .filter((t) => !Number.isNaN(t));
  const expiresAt =
    (expiries.length > 0 ? Math.max(...expiries) : now + DEFAULT_ASSERTION_LIFETIME_MS) +
    SAML_CLOCK_SKEW_MS;

  const mapping = sp.settings.attribute_mapping;
  const email = attributeValues(profile, mapping.email)[0] ?? profile.nameID;
  return {
    assertionId,
    expiresAt,
    inResponseTo,
    email,
    firstName: attributeValues(profile, mapping.first_name)[0] ?? '',
    lastName: attributeValues(profile, mapping.last_name)[0] ?? '',
    groups: attributeValues(profile, mapping.groups),
  };
}
