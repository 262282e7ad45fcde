/** The dev inbox: every e-mail sent without a real provider, as a page with clickable links and as JSON. */
import type { FastifyInstance } from 'fastify';
import type { Context } from '../../context.js';
import { listOutbox, type OutboxMessage } from '../../delivery/outbox.js';
import { escapeHtml } from '../../delivery/templates.js';

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
<style>body{font-family:system-ui,sans-serif;max-width:56rem;margin:2rem auto;padding:0 1rem}article{border:1px solid #d0d7de;border-radius:6px;padding:1rem;margin:1rem 0}pre{white-space:pre-wrap}time{color:#57606a;font-size:.85em}</style>
</head>
<body><h1>Dev inbox</h1>${messages.length === 0 ? '<p>No messages yet.</p>' : items}</body>
</html>
`;
}

/** Registers `/_dev/inbox` (HTML) and `/_dev/inbox/messages` (JSON array, newest first). */
export function registerDevInbox(app: FastifyInstance, ctx: Context): void {
  app.get('/_dev/inbox', async (_request, reply) => {
    return reply
      .type('text/html; charset=utf-8')
      .send(renderInbox(await listOutbox(ctx.db, { limit: 100 })));
  });
  app.get<{ Querystring: { limit?: string } }>('/_dev/inbox/messages', async (request) => {
    const limit = Number(request.query.limit ?? 50);
    return listOutbox(ctx.db, { limit: Number.isFinite(limit) ? limit : 50 });
  });
}
