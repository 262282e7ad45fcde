/** The page behind login: what the demo's backend learned by verifying the session. */
import { escapeHtml, page } from './html.js';
import type { VerifiedSession } from './backend.js';

const HEADER = '<nav><a href="/_app">Sign-in page</a></nav>';

/** Renders the account page for a verified session. */
export function renderAccountPage(verified: VerifiedSession): string {
  const { member, organization, member_session: session } = verified;
  const rows: [string, string][] = [
    ['Email', member.email_address],
    ['Name', member.name || '—'],
    ['Member id', member.member_id],
    ['Organization', organization.organization_name],
    ['Organization slug', organization.organization_slug],
    ['Roles', session.roles.join(', ')],
    ['Session expires', session.expires_at],
  ];
  const list = rows
    .map(
      ([k, v]) =>
        `<dt>${escapeHtml(k)}</dt><dd data-field="${escapeHtml(k)}">${escapeHtml(v)}</dd>`,
    )
    .join('');
  const body = `<section class="card" aria-labelledby="account-heading">
<h1 id="account-heading">Your account</h1>
<p>The demo's backend verified this session with the Gatehouse management API.</p>
<dl>${list}</dl>
</section>`;
  return page('Account · Gatehouse demo', HEADER, body);
}

/** Renders the page shown when no valid session came with the request. */
export function renderSignedOutPage(): string {
  const body = `<section class="card" aria-labelledby="account-heading">
<h1 id="account-heading">You are not signed in</h1>
<p><a href="/_app">Sign in</a> to see your account.</p>
</section>`;
  return page('Not signed in · Gatehouse demo', HEADER, body);
}
