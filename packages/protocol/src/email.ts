/** The one rule for a well-formed e-mail address, shared by the server, the client and the widget. */

/** The longest address accepted: the most a forward path can carry (RFC 5321 §4.5.3.1.3). */
const EMAIL_MAX_LENGTH = 254;

/**
 * A local part without spaces, quotes, brackets, commas, semicolons or colons; `@`; dot-separated
 * domain labels of letters, digits and inner hyphens; a top-level domain of two letters or more.
 * Deliberately loose (docs/protocol.md §2): delivery is the real proof.
 */
const EMAIL_PATTERN =
  /^[^\s@"<>()[\],;:]+@[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?)*\.[A-Za-z]{2,}$/;

/**
 * Whether an e-mail address is well formed enough to send a link to (docs/protocol.md §2). The
 * server answers any other address with 400 `invalid_email`, and the widget refuses it before
 * sending. Surrounding spaces are not trimmed here: trim first, as the server and the widget do.
 *
 * @example
 * isValidEmail('ada@acme.io'); // true
 * isValidEmail('ada@acme'); // false: no top-level domain
 */
export function isValidEmail(address: string): boolean {
  return address.length <= EMAIL_MAX_LENGTH && EMAIL_PATTERN.test(address);
}
