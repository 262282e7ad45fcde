/**
 * The page every error body's `error_url` points at (`{docs_base}/errors#{error_type}`): each
 * `error_type` with its status and what it means, from the one error catalogue (`ERRORS` of the
 * protocol package).
 */
import { ERRORS, ERROR_TYPES } from '@gatehouse/protocol';
import { escapeHtml } from './pages.js';

/** The page, built once: it only changes with the server. */
export function errorReferencePage(): string {
  const rows = ERROR_TYPES.map(
    (type) =>
      `<tr id="${type}"><td><code>${type}</code></td><td>${ERRORS[type].status}</td><td>${escapeHtml(ERRORS[type].meaning).replace(/`([^`]+)`/g, '<code>$1</code>')}</td></tr>`,
  ).join('\n');
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Gatehouse error types</title>
<style>body{font:16px/1.5 system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem;color:#1f2328}table{border-collapse:collapse;width:100%}td,th{border-bottom:1px solid #d0d7de;padding:.4rem;text-align:left;vertical-align:top}tr:target{background:#fff8c5}code{background:#f3f4f6;padding:.1rem .3rem;border-radius:4px}</style>
</head>
<body>
<main>
<h1>Error types</h1>
<p>Every error answer carries one of these <code>error_type</code> values, always with the same HTTP status.</p>
<table>
<thead><tr><th>error_type</th><th>Status</th><th>Meaning</th></tr></thead>
<tbody>
${rows}
</tbody>
</table>
</main>
</body>
</html>
`;
}
