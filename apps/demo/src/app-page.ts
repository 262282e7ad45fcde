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
}

// Runs in the browser. Creates one client, mounts the widget with it, and mirrors the session in
// the header; when the session ends (here or in another tab) the widget is mounted afresh.
const HOST_SCRIPT = `
const cfg = JSON.parse(document.getElementById('demo-config').textContent);
const here = location.origin + location.pathname;
const client = Gatehouse.createClient(cfg.publicToken, Object.assign(
  { baseUrl: cfg.baseUrl },
  cfg.googleOneTapScriptUrl ? { googleOneTapScriptUrl: cfg.googleOneTapScriptUrl } : {},
  cfg.captcha ? { captcha: cfg.captcha } : {},
));
const status = document.getElementById('session-status');
const signOut = document.getElementById('sign-out');
const account = document.getElementById('account-link');
const widgetConfig = {
  products: ['emailMagicLinks', 'passwords', 'sso'].concat(cfg.oauthProviders.length ? ['oauth'] : []),
  authFlowType: cfg.passwordReset ? 'passwordReset' : cfg.slug ? 'organization' : 'discovery',
  // The page knows its organization from its own route, whatever host name it was opened by.
  ...(cfg.slug ? { organizationSlug: cfg.slug } : {}),
  sessionOptions: { sessionDurationMinutes: 60 },
  emailMagicLinksOptions: {
    loginRedirectURL: here,
    signupRedirectURL: here,
    discoveryRedirectURL: here,
  },
  passwordOptions: { resetPasswordRedirectURL: location.origin + '/_app/reset' },
  // ?lang=es shows the widget in another language (docs/widget.md §3).
  ...(new URLSearchParams(location.search).get('lang')
    ? { locale: new URLSearchParams(location.search).get('lang') }
    : {}),
  ssoOptions: { loginRedirectURL: here, signupRedirectURL: here },
  oauthOptions: {
    providers: cfg.oauthProviders.map((type) =>
      type === 'google' && cfg.oneTap ? { type, one_tap: true } : type),
    loginRedirectURL: here,
    signupRedirectURL: here,
    discoveryRedirectURL: here,
  },
};
let handle = null;
function mountWidget() {
  if (handle) handle.unmount();
  handle = Gatehouse.mount('#widget', { client, config: widgetConfig });
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
}
signOut.addEventListener('click', () => {
  signOut.disabled = true;
  client.session.revoke({ forceClear: true }).catch(() => {}).finally(() => { signOut.disabled = false; });
});
client.session.subscribe(render);
mountWidget();
render();
`;

/** The text of the page's inline scripts, which its Content-Security-Policy allows by hash. */
export const APP_PAGE_INLINE_SCRIPTS: readonly string[] = [HOST_SCRIPT];

/** Renders the /_app page. */
export function renderAppPage(options: AppPageOptions): string {
  const header = `<nav>
<span id="session-status" role="status" aria-live="polite">Not signed in</span>
<a id="account-link" href="/account" hidden></a>
<button id="sign-out" class="link" type="button" hidden></button>
<a href="/_dev/inbox" target="_blank" rel="noopener">Dev inbox</a>
</nav>`;
  const config = {
    publicToken: options.publicToken,
    baseUrl: options.baseUrl,
    slug: options.slug,
    passwordReset: options.passwordReset ?? false,
    oauthProviders: options.oauthProviders ?? [],
    oneTap: options.oneTap ?? false,
    googleOneTapScriptUrl: options.googleOneTapScriptUrl ?? null,
    captcha: options.captcha ?? null,
  };
  const scripts = `<script type="application/json" id="demo-config">${jsonForScript(config)}</script>
<script type="module" src="${escapeHtml(options.widgetScriptUrl)}"></script>
<script type="module">${HOST_SCRIPT}</script>`;
  const title = options.passwordReset
    ? 'Reset your password · Gatehouse demo'
    : 'Sign in · Gatehouse demo';
  return page(title, header, '<div id="widget"></div>', scripts);
}
