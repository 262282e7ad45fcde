/** The host pages under /_app: the widget (sign-in or password reset) and the session it holds. */
import { escapeHtml, jsonForScript, page } from './html.js';

export interface AppPageOptions {
  publicToken: string;
  /** Origin of the Gatehouse server the widget talks to. */
  baseUrl: string;
  /** Organization slug for the organization flow, or null for discovery. */
  slug: string | null;
  /** The page password reset e-mails lead to: the widget starts on the reset form. */
  passwordReset?: boolean;
  /** Where the standalone widget bundle is served. */
  widgetScriptUrl: string;
  /** The OAuth providers the project has on; the widget offers their buttons. */
  oauthProviders?: readonly string[];
  /** Offer Google One Tap (the project has a One Tap client for Google). */
  oneTap?: boolean;
  /** Where Google Identity Services is loaded from; the client's default when absent. */
  googleOneTapScriptUrl?: string;
  /** The project's captcha provider and script URL, when the project has captcha on. */
  captcha?: { provider: string; scriptUrl?: string };
  /** The page's URL without its query, as the browser sees it: the widget's redirect URLs. */
  pageUrl: string;
  /**
   * The widget's first screen rendered on the server (`renderWidgetToString`) with
   * {@link appWidgetConfig}, and its style sheet element for the head: the page hydrates it.
   */
  serverRendered?: { html: string; styleElement: string };
  /** Scripts the widget's entry imports, fetched in parallel with it. */
  modulePreloads?: readonly string[];
  /** The widget's language (the page's `?lang=`); its default when absent. */
  locale?: string;
}

/** The widget's `WidgetConfig`, as JSON for the page and the server render. */
export type WidgetConfig = Record<string, unknown>;

/** The widget's configuration on a page; the server renders with it and the page hydrates with it. */
export function appWidgetConfig(options: AppPageOptions): WidgetConfig {
  const here = options.pageUrl;
  const origin = new URL(here).origin;
  const providers = options.oauthProviders ?? [];
  return {
    products: [
      'emailMagicLinks',
      'passwords',
      'sso',
      ...(providers.length ? ['oauth' as const] : []),
    ],
    authFlowType: options.passwordReset
      ? 'passwordReset'
      : options.slug
        ? 'organization'
        : 'discovery',
    // The page knows its organization from its own route, whatever host name it was opened by.
    ...(options.slug ? { organizationSlug: options.slug } : {}),
    sessionOptions: { sessionDurationMinutes: 60 },
    // ?lang=es shows the widget in another language (docs/widget.md §3).
    ...(options.locale ? { locale: options.locale } : {}),
    emailMagicLinksOptions: {
      loginRedirectURL: here,
      signupRedirectURL: here,
      discoveryRedirectURL: here,
    },
    passwordOptions: { resetPasswordRedirectURL: `${origin}/_app/reset` },
    ssoOptions: { loginRedirectURL: here, signupRedirectURL: here },
    oauthOptions: {
      providers: providers.map((type) =>
        type === 'google' && options.oneTap ? { type, one_tap: true } : type,
      ),
      loginRedirectURL: here,
      signupRedirectURL: here,
      discoveryRedirectURL: here,
    },
  };
}

// Runs in the browser. Creates one client, mounts the widget with it, and mirrors the session in
// the header; when the session ends (here or in another tab) the widget is mounted afresh.
const HOST_SCRIPT = `
const cfg = JSON.parse(document.getElementById('demo-config').textContent);
const client = Gatehouse.createClient(cfg.publicToken, Object.assign(
  { baseUrl: cfg.baseUrl },
  cfg.googleOneTapScriptUrl ? { googleOneTapScriptUrl: cfg.googleOneTapScriptUrl } : {},
  cfg.captcha ? { captcha: cfg.captcha } : {},
));
const status = document.getElementById('session-status');
const signOut = document.getElementById('sign-out');
const account = document.getElementById('account-link');
const adminLink = document.getElementById('admin-link');
const widgetConfig = cfg.widgetConfig;
let handle = null;
// The first time, the server-rendered first screen is taken over rather than drawn again.
function mountWidget() {
  const first = handle === null;
  if (handle) handle.unmount();
  const options = { client, config: widgetConfig };
  handle = first && cfg.serverRendered
    ? Gatehouse.hydrate('#widget', options)
    : Gatehouse.mount('#widget', options);
}
let signedIn = false;
function render() {
  const state = client.session.getSnapshot();
  if (state) {
    status.textContent = 'Signed in as ' + state.member.email_address + ' (' + state.organization.organization_name + ')';
  } else {
    status.textContent = 'Not signed in';
    if (signedIn) mountWidget();
  }
  signedIn = Boolean(state);
  // Signed out, the links are not just hidden but absent from the page's text.
  signOut.hidden = !state;
  signOut.textContent = state ? 'Sign out' : '';
  account.hidden = !state;
  account.textContent = state ? 'Account' : '';
  adminLink.hidden = !state;
  adminLink.textContent = state ? 'Admin' : '';
}
signOut.addEventListener('click', () => {
  signOut.disabled = true;
  client.session.revoke({ forceClear: true }).catch(() => {}).finally(() => { signOut.disabled = false; });
});
client.session.subscribe(render);
mountWidget();
render();
`;

// Runs in the browser as the head is parsed, before any module script. A server-rendered form is
// live before the widget has hydrated it; without this, a submit in that moment would be the
// browser's own, reloading the page with the typed address in its URL. The widget's handlers
// prevent the default too, so the listener stays harmless once it has hydrated.
const EARLY_SCRIPT = `document.addEventListener('submit', function (event) {
  var form = event.target;
  if (form instanceof Element && form.closest('#widget')) event.preventDefault();
}, true);`;

/** The text of the page's inline scripts, which its Content-Security-Policy allows by hash. */
export const APP_PAGE_INLINE_SCRIPTS: readonly string[] = [HOST_SCRIPT, EARLY_SCRIPT];

/** Renders the /_app page. */
export function renderAppPage(options: AppPageOptions): string {
  const header = `<nav>
<span id="session-status" role="status" aria-live="polite">Not signed in</span>
<a id="account-link" href="/account" hidden></a>
<a id="admin-link" href="/_app/admin" hidden></a>
<button id="sign-out" class="link" type="button" hidden></button>
<a href="/_dev/inbox" target="_blank" rel="noopener">Dev inbox</a>
</nav>`;
  const config = {
    publicToken: options.publicToken,
    baseUrl: options.baseUrl,
    widgetConfig: appWidgetConfig(options),
    serverRendered: options.serverRendered !== undefined,
    googleOneTapScriptUrl: options.googleOneTapScriptUrl ?? null,
    captcha: options.captcha ?? null,
  };
  const scripts = `<script type="application/json" id="demo-config">${jsonForScript(config)}</script>
<script type="module" src="${escapeHtml(options.widgetScriptUrl)}"></script>
<script type="module">${HOST_SCRIPT}</script>`;
  // The entry and what it imports start downloading with the head, not after the body.
  const head = [options.widgetScriptUrl, ...(options.modulePreloads ?? [])]
    .map((url) => `<link rel="modulepreload" href="${escapeHtml(url)}">\n`)
    .join('');
  const title = options.passwordReset
    ? 'Reset your password · Gatehouse demo'
    : 'Sign in · Gatehouse demo';
  return page(
    title,
    header,
    `<div id="widget">${options.serverRendered?.html ?? ''}</div>`,
    scripts,
    head +
      (options.serverRendered
        ? `${options.serverRendered.styleElement}<script>${EARLY_SCRIPT}</script>\n`
        : ''),
  );
}
