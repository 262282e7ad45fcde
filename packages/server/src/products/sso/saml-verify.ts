/**
 * The checks a SAML response must pass, as the Web Browser SSO profile asks of a service
 * provider. It runs inside the SAML workers (saml-worker.ts), never on the main thread, and
 * imports nothing of the server.
 *
 * Every value that decides anything is read from XML a signature covers: the signed response
 * when the response is signed, else the signed assertion; the response's own attributes
 * (`Destination`, `InResponseTo`, status) come from the parsed document, never from its raw
 * text. There must be exactly one assertion in the whole document, a direct child of the
 * response, and a signature on an element must be the one verified signature of that element
 * (node-saml's `getVerifiedXml`, which also refuses duplicated IDs), which is what the XML
 * signature wrapping attacks rely on breaking.
 */
import { getVerifiedXml } from '@node-saml/node-saml/lib/xml.js';
import { DOMParser } from '@xmldom/xmldom';

const PROTOCOL_NS = 'urn:oasis:names:tc:SAML:2.0:protocol';
const ASSERTION_NS = 'urn:oasis:names:tc:SAML:2.0:assertion';
const DSIG_NS = 'http://www.w3.org/2000/09/xmldsig#';
const BEARER = 'urn:oasis:names:tc:SAML:2.0:cm:bearer';
const SUCCESS = 'urn:oasis:names:tc:SAML:2.0:status:Success';

/** What the checks need to know of the connection. */
export interface SamlCheckInput {
  /** The decoded response XML, already within the bounds of saml-scan.ts. */
  xml: string;
  /** Our entity ID: the audience. */
  entityId: string;
  /** Our ACS URL: the destination and the recipient. */
  acsUrl: string;
  idpEntityId: string;
  /** PEM certificates, any of which may have signed. */
  certificates: string[];
  now: number;
  skewMs: number;
}

/** What a response that passed says, before the connection's attribute mapping. */
export interface SamlCheckedAssertion {
  assertionId: string;
  /** The latest `NotOnOrAfter` of the conditions and the confirmation, in ms; null if none. */
  notOnOrAfter: number | null;
  /** The request answered (signed `InResponseTo`); null when the IdP sent it unprompted. */
  inResponseTo: string | null;
  nameId: string;
  attributes: Record<string, string[]>;
}

/** The check a refusal failed, for a test sign-in's report; none for the response's shape. */
export type SamlRefusedCheck = 'signature' | 'issuer' | 'audience' | 'recipient' | 'clock';

export type SamlCheckResult =
  | { ok: true; assertion: SamlCheckedAssertion }
  | { ok: false; reason: string; check?: SamlRefusedCheck };

class Refused extends Error {
  constructor(
    message: string,
    readonly check: SamlRefusedCheck | undefined,
  ) {
    super(message);
  }
}

const refuse = (reason: string, check?: SamlRefusedCheck): never => {
  throw new Refused(reason, check);
};

function parse(xml: string): Document {
  const onError = (message: unknown) =>
    refuse(`The SAML response is not well-formed XML: ${String(message).split('\n')[0] ?? ''}`);
  const doc = new DOMParser({
    locator: {},
    errorHandler: { warning: () => undefined, error: onError, fatalError: onError },
  }).parseFromString(xml, 'text/xml');
  if (doc.doctype) refuse('The SAML response contains a DOCTYPE, which is not accepted.');
  if (!doc.documentElement) refuse('The SAML response is not XML.');
  return doc;
}

function childElements(node: Node, ns: string, name: string): Element[] {
  const found: Element[] = [];
  for (let child = node.firstChild; child !== null; child = child.nextSibling) {
    const el = child as Element;
    if (child.nodeType === 1 && el.namespaceURI === ns && el.localName === name) found.push(el);
  }
  return found;
}

function onlyChild(node: Node, ns: string, name: string, what: string): Element | null {
  const found = childElements(node, ns, name);
  if (found.length > 1) refuse(`The SAML response has more than one ${what}.`);
  return found[0] ?? null;
}

function attr(el: Element, name: string): string | null {
  return el.hasAttribute(name) ? el.getAttribute(name) : null;
}

function time(value: string | null, what: string): number | null {
  if (value === null) return null;
  const at = Date.parse(value);
  if (Number.isNaN(at)) refuse(`The ${what} of the SAML assertion is not a time.`, 'clock');
  return at;
}

/** Whether now lies in [notBefore, notOnOrAfter), each widened by the skew. */
function within(input: SamlCheckInput, notBefore: number | null, notOnOrAfter: number | null) {
  if (notBefore !== null && input.now + input.skewMs < notBefore) return 'not yet valid';
  if (notOnOrAfter !== null && input.now - input.skewMs >= notOnOrAfter) return 'expired';
  return null;
}

