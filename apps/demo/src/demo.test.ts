import { createHash } from 'node:crypto';
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { createServer as createNetServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_PAGE_INLINE_SCRIPTS } from './admin-page.js';
import { APP_PAGE_INLINE_SCRIPTS } from './app-page.js';
import { startDemo, type DemoHandle } from './demo.js';
import { DEMO_ADMIN_EMAIL } from './seed.js';
import { startMessage } from './start-message.js';

interface InboxMessage {
  to: string;
  subject: string;
  links: string[];
}

let dataDir: string;
let demo: DemoHandle;

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'gatehouse-demo-'));
  demo = await startDemo({ port: 0, host: '127.0.0.1', dataDir, server: { logger: false } });
});

afterAll(async () => {
  await demo?.close();
  await rm(dataDir, { recursive: true, force: true });
});

/** The Content-Security-Policy of a response, as directive → sources. */
function cspOf(response: Response): Map<string, string[]> {
  const header = response.headers.get('content-security-policy') ?? '';
  return new Map(
    header
      .split(';')
      .map((part) => part.trim().split(/\s+/))
      .filter((words) => words[0])
      .map(([name = '', ...sources]) => [name, sources]),
  );
}

const sha256 = (text: string) =>
  `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;

function sdk(path: string, body: unknown, secret = demo.publicToken) {
  return fetch(`${demo.url}/sdk/v1${path}`, {
    method: 'POST',
    headers: {
      authorization: `Basic ${btoa(`${demo.publicToken}:${secret}`)}`,
      'content-type': 'application/json',
      origin: demo.url,
    },
    body: JSON.stringify(body),
  });
}

async function signIn(email: string): Promise<string> {
  const search = await sdk('/b2b/organizations/search', { organization_slug: 'acme' });
  const { data } = (await search.json()) as { data: { organization: { organization_id: string } } };
  const sent = await sdk('/b2b/magic_links/email/login_or_signup', {
    email_address: email,
    organization_id: data.organization.organization_id,
  });
  expect(sent.status).toBe(200);
  const inbox = (await (await fetch(`${demo.url}/_dev/inbox/messages`)).json()) as InboxMessage[];
  const message = inbox.find((m) => m.to === email);
  const link = new URL(message!.links[0]!);
  expect(link.searchParams.get('stytch_token_type')).toBe('multi_tenant_magic_links');
  const auth = await sdk('/b2b/magic_links/authenticate', {
    magic_links_token: link.searchParams.get('token'),
    session_duration_minutes: 60,
  });
  expect(auth.status).toBe(200);
  const result = (await auth.json()) as { data: { session_token: string } };
  return result.data.session_token;
}

describe('demo app', () => {
  it('serves the sign-in page with the project public token', async () => {
    const response = await fetch(`${demo.url}/_app`);
    expect(response.status).toBe(200);
    const html = await response.text();
    expect(html).toContain(demo.publicToken);
    expect(html).toContain('/assets/gatehouse-widget.js');
    expect(html).toContain('"authFlowType":"discovery"');
    const orgPage = await (await fetch(`${demo.url}/_app/org/acme`)).text();
    expect(orgPage).toContain('"organizationSlug":"acme"');
  });

  it('serves the admin page: the portal mounted from the widget bundle, its script allowed by hash', async () => {
    const response = await fetch(`${demo.url}/_app/admin`);
    expect(response.status).toBe(200);
    const html = await response.text();
    expect(html).toContain(demo.publicToken);
    expect(html).toContain('<script type="module" src="/assets/gatehouse-widget.js">');
    expect(html).toContain("Gatehouse.mountAdminPortal('#admin-portal'");
    const inline = [...html.matchAll(/<script type="module">([\s\S]*?)<\/script>/g)].map((m) =>
      sha256(m[1] ?? ''),
    );
    expect(inline).toHaveLength(1);
    expect(cspOf(response).get('script-src')).toEqual([
      "'self'",
      ...ADMIN_PAGE_INLINE_SCRIPTS.map(sha256),
    ]);
    // The sign-in page links to it once signed in.
    expect(await (await fetch(`${demo.url}/_app`)).text()).toContain(
      '<a id="admin-link" href="/_app/admin" hidden></a>',
    );
  });

  it('renders the discovery first screen on the server, styled, with the widget preloaded', async () => {
    const html = await (await fetch(`${demo.url}/_app`)).text();
    const widget = html.slice(html.indexOf('<div id="widget">'), html.indexOf('</main>'));
    expect(widget).toContain('<h1 tabindex="-1" class="gh-heading">Sign up or log in</h1>');
    expect(widget).toContain('Continue with email');
    expect(html).toContain('"serverRendered":true');
    const head = html.slice(0, html.indexOf('</head>'));
    expect(head).toContain('<style data-gatehouse-widget="widget">');
    expect(head).toContain('<link rel="modulepreload" href="/assets/gatehouse-widget.js">');
  });

  it('leaves the widget to the browser where the server cannot know the first screen', async () => {
    const pages = [
      fetch(`${demo.url}/_app`, { headers: { cookie: 'gatehouse_session=some-token' } }),
      fetch(`${demo.url}/_app?stytch_token_type=discovery&token=abc`),
      fetch(`${demo.url}/_app/org/acme`),
      fetch(`${demo.url}/_app/reset`),
    ];
    for (const response of await Promise.all(pages)) {
      const html = await response.text();
      expect(html, response.url).toContain('<div id="widget"></div>');
      expect(html, response.url).toContain('"serverRendered":false');
    }
  });

  it('serves only the widget build under /assets', async () => {
    for (const path of ['/assets/nope.js', '/assets/../package.json', '/assets/%2e%2e/demo.json']) {
      const response = await fetch(`${demo.url}${path}`);
      expect([404, 503], path).toContain(response.status);
      expect(await response.text()).not.toContain('secret');
    }
  });

  it('redirects the root to /_app', async () => {
    const response = await fetch(`${demo.url}/`, { redirect: 'manual' });
    expect(response.status).toBe(302);
    expect(response.headers.get('location')).toBe('/_app');
  });

  it('turns away the account page without a session', async () => {
    const response = await fetch(`${demo.url}/account`);
    expect(response.status).toBe(401);
    expect(await response.text()).toContain('You are not signed in');
    const junk = await fetch(`${demo.url}/api/me`, {
      headers: { cookie: 'gatehouse_session=not-a-real-token' },
    });
    expect(junk.status).toBe(401);
  });

  it('shows the member and organization once the backend verifies the session', async () => {
    const token = await signIn(DEMO_ADMIN_EMAIL);
    const me = await fetch(`${demo.url}/api/me`, {
      headers: { cookie: `gatehouse_session=${token}` },
    });
    expect(me.status).toBe(200);
    const body = (await me.json()) as {
      member: { email_address: string };
      organization: { organization_name: string };
    };
    expect(body.member.email_address).toBe(DEMO_ADMIN_EMAIL);
    expect(body.organization.organization_name).toBe('Acme Corp');
    const page = await fetch(`${demo.url}/account`, {
      headers: { cookie: `other=1; gatehouse_session=${token}` },
    });
    expect(page.status).toBe(200);
    expect(await page.text()).toContain(DEMO_ADMIN_EMAIL);
  });

  it('serves its pages with a policy the widget runs under, framed only by the project origins', async () => {
    await demo.app.gatehouse.updateProject(demo.projectId, {
      authorizedOrigins: ['https://partner.example.com'],
    });
    for (const path of ['/_app', '/_app/org/acme', '/_app/reset']) {
      const response = await fetch(`${demo.url}${path}`, {
        headers: { origin: 'https://evil.example' },
      });
      const html = await response.text();
      const policy = cspOf(response);
      // The page's own inline scripts are allowed by their hashes; anything else inline is not.
      const inline = [...html.matchAll(/<script(?: type="module")?>([\s\S]*?)<\/script>/g)].map(
        (match) => sha256(match[1] ?? ''),
      );
      // The server-rendered /_app also carries the script that holds submits until it hydrates.
      expect(inline, path).toHaveLength(path === '/_app' ? 2 : 1);
      const allowed = policy.get('script-src') ?? [];
      expect(allowed, path).toEqual(["'self'", ...APP_PAGE_INLINE_SCRIPTS.map(sha256)]);
      for (const hash of inline) expect(allowed, path).toContain(hash);
      expect(policy.get('connect-src')).toEqual(["'self'", demo.url]);
      expect(policy.get('frame-ancestors')).toEqual(["'self'", 'https://partner.example.com']);
      expect(policy.get('object-src')).toEqual(["'none'"]);
      expect(response.headers.get('x-frame-options')).toBeNull();
      // Sign-in and reset links land here with their token in the URL.
      expect(response.headers.get('referrer-policy')).toBe('no-referrer');
      expect(response.headers.get('x-content-type-options')).toBe('nosniff');
      expect(response.headers.get('access-control-allow-origin')).toBeNull();
    }
    const account = await fetch(`${demo.url}/account`, {
      headers: { origin: 'https://evil.example' },
    });
    const style = /<style>([\s\S]*?)<\/style>/.exec(await account.text())?.[1] ?? '';
    const policy = cspOf(account);
    expect(policy.get('default-src')).toEqual(["'none'"]);
    expect(policy.get('style-src')).toEqual([sha256(style)]);
    expect(policy.get('script-src')).toBeUndefined();
    expect(account.headers.get('access-control-allow-origin')).toBeNull();
    const inbox = await fetch(`${demo.url}/_dev/inbox`, {
      headers: { origin: 'https://evil.example' },
    });
    expect(inbox.status).toBe(200);
    expect(cspOf(inbox).get('frame-ancestors')).toEqual(["'none'"]);
    expect(inbox.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('reuses the project, organization and member on a second start', async () => {
    const second = await startDemo({
      port: 0,
      host: '127.0.0.1',
      dataDir,
      server: { logger: false },
    });
    try {
      expect(second.publicToken).toBe(demo.publicToken);
      expect(second.projectId).toBe(demo.projectId);
      const org = await second.app.gatehouse.getOrganizationBySlug(second.projectId, 'acme');
      expect(org?.organization_name).toBe('Acme Corp');
    } finally {
      await second.close();
    }
  });

  it('prints the project id and where the secret key is, never the key', () => {
    const message = startMessage(demo);
    expect(message).toContain(`Public token: ${demo.publicToken}`);
    expect(message).toContain(`Project id: ${demo.projectId}`);
    expect(message).toContain(join(dataDir, 'demo.json'));
    expect(message).toContain(`npx gatehouse secret create --project ${demo.projectId}`);
    expect(message).not.toContain(demo.secret);
  });

  it('keeps a demo project per database, so another DATABASE_URL does not replace the first', async () => {
    const other = await mkdtemp(join(tmpdir(), 'gatehouse-demo-other-'));
    const start = (server: { databaseUrl?: string }) =>
      startDemo({ port: 0, host: '127.0.0.1', dataDir, server: { logger: false, ...server } });
    try {
      const elsewhere = await start({ databaseUrl: `sqlite:${join(other, 'other.db')}` });
      const elsewhereId = elsewhere.projectId;
      await elsewhere.close();
      expect(elsewhereId).not.toBe(demo.projectId);

      const plain = await start({});
      try {
        expect(plain.projectId).toBe(demo.projectId);
        expect(plain.publicToken).toBe(demo.publicToken);
        expect(plain.secret).toBe(demo.secret);
      } finally {
        await plain.close();
      }
      const again = await start({ databaseUrl: `sqlite:${join(other, 'other.db')}` });
      try {
        expect(again.projectId).toBe(elsewhereId);
        // Its backend's secret key still works against the management API.
        const secrets = await fetch(`${again.url}/v1/b2b/project/secrets`, {
          headers: { authorization: `Basic ${btoa(`${again.projectId}:${again.secret}`)}` },
        });
        expect(secrets.status).toBe(200);
      } finally {
        await again.close();
      }
      const state = JSON.parse(await readFile(join(dataDir, 'demo.json'), 'utf8')) as {
        databases: Record<string, { project_id: string }>;
      };
      expect(
        Object.values(state.databases)
          .map((p) => p.project_id)
          .sort(),
      ).toEqual([demo.projectId, elsewhereId].sort());
    } finally {
      await rm(other, { recursive: true, force: true });
    }
  });

  it('seeds nothing when the port is taken', async () => {
    const fresh = await mkdtemp(join(tmpdir(), 'gatehouse-demo-busy-'));
    const blocker = createNetServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const address = blocker.address();
    const port = typeof address === 'object' && address ? address.port : 0;
    try {
      await expect(
        startDemo({ port, host: '127.0.0.1', dataDir: fresh, server: { logger: false } }),
      ).rejects.toThrow(/EADDRINUSE|address already in use/);
      await expect(stat(join(fresh, 'demo.json'))).rejects.toThrow();
    } finally {
      await new Promise((resolve) => blocker.close(resolve));
      await rm(fresh, { recursive: true, force: true });
    }
  });

  it('answers a browser with a 404 page outside the APIs, and API clients with JSON', async () => {
    const html = { accept: 'text/html,application/xhtml+xml,*/*;q=0.8' };
    const page = await fetch(`${demo.url}/no-such-page?x=<b>`, { headers: html });
    expect(page.status).toBe(404);
    expect(page.headers.get('content-type')).toContain('text/html');
    const text = await page.text();
    expect(text).toContain('<h1>Page not found</h1>');
    expect(text).toContain('<code>/no-such-page</code>');
    expect(page.headers.get('content-security-policy')).toContain("default-src 'none'");
    for (const path of ['/v1/b2b/nope', '/sdk/v1/nope', '/no-such-page']) {
      const headers = path === '/no-such-page' ? { accept: 'application/json' } : html;
      const api = await fetch(`${demo.url}${path}`, { headers });
      expect(api.status, path).toBe(404);
      expect(((await api.json()) as { error_type: string }).error_type, path).toBe(
        'endpoint_not_found',
      );
    }
  });

  it('answers /favicon.ico without an error', async () => {
    const icon = await fetch(`${demo.url}/favicon.ico`, { headers: { accept: 'image/*' } });
    expect(icon.status).toBe(204);
    expect(icon.headers.get('cache-control')).toContain('max-age');
  });
});
