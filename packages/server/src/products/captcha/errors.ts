/** The captcha product's expected failures. */
import { fail, type Failure } from '../../result.js';

// The published client retries when a non-JSON answer holds a certain capitalised phrase
// (docs/protocol.md §2); these messages are JSON and never hold it anyway.
export const captchaTokenMissing = (): Failure =>
  fail(
    'captcha_required',
    'This project requires a captcha_token on this call: solve the captcha and send its token.',
  );

export const captchaTokenRefused = (): Failure =>
  fail(
    'invalid_captcha',
    'The captcha provider did not accept the captcha_token: it is wrong, expired or already used.',
  );

export const captchaProviderUnreachable = (): Failure =>
  fail(
    'captcha_unavailable',
    'The captcha provider could not be reached to check the captcha_token; try again shortly.',
  );