/** The verified XML of `el`'s own signature; null when it carries none; refused when invalid. */
function verifiedXmlOf(input: SamlCheckInput, el: Element, what: string): string | null {
  if (childElements(el, DSIG_NS, 'Signature').length === 0) return null;
  let verified: string | null;
  try {
    verified = getVerifiedXml(input.xml, el, input.certificates);
  } catch (error) {
    return refuse(
      `The signature of the ${what} is refused: ${(error as Error).message}.`,
      'signature',
    );
  }
  if (verified === null) {
    refuse(
      `The signature of the ${what} is not valid for this connection's certificates.`,
      'signature',
    );
  }
  return verified;
}

/** The one element of a verified fragment, which must be the element that was checked. */
function signedElement(xml: string, name: string, id: string | null): Element {
  const root = parse(xml).documentElement as Element;
  if (root.namespaceURI !== (name === 'Response' ? PROTOCOL_NS : ASSERTION_NS)) {
    refuse('The signed content is not a SAML element.', 'signature');
  }
  if (root.localName !== name || attr(root, 'ID') !== id) {
    refuse(`The signature does not cover the ${name.toLowerCase()} it is in.`, 'signature');
  }
  return root;
}

/** The bearer confirmation that satisfies the profile; answers the request it confirms. */
function confirmedRequest(input: SamlCheckInput, subject: Element, responseIrt: string | null) {
  let reason = 'The SAML assertion has no bearer SubjectConfirmation.';
  let failed: SamlRefusedCheck | undefined;
  for (const confirmation of childElements(subject, ASSERTION_NS, 'SubjectConfirmation')) {
    if (attr(confirmation, 'Method') !== BEARER) continue;
    const data = onlyChild(
      confirmation,
      ASSERTION_NS,
      'SubjectConfirmationData',
      'SubjectConfirmationData',
    );
    if (data === null) {
      reason = 'The bearer SubjectConfirmation has no SubjectConfirmationData.';
      failed = undefined;
      continue;
    }
    const notOnOrAfter = time(attr(data, 'NotOnOrAfter'), 'SubjectConfirmationData NotOnOrAfter');
    const problem = within(
      input,
      time(attr(data, 'NotBefore'), 'SubjectConfirmationData NotBefore'),
      notOnOrAfter,
    );
    const irt = attr(data, 'InResponseTo');
    failed = undefined;
    if (notOnOrAfter === null) {
      reason = 'The bearer SubjectConfirmationData has no NotOnOrAfter.';
      failed = 'clock';
    } else if (problem !== null) {
      reason = `The bearer SubjectConfirmationData is ${problem}.`;
      failed = 'clock';
    } else if (attr(data, 'Recipient') !== input.acsUrl) {
      reason = "The assertion's Recipient is not this connection's ACS URL.";
      failed = 'recipient';
    } else if (responseIrt !== null && irt !== responseIrt) {
      reason = "The assertion's InResponseTo differs from the response's.";
    } else {
      return { inResponseTo: irt, notOnOrAfter };
    }
  }
  return refuse(reason, failed);
}

function attributesOf(assertion: Element): Record<string, string[]> {
  const attributes: Record<string, string[]> = {};
  for (const statement of childElements(assertion, ASSERTION_NS, 'AttributeStatement')) {
    for (const attribute of childElements(statement, ASSERTION_NS, 'Attribute')) {
      const name = attr(attribute, 'Name');
      if (name === null || name === '') continue;
      const values = childElements(attribute, ASSERTION_NS, 'AttributeValue')
        .filter((v) => v.getElementsByTagName('*').length === 0)
        .map((v) => v.textContent ?? '')
        .filter((v) => v !== '');
      attributes[name] = [...(attributes[name] ?? []), ...values];
    }
  }
  return attributes;
}

