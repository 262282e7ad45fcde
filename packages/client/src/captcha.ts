/**
 * Captcha (docs/protocol.md §6, §7): when bootstrap says captcha is on, the provider's browser
 * script is loaded on the first `D` call and a fresh token for the action `LOGIN` is fetched
 * before each one. Bootstrap names only the site key; the provider and its script URL come from
 * the client's options.
 */
import { CAPTCHA_ACTION, CAPTCHA_SCRIPT_URLS, type CaptchaProviderName } from '@gatehouse/protocol';
import type { BootstrapSource } from './bootstrap.js';
import { GatehouseCaptchaError } from './errors.js';
import type { CaptchaOptions } from './types.js';

/** How long loading the script and solving may take before the call gives up. */
const TOKEN_TIMEOUT_MS = 60_000;

interface WidgetParams {
  sitekey: string;
  action?: string;
  size?: string;
  appearance?: string;
  callback?: (token: string) => void;
  'error-callback'?: (code?: string) => void;
  'expired-callback'?: () => void;
}

interface Turnstile {
  render(container: HTMLElement, params: WidgetParams): string | undefined;
  remove(id: string): void;
}

interface RecaptchaApi {
  ready(callback: () => void): void;
  execute(siteKey: string, options: { action: string }): Promise<string>;
}

interface HCaptcha {
  render(container: HTMLElement, params: WidgetParams): string;
  execute(id: string, options: { async: true }): Promise<{ response: string }>;
  remove(id: string): void;
}

declare global {
  interface Window {
    turnstile?: Turnstile;
    grecaptcha?: RecaptchaApi & { enterprise?: RecaptchaApi };
    hcaptcha?: HCaptcha;
  }
}

export interface Captcha {
  /** A fresh token when captcha is on, undefined when it is off; rejects with GatehouseCaptchaError. */
  token(): Promise<string | undefined>;
}

const providerReady: Record<CaptchaProviderName, () => boolean> = {
  turnstile: () => window.turnstile !== undefined,
  recaptcha: () => window.grecaptcha !== undefined,
  hcaptcha: () => window.hcaptcha !== undefined,
};

/** Loads a script once per page; a failed load is forgotten so that a later call retries. */
function loadScript(src: string, loaded: () => boolean): Promise<void> {
  if (loaded()) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const script = document.createElement('script');
    script.src = src;
    script.async = true;
    script.dataset.gatehouseCaptcha = '';
    script.addEventListener('load', () => resolve(), { once: true });
    script.addEventListener(
      'error',
      () => {
        script.remove();
        reject(new GatehouseCaptchaError(`The script at ${src} did not load.`));
      },
      { once: true },
    );
    document.head.append(script);
  });
}

/** A container for widgets that may need the person (an interactive challenge), shown only then. */
function widgetHost(): HTMLElement {
  const host = document.createElement('div');
  host.dataset.gatehouseCaptchaWidget = '';
  host.style.cssText = 'position:fixed;bottom:16px;right:16px;z-index:2147483647';
  document.body.append(host);
  return host;
}

const solvers: Record<CaptchaProviderName, (siteKey: string) => Promise<string>> = {
  async recaptcha(siteKey) {
    const g = window.grecaptcha;
    const api = g?.enterprise ?? g;
    if (!api) throw new GatehouseCaptchaError('reCAPTCHA did not start.');
    await new Promise<void>((resolve) => api.ready(resolve));
    return api.execute(siteKey, { action: CAPTCHA_ACTION });
  },
  turnstile(siteKey) {
    const turnstile = window.turnstile;
    if (!turnstile) return Promise.reject(new GatehouseCaptchaError('Turnstile did not start.'));
    const host = widgetHost();
    let id: string | undefined;
    const done = () => {
      if (id !== undefined) turnstile.remove(id);
      host.remove();
    };
    return new Promise<string>((resolve, reject) => {
      id = turnstile.render(host, {
        sitekey: siteKey,
        action: CAPTCHA_ACTION,
        appearance: 'interaction-only',
        callback: resolve,
        'error-callback': (code) =>
          reject(new GatehouseCaptchaError(`Turnstile failed${code ? ` (${code})` : ''}.`)),
        'expired-callback': () => reject(new GatehouseCaptchaError('The challenge expired.')),
      });
    }).finally(done);
  },
  async hcaptcha(siteKey) {
    const hcaptcha = window.hcaptcha;
    if (!hcaptcha) throw new GatehouseCaptchaError('hCaptcha did not start.');
    const host = widgetHost();
    const id = hcaptcha.render(host, { sitekey: siteKey, size: 'invisible' });
    try {
      return (await hcaptcha.execute(id, { async: true })).response;
    } finally {
      hcaptcha.remove(id);
      host.remove();
    }
  },
};

/**
 * The captcha of one client. Nothing is loaded until a `D` call runs with captcha on, so pages of
 * projects without captcha never fetch a provider's script.
 *
 * @example
 * const captcha = createCaptcha(bootstrap, { provider: 'turnstile' });
 * const captcha_token = await captcha.token();
 */
export function createCaptcha(bootstrap: BootstrapSource, options: CaptchaOptions = {}): Captcha {
  const provider = options.provider ?? 'recaptcha';
  let loading: Promise<void> | null = null;
  return {
    async token() {
      const { captchaSettings } = await bootstrap.ready;
      const siteKey = captchaSettings.siteKey;
      if (!captchaSettings.enabled || !siteKey) return undefined;
      const src = (options.scriptUrl ?? CAPTCHA_SCRIPT_URLS[provider]).replace(
        '{siteKey}',
        encodeURIComponent(siteKey),
      );
      let timer: ReturnType<typeof setTimeout> | undefined;
      const timeout = new Promise<never>((_, reject) => {
        timer = setTimeout(
          () => reject(new GatehouseCaptchaError('No token arrived in time.')),
          TOKEN_TIMEOUT_MS,
        );
      });
      try {
        loading ??= loadScript(src, providerReady[provider]).catch((error: unknown) => {
          loading = null;
          throw error;
        });
        const token = await Promise.race([loading.then(() => solvers[provider](siteKey)), timeout]);
        if (typeof token !== 'string' || token === '') {
          throw new GatehouseCaptchaError('The provider gave no token.');
        }
        return token;
      } catch (error) {
        if (error instanceof GatehouseCaptchaError) throw error;
        throw new GatehouseCaptchaError(error instanceof Error ? error.message : String(error));
      } finally {
        clearTimeout(timer);
      }
    },
  };
}
