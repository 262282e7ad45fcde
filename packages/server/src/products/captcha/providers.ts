/**
 * The captcha providers, declared once (docs/contributing.md, habit 8): where each verifies a
 * token, and what its answer must say for the token to pass. All three take the same
 * `siteverify` form (`secret`, `response`, `remoteip`) and answer JSON with `success`.
 */
import { CAPTCHA_ACTION, type CaptchaProviderName } from '@gatehouse/protocol';

/** What the server expects of a provider's answer besides `success`. */
export interface Expectation {
  siteKey: string;
  minScore: number;
}

/** One provider: its verify endpoint, and the checks of its answer past `success: true`. */
export interface CaptchaProvider {
  verifyUrl: string;
  /** Extra form fields the provider takes (hCaptcha binds the token to the site key). */
  extraFields(expect: Expectation): Record<string, string>;
  /** True when an answer with `success: true` also meets the project's expectations. */
  accepts(answer: Record<string, unknown>, expect: Expectation): boolean;
}

/** A token asked for another action (another page's, replayed) is refused where one is named. */
const actionMatches = (answer: Record<string, unknown>) =>
  answer.action === undefined || answer.action === '' || answer.action === CAPTCHA_ACTION;

export const CAPTCHA_PROVIDER_REGISTRY: Readonly<Record<CaptchaProviderName, CaptchaProvider>> = {
  turnstile: {
    verifyUrl: 'https://challenges.cloudflare.com/turnstile/v0/siteverify',
    extraFields: () => ({}),
    accepts: (answer) => actionMatches(answer),
  },
  recaptcha: {
    verifyUrl: 'https://www.google.com/recaptcha/api/siteverify',
    extraFields: () => ({}),
    // reCAPTCHA v3 scores every token; a score below the project's threshold is a bot's.
    accepts: (answer, expect) =>
      answer.action === CAPTCHA_ACTION &&
      (typeof answer.score !== 'number' || answer.score >= expect.minScore),
  },
  hcaptcha: {
    verifyUrl: 'https://api.hcaptcha.com/siteverify',
    extraFields: (expect) => ({ sitekey: expect.siteKey }),
    accepts: () => true,
  },
};
