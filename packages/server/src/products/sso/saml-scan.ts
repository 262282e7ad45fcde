/**
 * The first line of defence of the SAML ACS: one linear pass over the decoded response, on the
 * main thread, before any XML parser or XPath sees it. It bounds what the parser and the
 * signature check may be asked to do (elements, depth, attributes) and refuses DTDs outright, so
 * a hostile document costs no more than reading its bytes once.
 */

/** The most elements a response may hold (a signed response with a few dozen attributes has ~60). */
export const SAML_MAX_ELEMENTS = 1_000;

/** The deepest element nesting accepted (a signed response nests about 8 deep). */
export const SAML_MAX_DEPTH = 32;

/** The most attributes (namespace declarations included) on one element. */
export const SAML_MAX_ATTRIBUTES = 32;

/**
 * Reads the shape of an XML document without building it. Answers null when it is within the
 * bounds, or why it is refused: a DOCTYPE or any other markup declaration, too many elements,
 * too deep, too many attributes on an element, or markup that is cut off.
 *
 * @example
 * const refusal = scanSamlXml(xml);
 * if (refusal !== null) return invalid(refusal);
 */
export function scanSamlXml(xml: string): string | null {
  let depth = 0;
  let elements = 0;
  let at = xml.indexOf('<');
  while (at !== -1) {
    const next = xml.charCodeAt(at + 1);
    if (next === 0x21 /* ! */) {
      if (xml.startsWith('<!--', at)) {
        const end = xml.indexOf('-->', at + 4);
        if (end === -1) return 'The SAML response has an unterminated comment.';
        at = xml.indexOf('<', end + 3);
        continue;
      }
      if (xml.startsWith('<![CDATA[', at)) {
        const end = xml.indexOf(']]>', at + 9);
        if (end === -1) return 'The SAML response has an unterminated CDATA section.';
        at = xml.indexOf('<', end + 3);
        continue;
      }
      // <!DOCTYPE, <!ENTITY, <!ELEMENT, <!ATTLIST…: a SAML response never needs a DTD.
      return 'The SAML response contains a DOCTYPE or entity declaration, which is not accepted.';
    }
    if (next === 0x3f /* ? */) {
      const end = xml.indexOf('?>', at + 2);
      if (end === -1) return 'The SAML response has an unterminated processing instruction.';
      at = xml.indexOf('<', end + 2);
      continue;
    }
    if (next === 0x2f /* / */) {
      depth -= 1;
      if (depth < 0) return 'The SAML response closes an element it never opened.';
      const end = xml.indexOf('>', at + 2);
      if (end === -1) return 'The SAML response ends inside a tag.';
      at = xml.indexOf('<', end + 1);
      continue;
    }
    // A start tag: find its end outside quoted attribute values, counting the values.
    let quote = 0;
    let attributes = 0;
    let end = at + 1;
    for (; end < xml.length; end += 1) {
      const c = xml.charCodeAt(end);
      if (quote !== 0) {
        if (c === quote) quote = 0;
      } else if (c === 0x22 || c === 0x27) {
        quote = c;
        attributes += 1;
      } else if (c === 0x3e /* > */) {
        break;
      }
    }
    if (end >= xml.length) return 'The SAML response ends inside a tag.';
    elements += 1;
    if (elements > SAML_MAX_ELEMENTS) {
      return `The SAML response has more than ${SAML_MAX_ELEMENTS} elements.`;
    }
    if (attributes > SAML_MAX_ATTRIBUTES) {
      return `An element of the SAML response has more than ${SAML_MAX_ATTRIBUTES} attributes.`;
    }
    if (xml.charCodeAt(end - 1) !== 0x2f /* / */) {
      depth += 1;
      if (depth > SAML_MAX_DEPTH) {
        return `The SAML response nests elements more than ${SAML_MAX_DEPTH} deep.`;
      }
    }
    at = xml.indexOf('<', end + 1);
  }
  if (elements === 0) return 'The SAML response is not XML.';
  if (depth !== 0) return 'The SAML response ends before its elements are closed.';
  return null;
}
