/** Starts Gatehouse and the demo host app on one origin: /_app, /account and the dev inbox. */
import { readdir, readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { createServer as createNetServer } from 'node:net';
import { dirname, join, sep } from 'node:path';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { applyPagePolicy, configFromEnv, createServer, type ServerConfig } from '@gatehouse/server';
import {
  CAPTCHA_PROVIDERS,
  CAPTCHA_SCRIPT_URLS,
  DEFAULT_SESSION_COOKIE,
  type CaptchaProviderName,
} from '@gatehouse/protocol';
import { renderAccountPage, renderSignedOutPage } from './account-page.js';
import { ADMIN_PAGE_INLINE_SCRIPTS, renderAdminPage } from './admin-page.js';
import {
  APP_PAGE_INLINE_SCRIPTS,
  appWidgetConfig,
  renderAppPage,
  type AppPageOptions,
  type WidgetConfig,
} from './app-page.js';
import { PAGE_STYLE } from './html.js';
import { readCookie, verifySession, type ManagementCredentials } from './backend.js';
import { databaseKey, ensureDemoProject, type DemoProject } from './seed.js';

export interface DemoOptions {
  /** Port to listen on; 0 picks a free one. Default 3000. */
  port?: number;
  /** Interface to listen on. Default `localhost`. */
  host?: string;
  /**
   * Folder for the SQLite database and the demo's state file (`demo.json`: the demo project of
   * each database, with the secret key its backend uses). Default `./data`.
   */
  dataDir?: string;
  /** Server settings; anything not given comes from the environment (`configFromEnv`). */
  server?: ServerConfig;
  /**
   * Where the widget loads Google Identity Services for One Tap. Default Google's own
   * (`https://accounts.google.com/gsi/client`), or `GOOGLE_ONE_TAP_SCRIPT_URL`.
   */
  googleOneTapScriptUrl?: string;
  /**
   * The captcha provider of the demo project and where the widget loads its script, for when the
   * project has captcha on (`gatehouse captcha set`). Default `CAPTCHA_PROVIDER` and
   * `CAPTCHA_SCRIPT_URL`, else reCAPTCHA from Google.
   */
  captcha?: { provider: CaptchaProviderName; scriptUrl?: string };
}

/** The origins a real provider's challenge loads from besides its script's (docs/security.md). */
const CAPTCHA_EXTRA_ORIGINS: Readonly<Record<CaptchaProviderName, readonly string[]>> = {
  turnstile: [],
  recaptcha: ['https://www.gstatic.com'],
  hcaptcha: ['https://hcaptcha.com', 'https://*.hcaptcha.com'],
};

export interface DemoHandle {
  url: string;
  publicToken: string;
  projectId: string;
  /** The secret key the demo's backend uses, kept in {@link DemoHandle.stateFile}. */
  secret: string;
  /** The demo's state file: the demo project of each database, with its backend's secret key. */
  stateFile: string;
  app: FastifyInstance;
  close(): Promise<void>;
}

async function freePort(host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createNetServer();
    probe.once('error', reject);
    probe.listen(0, host, () => {
      const address = probe.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}

/**
 * The widget's server entry (docs/widget.md §14). Its source is TSX with Vite-only imports, outside
 * this package's type check, so the two functions used are typed here.
 */
interface WidgetServer {
  renderWidgetToString(options: { publicToken: string; config: WidgetConfig; url: string }): string;
  widgetStyleElement(): string;
}
const WIDGET_SERVER_ENTRY = '@gatehouse/widget/server';

const FIRST_SCREEN_CACHE_SIZE = 64;

const ASSETS_PREFIX = '/assets/';
const WIDGET_SCRIPT_PATH = `${ASSETS_PREFIX}gatehouse-widget.js`;

/**
 * The widget's standalone build: its entry script and the chunks it loads on demand, read once
 * into memory by their path under `/assets/`. Only these files are ever served from there.
 */
async function loadWidgetAssets(): Promise<Map<string, string>> {
  const assets = new Map<string, string>();
  let entry: string;
  try {
    entry = createRequire(import.meta.url).resolve('@gatehouse/widget/standalone');
  } catch {
    return assets;
  }
  const root = dirname(entry);
  const files = await readdir(root, { recursive: true });
  for (const file of files) {
    if (!file.endsWith('.js')) continue;
    assets.set(file.split(sep).join('/'), await readFile(join(root, file), 'utf8'));
  }
  return assets;
}

/** The chunks an asset imports statically (not by `import()`), as URLs under `/assets/`. */
function staticImports(assets: Map<string, string>, entry: string): string[] {
  const found = new Set<string>();
  const visit = (file: string) => {
    const code = assets.get(file);
    if (code === undefined) return;
    const base = file.includes('/') ? file.slice(0, file.lastIndexOf('/') + 1) : '';
    for (const match of code.matchAll(/(?:import|from)\s*["']\.\/([^"']+\.js)["']/g)) {
      const path = base + match[1]!;
      if (found.has(path)) continue;
      found.add(path);
      visit(path);
    }
  };
  visit(entry);
  return [...found].map((path) => ASSETS_PREFIX + path);
}

/**
 * Starts the demo: Gatehouse's APIs plus the host pages, seeded with the demo project on first run.
 *
 * @example
 * const demo = await startDemo({ port: 0, dataDir: tmp });
 * console.log(demo.url, demo.publicToken);
 * await demo.close();
 */
export async function startDemo(options: DemoOptions = {}): Promise<DemoHandle> {
  const host = options.host ?? 'localhost';
  const dataDir = options.dataDir ?? './data';
  const port =
    options.port === 0
      ? await freePort(host === 'localhost' ? '127.0.0.1' : host)
      : (options.port ?? 3000);
  const publicUrl = `http://${host === '127.0.0.1' ? '127.0.0.1' : 'localhost'}:${port}`;
  const config: ServerConfig = {
    ...configFromEnv(),
    databaseUrl: `sqlite:${join(dataDir, 'gatehouse.db')}`,
    publicUrl,
    devInbox: true,
    ...options.server,
  };

  const stateFile = join(dataDir, 'demo.json');
  const app = await createServer(config);
  // The demo project is seeded once the port is bound (a start that cannot listen changes no
  // data); requests that arrive in between wait for it.
  let project: DemoProject = { project_id: '', public_token: '', secret: '' };
  let seeded: (value: DemoProject) => void = () => undefined;
  let seedFailed: (error: unknown) => void = () => undefined;
  const seeding = new Promise<DemoProject>((resolve, reject) => {
    seeded = resolve;
    seedFailed = reject;
  });
  seeding.catch(() => undefined);
  app.addHook('onRequest', async () => {
    await seeding;
  });
  const management: ManagementCredentials = {
    apiUrl: `http://127.0.0.1:${port}`,
    projectId: '',
    secret: '',
  };
  const widgetServer = (await import(WIDGET_SERVER_ENTRY)) as WidgetServer;
  const widgetAssets = await loadWidgetAssets();
  const widgetPreloads = staticImports(
    widgetAssets,
    WIDGET_SCRIPT_PATH.slice(ASSETS_PREFIX.length),
  );
  const oneTapScriptUrl =
    options.googleOneTapScriptUrl ??
    process.env.GOOGLE_ONE_TAP_SCRIPT_URL ??
    'https://accounts.google.com/gsi/client';
  const envProvider = CAPTCHA_PROVIDERS.find((p) => p === process.env.CAPTCHA_PROVIDER);
  const captcha = options.captcha ?? {
    provider: envProvider ?? 'recaptcha',
    ...(process.env.CAPTCHA_SCRIPT_URL ? { scriptUrl: process.env.CAPTCHA_SCRIPT_URL } : {}),
  };
  const captchaOrigins = [
    new URL(captcha.scriptUrl ?? CAPTCHA_SCRIPT_URLS[captcha.provider]).origin,
    ...(captcha.scriptUrl ? [] : CAPTCHA_EXTRA_ORIGINS[captcha.provider]),
  ];

  app.get('/', async (_request, reply) => reply.redirect('/_app'));

  /**
   * The security headers of a host page: scripts only from here or by hash, and framing only by
   * the project's own origins (read per request: they may change while the demo runs). The
   * widget pages also run the widget, which calls the API at the public URL.
   */
  const securePage = async (
    reply: FastifyReply,
    widget: boolean,
    oneTap = false,
    captchaOn = false,
    inlineScripts: readonly string[] = APP_PAGE_INLINE_SCRIPTS,
  ) => {
    const settings = await app.gatehouse.getProject(project.project_id);
    applyPagePolicy(reply, {
      ...(widget
        ? {
            inlineScripts,
            widget: {
              apiOrigins: [new URL(publicUrl).origin],
              ...(oneTap ? { oneTapScriptUrl } : {}),
              ...(captchaOn ? { captchaOrigins } : {}),
            },
          }
        : { inlineStyles: [PAGE_STYLE] }),
      frameAncestors: ["'self'", ...(settings?.authorized_origins ?? [])],
    });
  };

  // The widget offers Google and Microsoft only once the project has them set up, and One Tap
  // once Google has a One Tap client.
  // The first screen depends only on the configuration (whose redirect URLs name the page), so
  // it is rendered once per configuration. Host names come from requests: the cache is bounded.
  const firstScreens = new Map<string, string>();
  const renderFirstScreen = (config: WidgetConfig, url: string): string => {
    const key = JSON.stringify(config);
    let html = firstScreens.get(key);
    if (html === undefined) {
      html = widgetServer.renderWidgetToString({ publicToken: project.public_token, config, url });
      if (firstScreens.size >= FIRST_SCREEN_CACHE_SIZE) firstScreens.clear();
      firstScreens.set(key, html);
    }
    return html;
  };

  // The discovery page comes with its first screen rendered here (docs/widget.md §14) when the
  // server knows what it is: no session cookie, and no sign-in token in the URL.
  const widgetPage = async (
    request: FastifyRequest,
    reply: FastifyReply,
    slug: string | null,
    passwordReset = false,
  ) => {
    const providers = (await app.gatehouse.oauthProviders(project.project_id)).filter(
      (p) => p.enabled,
    );
    const oneTap = providers.some((p) => p.provider === 'google' && p.onetap_client_id !== '');
    const captchaOn = (await app.gatehouse.captchaSettings(project.project_id)).enabled;
    await securePage(reply, true, oneTap, captchaOn);
    const url = new URL(request.url, `${request.protocol}://${request.host}`);
    // ?lang=es picks the language; e-mailed links carry the one they were written in as ?locale=.
    const lang = url.searchParams.get('lang') ?? url.searchParams.get('locale');
    const options: AppPageOptions = {
      publicToken: project.public_token,
      baseUrl: publicUrl,
      slug,
      passwordReset,
      widgetScriptUrl: WIDGET_SCRIPT_PATH,
      modulePreloads: widgetPreloads,
      oauthProviders: providers.map((p) => p.provider),
      oneTap,
      googleOneTapScriptUrl: oneTapScriptUrl,
      pageUrl: url.origin + url.pathname,
      ...(captchaOn ? { captcha } : {}),
      ...(lang ? { locale: lang } : {}),
    };
    const firstScreenKnown =
      slug === null &&
      !passwordReset &&
      !url.searchParams.has('token') &&
      // Other languages load their table first; the server renders the English first screen only.
      lang === null &&
      readCookie(request.headers.cookie, DEFAULT_SESSION_COOKIE) === null;
    if (firstScreenKnown) {
      options.serverRendered = {
        html: renderFirstScreen(appWidgetConfig(options), url.origin + url.pathname),
        styleElement: widgetServer.widgetStyleElement(),
      };
    }
    return reply.type('text/html').send(renderAppPage(options));
  };
  app.get('/_app', (request, reply) => widgetPage(request, reply, null));
  app.get<{ Params: { slug: string } }>('/_app/org/:slug', (request, reply) =>
    widgetPage(request, reply, request.params.slug),
  );
  // Where password reset e-mails (and the login links of first-time passwords) lead.
  app.get('/_app/reset', (request, reply) => widgetPage(request, reply, null, true));
  // The admin portal for the member signed in at /_app (docs/widget.md §15).
  app.get('/_app/admin', async (_request, reply) => {
    await securePage(reply, true, false, false, ADMIN_PAGE_INLINE_SCRIPTS);
    return reply.type('text/html').send(
      renderAdminPage({
        publicToken: project.public_token,
        baseUrl: publicUrl,
        widgetScriptUrl: WIDGET_SCRIPT_PATH,
      }),
    );
  });

  app.get<{ Params: { '*': string } }>(`${ASSETS_PREFIX}*`, async (request, reply) => {
    const asset = widgetAssets.get(request.params['*']);
    if (asset === undefined) {
      const missing = widgetAssets.size === 0;
      return reply
        .code(missing ? 503 : 404)
        .type('text/plain')
        .send(missing ? 'The widget is not built yet: run `npm run build`.' : 'Not found');
    }
    // Module scripts from another origin (hosts embedding the widget) need CORS, and a resource
    // policy that lets other origins load them.
    return reply
      .type('text/javascript; charset=utf-8')
      .header('cache-control', 'no-cache')
      .header('access-control-allow-origin', '*')
      .header('cross-origin-resource-policy', 'cross-origin')
      .send(asset);
  });

  const currentSession = (cookieHeader: string | undefined) => {
    const token = readCookie(cookieHeader, DEFAULT_SESSION_COOKIE);
    return token ? verifySession(management, token) : Promise.resolve(null);
  };

  app.get('/account', async (request, reply) => {
    await securePage(reply, false);
    const verified = await currentSession(request.headers.cookie);
    if (!verified) return reply.code(401).type('text/html').send(renderSignedOutPage());
    return reply.type('text/html').send(renderAccountPage(verified));
  });

  app.get('/api/me', async (request, reply) => {
    const verified = await currentSession(request.headers.cookie);
    if (!verified) return reply.code(401).send({ error: 'not_signed_in' });
    return { member: verified.member, organization: verified.organization };
  });

  try {
    await app.listen({ port, host });
  } catch (error) {
    seedFailed(error);
    await app.close();
    throw error;
  }
  try {
    project = await ensureDemoProject(
      app.gatehouse,
      stateFile,
      databaseKey(config.databaseUrl ?? ''),
      publicUrl,
    );
    management.projectId = project.project_id;
    management.secret = project.secret;
    seeded(project);
  } catch (error) {
    seedFailed(error);
    await app.close();
    throw error;
  }
  return {
    url: publicUrl,
    publicToken: project.public_token,
    projectId: project.project_id,
    secret: project.secret,
    stateFile,
    app,
    close: () => app.close(),
  };
}
