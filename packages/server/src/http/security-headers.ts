/** Security headers: nosniff (and HSTS) on every response; helmet's full set and a CSP on HTML pages. */
import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyReply } from 'fastify';
import helmet, { type HelmetOptions } from 'helmet';

declare module 'fastify' {
  interface FastifyInstance {
    /** The helmet options every HTML page starts from (set by `installSecurityHeaders`). */
    gatehousePageHeaders: {
      readonly contentSecurityPolicy: { useDefaults: false; directives: Record<string, string[]> };
      readonly referrerPolicy: { policy: 'no-referrer' };
      readonly xFrameOptions: { action: 'deny' };
      readonly strictTransportSecurity: { maxAge: number; includeSubDomains: true } | false;
    };
  }
}

/** The policy of a page that asks for nothing more: it loads nothing, and no one may frame it. */
const NOTHING: Record<string, string[]> = {
  'default-src': ["'none'"],
  'base-uri': ["'none'"],
  'form-action': ["'none'"],
  'frame-ancestors': ["'none'"],
};

const HSTS_SECONDS = 31_536_000;

/**
 * Decides the security headers, and returns what sets the two headers every response carries
 * (`installRequestHook` calls it first in its one `onRequest` hook).
 *
 * Pages (the dev inbox, a host app's pages, the services page) call {@link applyPagePolicy}, which
 * runs helmet on that response alone: a Content-Security-Policy, `X-Content-Type-Options: nosniff`,
 * `Referrer-Policy: no-referrer` (sign-in, reset and inbox pages carry single-use tokens in their
 * URL), `X-Frame-Options`, the cross-origin opener and resource policies, and HSTS when the public
 * URL is https. JSON responses, which a browser never renders, get only `nosniff` and HSTS, and no
 * other hook: the full set on every API call would cost the hot session endpoints a measurable
 * share of their throughput for headers that mean nothing to `fetch`.
 *
 * @example
 * const everywhere = installSecurityHeaders(app, { https: publicUrl.startsWith('https:') });
 */
export function installSecurityHeaders(
  app: FastifyInstance,
  options: { https: boolean },
): (reply: FastifyReply) => void {
  app.decorate('gatehousePageHeaders', {
    contentSecurityPolicy: { useDefaults: false, directives: NOTHING },
    referrerPolicy: { policy: 'no-referrer' },
    xFrameOptions: { action: 'deny' },
    // HSTS over plain http is ignored by browsers, and on localhost it would outlive the demo.
    strictTransportSecurity: options.https
      ? { maxAge: HSTS_SECONDS, includeSubDomains: true }
      : false,
  } satisfies HelmetOptions);
  // In lower case, as Fastify keeps header names (`http/cors.ts` says why).
  const everywhere: Record<string, string> = { 'x-content-type-options': 'nosniff' };
  if (options.https)
    everywhere['strict-transport-security'] = `max-age=${HSTS_SECONDS}; includeSubDomains`;
  const headers = Object.entries(everywhere);
  // Fastify's headers, not the raw response's: Node writes a response whose raw headers were
  // never set without merging two sets. A page's helmet sets the same two to the same values.
  return (reply) => {
    for (const [name, value] of headers) void reply.header(name, value);
  };
}

/** What one HTML page may load, and who may frame it. */
export interface PagePolicy {
  /** The exact text of the page's inline `<script>` elements, allowed by SHA-256 hash. */
  inlineScripts?: readonly string[];
  /** The exact text of the page's inline `<style>` elements, allowed by hash (unless `widget`). */
  inlineStyles?: readonly string[];
  /**
   * The page runs the login widget: its module and chunks come from this origin, it adds its
   * own `<style>` elements at run time, shows logos (any https URL) and QR codes (`data:`), and
   * calls the API at these origins besides its own.
   */
  widget?: {
    apiOrigins: readonly string[];
    /**
     * Google Identity Services for One Tap: its origin may serve scripts, styles and the
     * prompt's frame, and be called.
     */
    oneTapScriptUrl?: string;
    /**
     * The captcha provider's origins (docs/security.md): its script, the challenge's frame and
     * styles, and the calls they make.
     */
    captchaOrigins?: readonly string[];
  };
  /** Origins the page may frame (`'self'` for its own), on a page that is not the widget's. */
  frames?: readonly string[];
  /** Scripts may also come from this origin (a page that loads a library it serves). */
  selfScripts?: boolean;
  /** Origins that may frame the page (`'self'` for its own); none when empty or absent. */
  frameAncestors?: readonly string[];
}

