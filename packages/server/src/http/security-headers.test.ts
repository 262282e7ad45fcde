// Security headers: nosniff (and HSTS) everywhere; the dev inbox page gets helmet's set and its own CSP.
import { createHash } from 'node:crypto';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness, type TestResponse } from '../test/harness.js';
import { applyPagePolicy, installSecurityHeaders, pageDirectives } from './security-headers.js';

/** The CSP as a map of directive to its sources. */
function csp(res: TestResponse): Map<string, string[]> {
  const header = res.headers.get('content-security-policy') ?? '';
  return new Map(
    header
      .split(';')
      .map((part) => part.trim().split(/\s+/))
      .filter((words) => words[0])
      .map(([name = '', ...sources]) => [name, sources]),
  );
}

const hashOf = (text: string) =>
  `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;

/** Helmet's headers besides the CSP, X-Frame-Options and HSTS, as every page gets them. */
const PAGE_HEADERS = {
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-resource-policy': 'same-origin',
  'origin-agent-cluster': '?1',
  'referrer-policy': 'no-referrer',
  'x-content-type-options': 'nosniff',
  'x-dns-prefetch-control': 'off',
  'x-download-options': 'noopen',
  'x-permitted-cross-domain-policies': 'none',
  'x-xss-protection': '0',
};

/** The page headers a response carries, by lower-case name. */
function pageHeadersOf(headers: Headers): Record<string, string | null> {
  return Object.fromEntries(Object.keys(PAGE_HEADERS).map((name) => [name, headers.get(name)]));
}

describe('security headers', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ config: { devInbox: true } });
  });
  afterAll(async () => {
    await h.close();
  });

  it('mark every response nosniff, and spare JSON the page headers', async () => {
    const responses = [
      await h.sdk('/b2b/organizations/search', { body: { organization_slug: 'acme' } }),
      await h.sdk('/b2b/organizations/search', { rawBody: '{' }),
      await h.request('/nope', { authorization: null }),
      await h.request('/_dev/inbox/messages', { authorization: null }),
    ];
    expect(responses.map((r) => r.status)).toEqual([200, 400, 404, 200]);
    for (const res of responses) {
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
      // Plain http public URL: no HSTS.
      expect(res.headers.get('strict-transport-security')).toBeNull();
    }
    expect(responses[0]?.headers.get('content-security-policy')).toBeNull();
  });

  it('answer JSON with nosniff and none of the page headers, through one onRequest hook', async () => {
    for (const res of [
      await h.request('/healthz', { authorization: null }),
      await h.sdk('/b2b/organizations/search', { body: { organization_slug: 'acme' } }),
    ]) {
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^application\/json/);
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
      for (const name of [
        'content-security-policy',
        'x-frame-options',
        ...Object.keys(PAGE_HEADERS),
      ]) {
        if (name !== 'x-content-type-options') expect(res.headers.get(name), name).toBeNull();
      }
    }
    // Helmet runs inside the pages' handlers: no route, the session check's included, has a
    // hook of its own ahead of the one request hook.
    const tree = h.app.printRoutes({ includeHooks: true, commonPrefix: false });
    const lists = [...tree.matchAll(/\(onRequest\) (\[.*\])/g)].map(
      ([, list = '[]']) => JSON.parse(list) as string[],
    );
    expect(lists.length).toBeGreaterThan(50);
    for (const hooks of lists) expect(hooks[0]).toBe('requestHook()');
    expect(lists.flat().filter((name) => /helmet/i.test(name))).toEqual([]);
  });

  it('give the inbox page a policy that allows exactly its own style sheet', async () => {
    await h.sdk('/b2b/magic_links/email/login_or_signup', {
      body: { email_address: 'ada@acme.test', organization_id: h.org.organization_id },
    });
    const page = await h.request('/_dev/inbox', { authorization: null });
    expect(page.status).toBe(200);
    expect(page.text).toContain('<a href="http://localhost:3000/authenticate?');
    const style = /<style>([^<]*)<\/style>/.exec(page.text)?.[1] ?? '';
    const policy = csp(page);
    expect(policy.get('default-src')).toEqual(["'none'"]);
    expect(policy.get('style-src')).toEqual([hashOf(style)]);
    expect(policy.get('script-src')).toBeUndefined();
    expect(policy.get('frame-ancestors')).toEqual(["'none'"]);
    expect(page.headers.get('x-frame-options')).toBe('DENY');
    // The page is full of single-use links: following one must not leak the page's URL.
    expect(page.headers.get('referrer-policy')).toBe('no-referrer');
    expect(page.headers.get('x-content-type-options')).toBe('nosniff');
    expect(pageHeadersOf(page.headers)).toEqual(PAGE_HEADERS);
    expect(page.headers.get('strict-transport-security')).toBeNull();
  });

  it('send HSTS when the public URL is https', async () => {
    const https = await startHarness({
      config: { publicUrl: 'https://auth.example.com', smtp: { host: '127.0.0.1', port: 9 } },
    });
    try {
      const res = await https.sdk('/b2b/organizations/search', {
        body: { organization_slug: 'acme' },
      });
      expect(res.headers.get('strict-transport-security')).toBe(
        'max-age=31536000; includeSubDomains',
      );
    } finally {
      await https.close();
    }
  });

  it('give each page the defaults and its own policy, framed by other origins or not', async () => {
    for (const https of [false, true]) {
      const app = Fastify();
      const everywhere = installSecurityHeaders(app, { https });
      app.addHook('onRequest', (_request, reply, done) => {
        everywhere(reply);
        done();
      });
      const pages = {
        framed: { widget: { apiOrigins: [] }, frameAncestors: ["'self'", 'https://app.test'] },
        own: { selfScripts: true, frameAncestors: ["'self'"] },
        alone: { inlineStyles: ['p{}'] },
      };
      for (const [name, policy] of Object.entries(pages)) {
        app.get(`/${name}`, async (_request, reply) => {
          applyPagePolicy(reply, policy);
          return reply.type('text/html').send('<p>');
        });
      }
      const hsts = https ? 'max-age=31536000; includeSubDomains' : undefined;
      const expected = { framed: undefined, own: 'SAMEORIGIN', alone: 'DENY' };
      for (const [name, frameOptions] of Object.entries(expected)) {
        const res = await app.inject({ url: `/${name}` });
        const headers = new Headers(res.headers as Record<string, string>);
        expect(pageHeadersOf(headers), name).toEqual(PAGE_HEADERS);
        expect(res.headers['x-frame-options'], name).toBe(frameOptions);
        expect(res.headers['strict-transport-security'], name).toBe(hsts);
        expect(res.headers['content-security-policy'], name).toContain('frame-ancestors');
      }
      await app.close();
    }
  });
});

describe('pageDirectives', () => {
  it('lets a widget page run its hashed scripts, its run-time styles and API calls, nothing inline else', () => {
    const directives = pageDirectives({
      inlineScripts: ['run()'],
      widget: { apiOrigins: ['https://auth.example.com'] },
      frameAncestors: ["'self'", 'https://app.example.com'],
    });
    expect(directives['script-src']).toEqual(["'self'", hashOf('run()')]);
    expect(directives['style-src']).toEqual(["'self'", "'unsafe-inline'"]);
    expect(directives['connect-src']).toEqual(["'self'", 'https://auth.example.com']);
    expect(directives['img-src']).toEqual(["'self'", 'data:', 'https:']);
    expect(directives['object-src']).toEqual(["'none'"]);
    expect(directives['base-uri']).toEqual(["'none'"]);
    expect(directives['frame-ancestors']).toEqual(["'self'", 'https://app.example.com']);
    expect(directives['frame-src']).toBeUndefined();
  });

  it("opens Google Identity Services' origin, and only it, to a page offering One Tap", () => {
    const directives = pageDirectives({
      widget: {
        apiOrigins: ['https://auth.example.com'],
        oneTapScriptUrl: 'https://accounts.google.com/gsi/client',
      },
    });
    const google = 'https://accounts.google.com';
    expect(directives['script-src']).toEqual(["'self'", google]);
    expect(directives['style-src']).toEqual(["'self'", "'unsafe-inline'", google]);
    expect(directives['connect-src']).toEqual(["'self'", 'https://auth.example.com', google]);
    expect(directives['frame-src']).toEqual([google]);
  });

  it("opens the captcha provider's origins to a page whose project has captcha on", () => {
    const turnstile = 'https://challenges.cloudflare.com';
    const directives = pageDirectives({
      widget: { apiOrigins: ['https://auth.example.com'], captchaOrigins: [turnstile] },
    });
    expect(directives['script-src']).toEqual(["'self'", turnstile]);
    expect(directives['connect-src']).toEqual(["'self'", 'https://auth.example.com', turnstile]);
    expect(directives['frame-src']).toEqual([turnstile]);
    const off = pageDirectives({ widget: { apiOrigins: ['https://auth.example.com'] } });
    expect(off['script-src']).toEqual(["'self'"]);
    expect(off['frame-src']).toBeUndefined();
  });
});
