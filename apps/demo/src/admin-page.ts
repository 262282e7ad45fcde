/** The demo's admin page at /_app/admin: the admin portal for the member signed in at /_app. */
import { escapeHtml, jsonForScript, page } from './html.js';

export interface AdminPageOptions {
  publicToken: string;
  /** Origin of the Gatehouse server the portal talks to. */
  baseUrl: string;
  /** Where the standalone widget bundle is served; it loads the portal's chunk on demand. */
  widgetScriptUrl: string;
}

// Runs in the browser: one client (the session the sign-in page made, from its cookies), the
// portal mounted with it, and the header following the session.
const ADMIN_SCRIPT = `
const cfg = JSON.parse(document.getElementById('demo-config').textContent);
const client = Gatehouse.createClient(cfg.publicToken, { baseUrl: cfg.baseUrl });
const status = document.getElementById('session-status');
function render() {
  const state = client.session.getSnapshot();
  status.textContent = state
    ? 'Signed in as ' + state.member.email_address + ' (' + state.organization.organization_name + ')'
    : 'Not signed in';
}
client.session.subscribe(render);
render();
Gatehouse.mountAdminPortal('#admin-portal', { client });
`;

/** The text of the page's inline scripts, which its Content-Security-Policy allows by hash. */
export const ADMIN_PAGE_INLINE_SCRIPTS: readonly string[] = [ADMIN_SCRIPT];

/** Renders the /_app/admin page. */
export function renderAdminPage(options: AdminPageOptions): string {
  const header = `<nav>
<span id="session-status" role="status" aria-live="polite">Not signed in</span>
<a href="/_app">Sign-in page</a>
<a href="/_dev/inbox" target="_blank" rel="noopener">Dev inbox</a>
</nav>`;
  const config = { publicToken: options.publicToken, baseUrl: options.baseUrl };
  const scripts = `<script type="application/json" id="demo-config">${jsonForScript(config)}</script>
<script type="module" src="${escapeHtml(options.widgetScriptUrl)}"></script>
<script type="module">${ADMIN_SCRIPT}</script>`;
  const body = `<div class="admin-page"><h1 class="admin-title">Administration</h1><div id="admin-portal"></div></div>`;
  return page('Administration · Gatehouse demo', header, body, scripts);
}
