/**
 * A stand-in for a captcha provider (Cloudflare Turnstile, Google reCAPTCHA, hCaptcha), served on
 * a loopback port: each provider's browser script, which hands out tokens this stand-in minted
 * for a registered site key, and a `siteverify` endpoint that accepts each token exactly once,
 * with the secret key of the site it was minted for, as the real providers do.
 */
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';

export type CaptchaStandInProvider = 'turnstile' | 'recaptcha' | 'hcaptcha';

/** One `siteverify` request as the stand-in received it. */
export interface CaptchaVerification {
  secret: string;
  response: string;
  remoteip: string;
  sitekey: string | undefined;
}

export interface CaptchaStandIn {
  /** Where the page loads a provider's browser script from. */
  scriptUrl(provider: CaptchaStandInProvider): string;
  /** The `siteverify` endpoint (the server's `captchaVerifyUrl`). */
  verifyUrl: string;
  /** Registers a site: its public site key and its secret key. */
  addSite(siteKey: string, secret: string): void;
  /** Mints a token as the browser script would, for server tests. */
  mint(siteKey: string, options?: { action?: string; score?: number }): string;
  /** The score reCAPTCHA answers for tokens minted from now on (default 0.9). */
  score: number;
  /** `ok`; `stall`: `siteverify` never answers; `error`: it answers 500. */
  mode: 'ok' | 'stall' | 'error';
  /** Every `siteverify` request received, oldest first. */
  verifications: CaptchaVerification[];
  close(): Promise<void>;
}

// Runs in the page: the providers' browser APIs, each getting its token from `/mint`.
const mintJs = `
  const origin = new URL(document.currentScript.src).origin;
  const mint = (sitekey, action) =>
    fetch(origin + '/mint?sitekey=' + encodeURIComponent(sitekey) + '&action=' + encodeURIComponent(action || ''))
      .then((r) => (r.ok ? r.json() : Promise.reject(new Error('unknown site key'))))
      .then((b) => b.token);
`;

const SCRIPTS: Record<CaptchaStandInProvider, string> = {
  turnstile: `(() => {${mintJs}
  const widgets = new Map();
  let next = 0;
  const run = (id) => {
    const w = widgets.get(id);
    mint(w.sitekey, w.action).then((token) => w.callback && w.callback(token),
      () => w['error-callback'] && w['error-callback']('110100'));
  };
  window.turnstile = {
    render(container, params) {
      const id = 'cf-' + (next += 1);
      widgets.set(id, params);
      if (params.execution !== 'execute') run(id);
      return id;
    },
    execute(id) { run(typeof id === 'string' && widgets.has(id) ? id : [...widgets.keys()].pop()); },
    reset() {},
    remove(id) { widgets.delete(id); },
  };
})();`,
  recaptcha: `(() => {${mintJs}
  const api = {
    ready(callback) { setTimeout(callback, 0); },
    execute(sitekey, options) { return mint(sitekey, options && options.action); },
  };
  window.grecaptcha = { ...api, enterprise: api };
})();`,
  hcaptcha: `(() => {${mintJs}
  const widgets = new Map();
  let next = 0;
  window.hcaptcha = {
    render(container, params) { const id = 'h' + (next += 1); widgets.set(id, params); return id; },
    execute(id) {
      const w = widgets.get(id);
      return mint(w.sitekey, '').then((response) => ({ response, key: 'k' }));
    },
    reset() {},
    remove(id) { widgets.delete(id); },
  };
})();`,
};

const PATHS: Record<CaptchaStandInProvider, string> = {
  turnstile: '/turnstile/v0/api.js',
  recaptcha: '/recaptcha/api.js',
  hcaptcha: '/hcaptcha/1/api.js',
};

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let body = '';
    request.setEncoding('utf8');
    request.on('data', (chunk: string) => (body += chunk));
    request.on('end', () => resolve(body));
    request.on('error', reject);
  });
}

/**
 * Starts the stand-in on 127.0.0.1 with a port chosen by the OS.
 *
 * @example
 * const captcha = await startCaptchaStandIn();
 * captcha.addSite('site-key', 'secret-key');
 * const token = captcha.mint('site-key', { action: 'LOGIN' });
 */
export async function startCaptchaStandIn(): Promise<CaptchaStandIn> {
  const sites = new Map<string, string>();
  const tokens = new Map<string, { siteKey: string; action: string; score: number }>();
  const stalled = new Set<() => void>();

  const mint = (siteKey: string, options: { action?: string; score?: number } = {}): string => {
    if (!sites.has(siteKey)) throw new Error(`unknown site key ${siteKey}`);
    const token = `stand-in.${randomBytes(24).toString('base64url')}`;
    tokens.set(token, {
      siteKey,
      action: options.action ?? '',
      score: options.score ?? standIn.score,
    });
    return token;
  };

  const server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://127.0.0.1');
    const cors = { 'access-control-allow-origin': '*', 'cache-control': 'no-store' };
    const json = (status: number, body: unknown) => {
      response.writeHead(status, { ...cors, 'content-type': 'application/json' });
      response.end(JSON.stringify(body));
    };
    const script = (Object.keys(PATHS) as CaptchaStandInProvider[]).find(
      (p) => PATHS[p] === url.pathname,
    );
    if (script) {
      response.writeHead(200, { ...cors, 'content-type': 'text/javascript; charset=utf-8' });
      response.end(SCRIPTS[script]);
      return;
    }
    if (url.pathname === '/mint') {
      const siteKey = url.searchParams.get('sitekey') ?? '';
      if (!sites.has(siteKey)) return json(400, { error: 'unknown site key' });
      return json(200, { token: mint(siteKey, { action: url.searchParams.get('action') ?? '' }) });
    }
    if (url.pathname === '/siteverify' && request.method === 'POST') {
      void readBody(request).then((raw) => {
        const form = new URLSearchParams(raw);
        const verification: CaptchaVerification = {
          secret: form.get('secret') ?? '',
          response: form.get('response') ?? '',
          remoteip: form.get('remoteip') ?? '',
          sitekey: form.get('sitekey') ?? undefined,
        };
        standIn.verifications.push(verification);
        if (standIn.mode === 'stall') {
          stalled.add(() => response.destroy());
          return;
        }
        if (standIn.mode === 'error') return json(500, { error: 'unavailable' });
        const minted = tokens.get(verification.response);
        if (!minted)
          return json(200, { success: false, 'error-codes': ['invalid-input-response'] });
        if (sites.get(minted.siteKey) !== verification.secret) {
          return json(200, { success: false, 'error-codes': ['invalid-input-secret'] });
        }
        if (verification.sitekey !== undefined && verification.sitekey !== minted.siteKey) {
          return json(200, { success: false, 'error-codes': ['sitekey-secret-mismatch'] });
        }
        // Single use, as at the real providers.
        tokens.delete(verification.response);
        return json(200, {
          success: true,
          challenge_ts: new Date().toISOString(),
          hostname: 'localhost',
          action: minted.action,
          score: minted.score,
        });
      });
      return;
    }
    response.writeHead(404, cors).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const standIn: CaptchaStandIn = {
    scriptUrl: (provider) => `${origin}${PATHS[provider]}`,
    verifyUrl: `${origin}/siteverify`,
    addSite: (siteKey, secret) => void sites.set(siteKey, secret),
    mint,
    score: 0.9,
    mode: 'ok',
    verifications: [],
    close: () =>
      new Promise<void>((resolve) => {
        for (const end of stalled) end();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  return standIn;
}
