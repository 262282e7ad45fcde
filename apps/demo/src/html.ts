/** Tiny helpers for the demo's server-rendered pages: escaping and the shared page frame. */

const ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/** Escapes text for HTML element content and quoted attribute values. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ESCAPES[c] ?? c);
}

/** Serializes a value as JSON that is safe inside a `<script type="application/json">` element. */
export function jsonForScript(value: unknown): string {
  return JSON.stringify(value).replace(/</g, '\\u003c').replace(/>/g, '\\u003e');
}

const STYLE = `
  :root { color-scheme: light; font-family: system-ui, -apple-system, 'Segoe UI', Roboto, Arial, sans-serif; }
  body { margin: 0; background: #f6f7f9; color: #1c2733; }
  header { display: flex; flex-wrap: wrap; gap: 8px 16px; align-items: center; padding: 12px 24px; background: #fff; border-bottom: 1px solid #e3e6ea; }
  header strong { font-size: 16px; }
  header nav { margin-left: auto; display: flex; flex-wrap: wrap; gap: 8px 12px; align-items: center; min-width: 0; }
  #session-status { overflow-wrap: anywhere; }
  main { display: flex; justify-content: center; padding: 48px 16px; }
  main > * { min-width: 0; }
  a { color: #1f5fbf; }
  button.link { background: none; border: 1px solid #c7ccd3; border-radius: 4px; padding: 6px 12px; cursor: pointer; font: inherit; }
  .card { box-sizing: border-box; background: #fff; border: 1px solid #e3e6ea; border-radius: 8px; padding: 32px; max-width: 560px; width: 100%; }
  dl { display: grid; grid-template-columns: max-content 1fr; gap: 8px 16px; }
  dt { color: #5b6673; }
  dd { margin: 0; word-break: break-all; }
  .admin-page { width: 100%; max-width: 960px; }
  .admin-title { margin: 0 0 16px; font-size: 24px; }
  /* A phone: the header's links wrap under the title, and the page keeps its width. */
  @media (max-width: 480px) {
    header { padding: 12px 16px; }
    header nav { margin-left: 0; }
    main { padding: 24px 16px; }
    .card { padding: 24px 16px; }
  }
`;

/** The text of the frame's inline style sheet, which the pages' Content-Security-Policy allows by hash. */
export const PAGE_STYLE = STYLE;

/** Wraps a page body in the demo's frame; `head` goes at the end of the head. */
export function page(title: string, header: string, body: string, scripts = '', head = ''): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>${STYLE}</style>
${head}</head>
<body>
<header><strong>Gatehouse demo</strong>${header}</header>
<main>${body}</main>
${scripts}
</body>
</html>`;
}
