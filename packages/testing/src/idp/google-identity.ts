/**
 * A stand-in for Google Identity Services (the script One Tap loads), served on a loopback port.
 * Its `google.accounts.id` shows a small account chooser in the page for the client it was
 * initialised with, and hands over the ID token registered for that client, as Google's prompt
 * does. A client with no token registered is reported as `invalid_client`.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface GoogleIdentityStandIn {
  /** Where the page loads the library from. */
  scriptUrl: string;
  /** By One Tap client ID: the account the chooser offers and the ID token it hands over. */
  accounts: Map<string, { email: string; idToken: string }>;
  close(): Promise<void>;
}

// Runs in the page. The chooser is a dialog with one button per account, like Google's prompt.
const LIBRARY = `(() => {
  const origin = new URL(document.currentScript.src).origin;
  let options = null;
  const moment = (kind, reason) => ({
    isDisplayMoment: () => kind === 'display' || kind === 'notDisplayed',
    isDisplayed: () => kind === 'display',
    isNotDisplayed: () => kind === 'notDisplayed',
    getNotDisplayedReason: () => reason,
    isSkippedMoment: () => kind === 'skipped',
    getSkippedReason: () => reason,
    isDismissedMoment: () => kind === 'dismissed',
    getDismissedReason: () => reason,
  });
  const close = () => document.getElementById('gsi-stand-in')?.remove();
  window.google = { accounts: { id: {
    initialize(given) { options = given; },
    prompt(listener = () => {}) {
      fetch(origin + '/account?client_id=' + encodeURIComponent(options.client_id))
        .then((response) => (response.ok ? response.json() : null))
        .then((account) => {
          if (!account) return listener(moment('notDisplayed', 'invalid_client'));
          close();
          const dialog = document.createElement('div');
          dialog.id = 'gsi-stand-in';
          dialog.setAttribute('role', 'dialog');
          dialog.setAttribute('aria-label', 'Sign in with Google');
          const pick = document.createElement('button');
          pick.type = 'button';
          pick.textContent = 'Continue as ' + account.email;
          pick.onclick = () => {
            close();
            listener(moment('dismissed', 'credential_returned'));
            options.callback({ credential: account.idToken, select_by: 'user' });
          };
          const dismiss = document.createElement('button');
          dismiss.type = 'button';
          dismiss.textContent = 'Close';
          dismiss.onclick = () => {
            close();
            listener(moment('skipped', 'user_cancel'));
          };
          dialog.append(pick, dismiss);
          document.body.append(dialog);
          listener(moment('display'));
        })
        .catch(() => listener(moment('notDisplayed', 'unknown_reason')));
    },
    cancel: close,
  } } };
})();`;

/**
 * Starts the stand-in on 127.0.0.1 with a port chosen by the OS.
 *
 * @example
 * const gsi = await startGoogleIdentityStandIn();
 * gsi.accounts.set('one-tap-client', { email: 'ada@acme.test', idToken });
 */
export async function startGoogleIdentityStandIn(): Promise<GoogleIdentityStandIn> {
  const accounts = new Map<string, { email: string; idToken: string }>();
  const server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://127.0.0.1');
    const cors = { 'access-control-allow-origin': '*', 'cache-control': 'no-store' };
    if (url.pathname === '/gsi/client') {
      response.writeHead(200, { ...cors, 'content-type': 'text/javascript; charset=utf-8' });
      response.end(LIBRARY);
      return;
    }
    if (url.pathname === '/account') {
      const account = accounts.get(url.searchParams.get('client_id') ?? '');
      response.writeHead(account ? 200 : 404, { ...cors, 'content-type': 'application/json' });
      response.end(JSON.stringify(account ?? null));
      return;
    }
    response.writeHead(404, cors).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    scriptUrl: `${origin}/gsi/client`,
    accounts,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
