/** The dev inbox: every e-mail sent without a real provider, as a page with clickable links and as JSON. */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Context } from '../../context.js';
import { listOutbox, type OutboxMessage } from '../../delivery/outbox.js';
import { escapeHtml } from '../../delivery/templates.js';
import { ApiError } from '../../http/errors.js';
import { applyPagePolicy } from '../../http/security-headers.js';
import { hasLiveProject } from '../../tenancy/projects/store.js';
import { isLocalRequest } from './service.js';

// The page's one inline style sheet, allowed by its hash in the page's Content-Security-Policy.
const INBOX_STYLE =
  'body{font-family:system-ui,sans-serif;max-width:56rem;margin:2rem auto;padding:0 1rem}article{border:1px solid #d0d7de;border-radius:6px;padding:1rem;margin:1rem 0}pre{white-space:pre-wrap}time{color:#57606a;font-size:.85em}';

function renderInbox(messages: OutboxMessage[]): string {
  const items = messages
    .map(
      (m) => `<article>
  <header><strong>${escapeHtml(m.subject)}</strong> to ${escapeHtml(m.to)} <time>${escapeHtml(m.created_at)}</time></header>
  <pre>${escapeHtml(m.text)}</pre>
  <ul>${m.links.map((l) => `<li><a href="${escapeHtml(l)}">${escapeHtml(l)}</a></li>`).join('')}</ul>
</article>`,
    )
    .join('\n');
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>Gatehouse dev inbox</title>
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

/**
 * Registers `/_dev/inbox` (HTML) and `/_dev/inbox/messages` (JSON array, newest first). Only a
 * server asked for the inbox registers it; it never sends CORS headers (see `cors.ts`), so other
 * sites' scripts cannot read it even from the developer's own browser.
 */
export function registerDevInbox(app: FastifyInstance, ctx: Context): void {
  const onRequest = (request: FastifyRequest) => guard(ctx, request);
  app.get('/_dev/inbox', { onRequest }, async (_request, reply) => {
    applyPagePolicy(reply, { inlineStyles: [INBOX_STYLE] });
    return reply
      .type('text/html; charset=utf-8')
      .send(renderInbox(await listOutbox(ctx.db, { limit: 100 })));
  });
  app.get<{ Querystring: { limit?: string } }>(
    '/_dev/inbox/messages',
    { onRequest },
    async (request) => {
      const limit = Number(request.query.limit ?? 50);
      return listOutbox(ctx.db, { limit: Number.isFinite(limit) ? limit : 50 });
    },
  );
}
