/**
 * The browser-side test projects (client, widget) run their files without isolation: one worker
 * loads the modules once, as loading them for every file cost more than the tests. Each file
 * still starts from a page of its own: no elements, cookies or stored values of an earlier file.
 */
import { beforeAll } from 'vitest';

beforeAll(() => {
  // The files that run in Node (the widget's bundle budget) have no page.
  if (typeof document === 'undefined') return;
  document.head.replaceChildren();
  document.body.replaceChildren();
  for (const cookie of document.cookie.split(';')) {
    const name = cookie.split('=')[0]?.trim();
    if (name) document.cookie = `${name}=; expires=Thu, 01 Jan 1970 00:00:00 GMT; path=/`;
  }
  localStorage.clear();
  sessionStorage.clear();
});
