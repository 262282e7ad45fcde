// The server-rendered first screen of /_app (docs/widget.md §14): hydrated in place without a
// mismatch, and left to the browser when a session makes the first screen another one.
import type { Page } from 'playwright-core';
import { expect, test } from 'vitest';
import { DEMO_ADMIN_EMAIL } from '@gatehouse/demo';
import { useBrowserAndDemo } from './harness.js';
import { signInToAcmeByLink } from './steps.js';

const env = useBrowserAndDemo();

/**
 * Keeps the widget's root and first heading elements as the HTML parser creates them, and the
 * widget's text as parsed, before any script of the page runs (the document turns interactive
 * before its module scripts run).
 */
const KEEP_PARSED = `new MutationObserver((_, observer) => {
  const heading = document.querySelector('h1.gh-heading');
  if (heading) {
    window.parsed = { root: document.querySelector('.gh-root'), heading };
    observer.disconnect();
  }
}).observe(document, { childList: true, subtree: true });
document.addEventListener('readystatechange', () => {
  if (document.readyState === 'interactive') {
    window.parsed.text = document.querySelector('#widget').textContent;
  }
}, { once: true });`;

/** Whether the page still shows what the HTML parser made: the same elements, the same text. */
function sameAsParsed(page: Page) {
  return page.evaluate(() => {
    const { parsed } = window as unknown as {
      parsed: { root: Element; heading: Element; text: string };
    };
    return {
      root: document.querySelector('.gh-root') === parsed.root,
      heading: document.querySelector('h1.gh-heading') === parsed.heading,
      text: document.querySelector('#widget')?.textContent === parsed.text,
    };
  });
}

test('the first screen arrives in the HTML and is hydrated in place, without errors', async () => {
  const page = await env.browser.newPage();
  const problems: string[] = [];
  page.on('pageerror', (error) => problems.push(error.message));
  page.on('console', (message) => {
    // The browser's own favicon request is the one 404 of the page.
    if (message.type() === 'error' && !message.text().startsWith('Failed to load resource')) {
      problems.push(message.text());
    }
    if (message.type() === 'warning') problems.push(message.text());
  });
  await page.addInitScript(KEEP_PARSED);
  await page.goto(`${env.demo.url}/_app`);
  // Once the scripts have run, the widget shows the HTML's elements and text, no more, no less.
  await page.waitForLoadState('load');
  expect(await sameAsParsed(page)).toEqual({ root: true, heading: true, text: true });
  expect(await page.locator('style[data-gatehouse-widget="widget"]').count()).toBe(1);

  await page.getByLabel(/email/i).fill(DEMO_ADMIN_EMAIL);
  await page.getByRole('button', { name: 'Continue with email' }).click();
  await page.getByText('Check your email').waitFor();
  // Hydrated: the widget that answered the click took the server's elements over rather than
  // drawing its own in their place.
  expect((await sameAsParsed(page)).root).toBe(true);
  expect(problems).toEqual([]);
  await page.close();
});

test('signed in, /_app shows the signed-in screen, rendered by the browser', async () => {
  const context = await env.browser.newContext();
  const page = await context.newPage();
  await signInToAcmeByLink(page, env.demo.url);

  const response = await page.goto(`${env.demo.url}/_app`);
  expect(await response?.text()).toContain('<div id="widget"></div>');
  await page.getByText('Success!').waitFor();
  expect(await page.getByRole('heading', { name: 'Sign up or log in' }).count()).toBe(0);
  await context.close();
});

test('before the widget has hydrated, submitting the rendered form does not leave the page', async () => {
  const page = await env.browser.newPage();
  // The widget's script never arrives: the page stays as the server rendered it.
  await page.route('**/assets/gatehouse-widget.js', (route) => route.abort());
  // Seen after every capturing listener, as the browser decides whether to submit.
  await page.addInitScript(`window.addEventListener('submit', (event) => {
    window.submitPrevented = event.defaultPrevented;
  });`);
  await page.goto(`${env.demo.url}/_app`);
  await page.getByLabel(/email/i).fill(DEMO_ADMIN_EMAIL);
  await page.getByRole('button', { name: 'Continue with email' }).click();
  await expect
    .poll(() => page.evaluate(() => (window as { submitPrevented?: boolean }).submitPrevented))
    .toBe(true);
  expect(page.url()).toBe(`${env.demo.url}/_app`);
  await page.close();
});
