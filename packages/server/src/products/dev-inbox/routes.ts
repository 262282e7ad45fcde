/** The dev inbox: every e-mail sent without a real provider, as a page with clickable links and as JSON. */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Context } from '../../context.js';
import { listOutbox, type OutboxMessage } from '../../delivery/outbox.js';
import { escapeHtml } from '../../delivery/templates.js';
import { ApiError } from '../../http/errors.js';
import { applyPageDirectives, applyPagePolicy } from '../../http/security-headers.js';
import { hasLiveProject } from '../../tenancy/projects/store.js';
import { isLocalRequest } from './service.js';

// The page's one inline style sheet, allowed by its hash in the page's Content-Security-Policy.
// It fits a phone's width: long links and lines wrap. Each e-mail shows its HTML part or its text
// part, picked by two radio buttons without any script.
const INBOX_STYLE = [
  'body{font-family:system-ui,sans-serif;max-width:56rem;margin:2rem auto;padding:0 1rem;overflow-wrap:anywhere}',
  'article{border:1px solid #d0d7de;border-radius:6px;padding:1rem;margin:1rem 0}',
  'pre{white-space:pre-wrap;overflow-wrap:anywhere}a{word-break:break-all}',
  'time{color:#57606a;font-size:.85em}',
  'fieldset{border:0;padding:0;margin:.75rem 0;display:flex;gap:1rem;flex-wrap:wrap}',
  'legend{float:left;margin-right:.25rem;color:#57606a}',
  'iframe{display:block;width:100%;height:32rem;border:1px solid #d0d7de;border-radius:4px;background:#fff}',
  '.text{display:none}',
  'article:has(.show-text:checked) .text{display:block}',
  'article:has(.show-text:checked) iframe{display:none}',
].join('');

// An e-mail's HTML part, in the inbox's frame: styles inline as e-mails have them, images, and
// links that open a new tab; no scripts, no forms, an origin of its own (the `sandbox`
// directive), and framed only by the inbox.
const MESSAGE_SANDBOX = ['allow-popups', 'allow-popups-to-escape-sandbox'];
const MESSAGE_DIRECTIVES: Record<string, string[]> = {
  'default-src': ["'none'"],
  'style-src': ["'unsafe-inline'"],
  'img-src': ['data:', 'https:'],
  'base-uri': ["'none'"],
  'form-action': ["'none'"],
  'frame-ancestors': ["'self'"],
  sandbox: MESSAGE_SANDBOX,
};

/** An e-mail's HTML part, its links opening in a new tab rather than inside the frame. */
function renderMessageHtml(html: string): string {
  return `<!doctype html><base target="_blank">${html.replace(/^\s*<!doctype html>/i, '')}`;
}

/** One message: an e-mail with an HTML part shows it in a sandboxed frame, or its text part. */
function renderMessage(m: OutboxMessage, index: number): string {
  const subject = escapeHtml(m.subject);
  const text = `<pre${m.html ? ' class="text"' : ''}>${escapeHtml(m.text)}</pre>`;
  const parts = m.html
    ? `<fieldset><legend>Show</legend>
    <label><input type="radio" name="part-${index}" checked> HTML</label>
    <label><input type="radio" name="part-${index}" class="show-text"> Text</label>
  </fieldset>
  <iframe src="/_dev/inbox/messages/${encodeURIComponent(m.id)}/html" sandbox="${MESSAGE_SANDBOX.join(' ')}" title="${subject} (HTML part)" loading="lazy"></iframe>
  ${text}`
    : text;
  return `<article>
  <header><strong>${subject}</strong> to ${escapeHtml(m.to)} <time>${escapeHtml(m.created_at)}</time></header>
  ${parts}
  <ul>${m.links.map((l) => `<li><a href="${escapeHtml(l)}">${escapeHtml(l)}</a></li>`).join('')}</ul>
</article>`;
}

function renderInbox(messages: OutboxMessage[]): string {
  const items = messages.map(renderMessage).join('\n');
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Gatehouse dev inbox</title>
<style>${INBOX_STYLE}</style>
</head>
<body><h1>Dev inbox</h1>${messages.length === 0 ? '<p>No messages yet.</p>' : items}</body>
</html>
`;
}

/**
 * Refuses every inbox request that is not from this machine for this machine, and every one
 * while a project is live (a project may be made live after the start-up check). A 404, as if
 * the inbox were off.
 */
async function guard(ctx: Context, request: FastifyRequest): Promise<void> {
  if (!isLocalRequest(request)) {
    throw new ApiError(
      'endpoint_not_found',
      'The dev inbox answers only requests from this machine addressed to localhost.',
    );
  }
  if (await hasLiveProject(ctx.db)) {
    throw new ApiError('endpoint_not_found', 'The dev inbox is closed: a project is live.');
  }
}

/** How many of the newest messages an e-mail's HTML part is looked for among (the page lists 100). */
const INBOX_SEARCHED = 1000;

/**
 * Registers `/_dev/inbox` (HTML), `/_dev/inbox/messages` (JSON array, newest first) and
 * `/_dev/inbox/messages/:id/html` (an e-mail's HTML part, which the page frames). Only a
 * server asked for the inbox registers it; it never sends CORS headers (see `cors.ts`), so other
 * sites' scripts cannot read it even from the developer's own browser.
 */
export function registerDevInbox(app: FastifyInstance, ctx: Context): void {
  const onRequest = (request: FastifyRequest) => guard(ctx, request);
  app.get('/_dev/inbox', { onRequest }, async (_request, reply) => {
    applyPagePolicy(reply, { inlineStyles: [INBOX_STYLE], frames: ["'self'"] });
    return reply
      .type('text/html; charset=utf-8')
      .send(renderInbox(await listOutbox(ctx.db, { limit: 100 })));
  });
  app.get<{ Params: { id: string } }>(
    '/_dev/inbox/messages/:id/html',
    { onRequest },
    async (request, reply) => {
      const message = (await listOutbox(ctx.db, { limit: INBOX_SEARCHED })).find(
        (m) => m.id === request.params.id && m.html !== '',
      );
      if (!message) {
        throw new ApiError('endpoint_not_found', 'No e-mail with this id has an HTML part.');
      }
      // Framed by the inbox page alone.
      applyPageDirectives(reply, MESSAGE_DIRECTIVES, ["'self'"]);
      return reply.type('text/html; charset=utf-8').send(renderMessageHtml(message.html));
    },
  );
  app.get<{ Querystring: { limit?: string } }>(
    '/_dev/inbox/messages',
    { onRequest },
    async (request) => {
      const limit = Number(request.query.limit ?? 50);
      return listOutbox(ctx.db, { limit: Number.isFinite(limit) ? limit : 50 });
    },
  );
}
