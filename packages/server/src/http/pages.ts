/**
 * Small HTML pages for full-page navigations (docs/protocol.md §8): a failure before the browser
 * can be sent back to the app is shown here, naming its `error_type`, and never redirected to a
 * URL that was not checked.
 */
import { createHash } from 'node:crypto';
import { ERROR_STATUS } from '@gatehouse/protocol';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { isFailure, type Failure } from '../result.js';

const ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/** Escapes text for HTML content and attribute values. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ESCAPES[c] ?? c);
}

/** A page with no scripts, styles only inline, and nothing loaded from elsewhere. */
const PAGE_CSP =
  "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'";

/**
 * Answers a failure as an HTML page with the failure's status.
 *
 * @example
 * if (isFailure(result)) return sendErrorPage(request, reply, result, ctx.config.docsBase);
 */
export function sendErrorPage(
  request: FastifyRequest,
  reply: FastifyReply,
  failure: Failure,
  docsBase: string,
): FastifyReply {
  const type = escapeHtml(failure.failure);
  const html = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Sign-in failed</title>
<style>body{font:16px/1.5 system-ui,sans-serif;max-width:36rem;margin:4rem auto;padding:0 1rem;color:#1f2328}code{background:#f3f4f6;padding:.1rem .3rem;border-radius:4px}small{color:#59636e}</style>
</head>
<body>
<main>
<h1>Sign-in failed</h1>
<p>${escapeHtml(failure.message)}</p>
<p>Error type: <code id="error-type">${type}</code> · <a href="${escapeHtml(`${docsBase}/errors#${failure.failure}`)}">what this means</a></p>
<p><small>Request ${escapeHtml(request.id)}. Go back to the app and try again, or give this page to its administrator.</small></p>
</main>
</body>
</html>
`;
  return reply
    .code(ERROR_STATUS[failure.failure])
    .header('Content-Security-Policy', PAGE_CSP)
    .header('Cache-Control', 'no-store')
    .type('text/html; charset=utf-8')
    .send(html);
}

/** The one script a notice page may run: it closes the window, when a script opened it. */
const CLOSE_SCRIPT = 'window.close();';
const CLOSE_SCRIPT_CSP = `script-src 'sha256-${createHash('sha256').update(CLOSE_SCRIPT, 'utf8').digest('base64')}'`;

/**
 * Answers a page that only informs (200): a title and one paragraph, no scripts but, with
 * `closesItself`, one that closes the window (browsers allow it only in a window a script opened,
 * such as a popup; elsewhere the page simply stays).
 *
 * @example
 * return sendNoticePage(reply, 'Test finished', 'Return to the admin portal to see the report.');
 */
export function sendNoticePage(
  reply: FastifyReply,
  title: string,
  text: string,
  options: { closesItself?: boolean } = {},
): FastifyReply {
  const script = options.closesItself ? `<script>${CLOSE_SCRIPT}</script>\n` : '';
  const html = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>body{font:16px/1.5 system-ui,sans-serif;max-width:36rem;margin:4rem auto;padding:0 1rem;color:#1f2328}</style>
</head>
<body>
<main>
<h1>${escapeHtml(title)}</h1>
<p>${escapeHtml(text)}</p>
</main>
${script}</body>
</html>
`;
  return reply
    .code(200)
    .header('Content-Security-Policy', script ? `${PAGE_CSP}; ${CLOSE_SCRIPT_CSP}` : PAGE_CSP)
    .header('Cache-Control', 'no-store')
    .type('text/html; charset=utf-8')
    .send(html);
}

/**
 * Answers a browser's navigation to a path nothing serves: a 404 page instead of the JSON error
 * body the APIs answer.
 *
 * @example
 * if (wantsPage(request)) return sendNotFoundPage(request, reply, path);
 */
export function sendNotFoundPage(
  request: FastifyRequest,
  reply: FastifyReply,
  path: string,
): FastifyReply {
  const html = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Page not found</title>
<style>body{font:16px/1.5 system-ui,sans-serif;max-width:36rem;margin:4rem auto;padding:0 1rem;color:#1f2328}code{background:#f3f4f6;padding:.1rem .3rem;border-radius:4px}small{color:#59636e}</style>
</head>
<body>
<main>
<h1>Page not found</h1>
<p>There is no page at <code>${escapeHtml(path)}</code>. Check the address, or go back to the app you came from.</p>
<p><small>Request ${escapeHtml(request.id)}.</small></p>
</main>
</body>
</html>
`;
  return reply
    .code(404)
    .header('Content-Security-Policy', PAGE_CSP)
    .header('Cache-Control', 'no-store')
    .type('text/html; charset=utf-8')
    .send(html);
}

/** The form-decoded query of a navigation (§8: built with `URLSearchParams`, a space is `+`). */
export function queryOf(request: FastifyRequest): URLSearchParams {
  const url = request.raw.url ?? '';
  const at = url.indexOf('?');
  return new URLSearchParams(at === -1 ? '' : url.slice(at + 1));
}

/**
 * Answers a navigation's outcome: 302 to the location, or the failure's error page.
 *
 * @example
 * return redirectOrPage(request, reply, await startSso(ctx, project, query), ctx.config.docsBase);
 */
export function redirectOrPage(
  request: FastifyRequest,
  reply: FastifyReply,
  result: { location: string } | Failure,
  docsBase: string,
): FastifyReply {
  if (isFailure(result)) return sendErrorPage(request, reply, result, docsBase);
  return reply.code(302).header('Cache-Control', 'no-store').redirect(result.location);
}