/** `'sha256-…'` of an inline script or style sheet, as CSP compares it. */
function sourceHash(text: string): string {
  return `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;
}

/**
 * The CSP directives of a page. Scripts run only from this origin or by hash, never inline
 * otherwise, and never by `eval`.
 *
 * @example
 * pageDirectives({ inlineStyles: [css] }); // { 'default-src': ["'none'"], 'style-src': ["'sha256-…'"], … }
 */
export function pageDirectives(policy: PagePolicy): Record<string, string[]> {
  const scripts = (policy.inlineScripts ?? []).map(sourceHash);
  const styles = (policy.inlineStyles ?? []).map(sourceHash);
  const ancestors = policy.frameAncestors?.length ? [...policy.frameAncestors] : ["'none'"];
  const common = {
    'base-uri': ["'none'"],
    'object-src': ["'none'"],
    'frame-ancestors': ancestors,
  };
  if (!policy.widget) {
    return {
      'default-src': ["'none'"],
      ...(scripts.length > 0 || policy.selfScripts
        ? { 'script-src': [...(policy.selfScripts ? ["'self'"] : []), ...scripts] }
        : {}),
      ...(styles.length > 0 ? { 'style-src': styles } : {}),
      ...(policy.frames?.length ? { 'frame-src': [...policy.frames] } : {}),
      'img-src': ["'self'"],
      'form-action': ["'self'"],
      ...common,
    };
  }
  const oneTap = policy.widget.oneTapScriptUrl
    ? [new URL(policy.widget.oneTapScriptUrl).origin]
    : [];
  const providers = [...oneTap, ...(policy.widget.captchaOrigins ?? [])];
  return {
    'default-src': ["'self'"],
    'script-src': ["'self'", ...scripts, ...providers],
    // The widget inserts its style sheets at run time; a hash cannot name them, and a hash next
    // to 'unsafe-inline' would switch it off. Scripts stay locked down.
    'style-src': ["'self'", "'unsafe-inline'", ...providers],
    'img-src': ["'self'", 'data:', 'https:'],
    'connect-src': ["'self'", ...policy.widget.apiOrigins, ...providers],
    ...(providers.length > 0 ? { 'frame-src': providers } : {}),
    'font-src': ["'self'"],
    'form-action': ["'self'"],
    ...common,
  };
}

/**
 * Sets the security headers of an HTML page on this response. Call it in the page's handler
 * before sending.
 *
 * @example
 * applyPagePolicy(reply, { inlineStyles: [INBOX_STYLE] });
 * return reply.type('text/html; charset=utf-8').send(html);
 */
export function applyPagePolicy(reply: FastifyReply, policy: PagePolicy): void {
  applyPageDirectives(reply, pageDirectives(policy), policy.frameAncestors ?? []);
}

/** Helmet's middleware gave errors to its callback before 8.1; it throws them now. */
function thrown(error?: unknown): void {
  if (error) throw error instanceof Error ? error : new Error('helmet failed', { cause: error });
}

/**
 * Sets the security headers of an HTML page whose CSP is written out in full (an e-mail's HTML part
 * in the dev inbox): {@link applyPagePolicy} for a page that no {@link PagePolicy} describes.
 * `frameAncestors` must be the page's `frame-ancestors`: it decides `X-Frame-Options`.
 *
 * @example
 * applyPageDirectives(reply, { 'default-src': ["'none'"], 'frame-ancestors': ["'self'"] }, ["'self'"]);
 */
export function applyPageDirectives(
  reply: FastifyReply,
  directives: Record<string, string[]>,
  frameAncestors: readonly string[],
): void {
  const framed = frameAncestors.some((origin) => origin !== "'self'");
  // Built for each page answer: about 7 µs, too little beside the page itself to cache by policy.
  const middleware = helmet({
    ...reply.server.gatehousePageHeaders,
    contentSecurityPolicy: { useDefaults: false, directives },
    // frame-ancestors decides; X-Frame-Options cannot name other origins, and would contradict it.
    xFrameOptions: framed ? false : { action: frameAncestors.length ? 'sameorigin' : 'deny' },
  });
  middleware(reply.request.raw, reply.raw, thrown);
}
