/** Captcha on the wire: a project's captcha provider settings (docs/protocol.md §6, §7). */
import type { Ack } from './api.js';

/** The captcha providers Gatehouse verifies tokens with. */
export type CaptchaProviderName = 'turnstile' | 'recaptcha' | 'hcaptcha';
export const CAPTCHA_PROVIDERS: readonly CaptchaProviderName[] = [
  'turnstile',
  'recaptcha',
  'hcaptcha',
];

/**
 * Where each provider serves its browser script (`{siteKey}` is replaced by the site key): the
 * client's default, which its options may replace.
 */
export const CAPTCHA_SCRIPT_URLS: Readonly<Record<CaptchaProviderName, string>> = {
  turnstile: 'https://challenges.cloudflare.com/turnstile/v0/api.js?render=explicit',
  recaptcha: 'https://www.google.com/recaptcha/api.js?render={siteKey}',
  hcaptcha: 'https://js.hcaptcha.com/1/api.js?render=explicit',
};

/** The action name the browser asks a token for, and the server expects back from reCAPTCHA. */
export const CAPTCHA_ACTION = 'LOGIN';

/** The score a reCAPTCHA token must reach unless the project sets another (0 to 1). */
export const DEFAULT_CAPTCHA_MIN_SCORE = 0.5;

/** A project's captcha settings; the secret key is never returned. */
export interface CaptchaSettings {
  enabled: boolean;
  provider: CaptchaProviderName;
  site_key: string;
  secret_key_set: boolean;
  /** The lowest reCAPTCHA score accepted; providers without scores ignore it. */
  min_score: number;
}

export interface CaptchaSettingsResult extends Ack {
  captcha: CaptchaSettings;
}