function check(input: SamlCheckInput): SamlCheckedAssertion {
  if (input.certificates.length === 0) refuse('The connection has no signing certificate.');
  const doc = parse(input.xml);
  const root = doc.documentElement as Element;
  if (root.namespaceURI !== PROTOCOL_NS || root.localName !== 'Response') {
    refuse('The SAML message is not a Response.');
  }
  if (doc.getElementsByTagNameNS(ASSERTION_NS, 'EncryptedAssertion').length > 0) {
    refuse('Encrypted assertions are not accepted.');
  }
  const all = doc.getElementsByTagNameNS(ASSERTION_NS, 'Assertion');
  const placed = childElements(root, ASSERTION_NS, 'Assertion');
  if (all.length !== 1 || placed.length !== 1) {
    refuse('The SAML response must hold exactly one assertion, directly in the response.');
  }
  const assertionNode = placed[0] as Element;

  const signedResponse = verifiedXmlOf(input, root, 'response');
  const signedAssertion = verifiedXmlOf(input, assertionNode, 'assertion');
  if (signedResponse === null && signedAssertion === null) {
    refuse('Neither the SAML response nor its assertion is signed.', 'signature');
  }
  // The response's attributes as the signature covers them; unsigned, as the parser read them.
  const response =
    signedResponse === null ? root : signedElement(signedResponse, 'Response', attr(root, 'ID'));
  const assertion =
    signedAssertion !== null
      ? signedElement(signedAssertion, 'Assertion', attr(assertionNode, 'ID'))
      : (childElements(response, ASSERTION_NS, 'Assertion')[0] ??
        refuse('The signed response holds no assertion.'));

  const destination = attr(response, 'Destination');
  if (destination !== null && destination !== input.acsUrl) {
    refuse("The response's Destination is not this connection's ACS URL.", 'recipient');
  }
  const status = onlyChild(response, PROTOCOL_NS, 'Status', 'Status');
  const code = status && onlyChild(status, PROTOCOL_NS, 'StatusCode', 'StatusCode');
  const statusValue = code ? attr(code, 'Value') : null;
  if (statusValue !== SUCCESS) {
    refuse(`The identity provider did not sign the person in (${statusValue ?? 'no status'}).`);
  }
  const responseIssuer = onlyChild(response, ASSERTION_NS, 'Issuer', 'response Issuer');
  if (responseIssuer !== null && responseIssuer.textContent?.trim() !== input.idpEntityId) {
    refuse("The response's issuer is not the connection's IdP.", 'issuer');
  }

  const issuer = onlyChild(
    assertion,
    ASSERTION_NS,
    'Issuer',
    'assertion Issuer',
  )?.textContent?.trim();
  if (issuer !== input.idpEntityId) {
    refuse(`The assertion's issuer is not the connection's IdP (${issuer ?? 'none'}).`, 'issuer');
  }
  const assertionId = attr(assertion, 'ID');
  if (!assertionId) return refuse('The assertion has no ID.');

  const conditions = onlyChild(assertion, ASSERTION_NS, 'Conditions', 'Conditions element');
  if (conditions === null) return refuse('The SAML assertion has no Conditions.');
  const conditionsEnd = time(attr(conditions, 'NotOnOrAfter'), 'Conditions NotOnOrAfter');
  const timing = within(
    input,
    time(attr(conditions, 'NotBefore'), 'Conditions NotBefore'),
    conditionsEnd,
  );
  if (timing !== null) refuse(`The SAML assertion is ${timing}.`, 'clock');
  const restrictions = childElements(conditions, ASSERTION_NS, 'AudienceRestriction');
  if (restrictions.length === 0) refuse('The SAML assertion names no audience.', 'audience');
  for (const restriction of restrictions) {
    const audiences = childElements(restriction, ASSERTION_NS, 'Audience').map((a) =>
      a.textContent?.trim(),
    );
    if (!audiences.includes(input.entityId))
      refuse('The SAML assertion is meant for another audience.', 'audience');
  }

  const subject = onlyChild(assertion, ASSERTION_NS, 'Subject', 'Subject');
  if (subject === null) return refuse('The SAML assertion has no Subject.');
  if (childElements(assertion, ASSERTION_NS, 'AuthnStatement').length === 0) {
    refuse('The SAML assertion has no AuthnStatement.');
  }
  const confirmed = confirmedRequest(input, subject, attr(response, 'InResponseTo'));
  const nameId = onlyChild(subject, ASSERTION_NS, 'NameID', 'NameID')?.textContent?.trim() ?? '';
  const ends = [conditionsEnd, confirmed.notOnOrAfter].filter((t): t is number => t !== null);
  return {
    assertionId,
    notOnOrAfter: ends.length > 0 ? Math.max(...ends) : null,
    inResponseTo: confirmed.inResponseTo === '' ? null : confirmed.inResponseTo,
    nameId,
    attributes: attributesOf(assertion),
  };
}

/**
 * Checks a decoded SAML response for one connection: signature (response or assertion) by one of
 * its certificates, a single assertion, status, issuers, destination, audience, time conditions,
 * and a bearer SubjectConfirmation with a live `NotOnOrAfter`, our ACS as `Recipient` and, when
 * solicited, the response's `InResponseTo`.
 *
 * @example
 * const result = checkSamlResponse({ xml, entityId, acsUrl, idpEntityId, certificates, now, skewMs });
 */
export function checkSamlResponse(input: SamlCheckInput): SamlCheckResult {
  try {
    return { ok: true, assertion: check(input) };
  } catch (error) {
    if (error instanceof Refused) {
      return error.check === undefined
        ? { ok: false, reason: error.message }
        : { ok: false, reason: error.message, check: error.check };
    }
    const message = error instanceof Error ? error.message : 'unreadable response';
    return { ok: false, reason: `The SAML response was refused: ${message}.` };
  }
}
