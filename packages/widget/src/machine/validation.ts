/** Input rules of docs/widget.md §5. */

/** A local part, an at sign, a domain and a top-level domain of two or more letters. */
const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[A-Za-z]{2,}$/;

/** Whether an e-mail address is well formed enough to send a link to. */
export function isValidEmail(email: string): boolean {
  return EMAIL_PATTERN.test(email);
}
