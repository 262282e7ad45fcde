// The server-rendered first screen of /_app (docs/widget.md §14): hydrated in place without a
// mismatch, and left to the browser when a session makes the first screen another one.
import { expect, test } from 'vitest';
import { DEMO_ADMIN_EMAIL } from '@gatehouse/demo';
import { useBrowserAndDemo } from './harness.js';
import { signInToAcmeByLink } from './steps.js';

const env = useBrowserAndDemo();

/** Keeps the first heading element the HTML parser creates, before any script of the page runs. */
const KEEP_FIRST_HEADING = `new MutationObserver((_, observer) => {
  const heading = document.querySelector('h1.gh-heading');
  if (heading) { window.firstHeading = heading; observer.disconnect(); }
}).observe(document, { childList: true, subtree: true });`;

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
  await page.addInitScript(KEEP_FIRST_HEADING);
  await page.goto(`${env.demo.url}/_app`);
  // Hydrated: React has taken over the server's heading element rather than drawing a new one.
  await expect
    .poll(() =>
      page.evaluate(() => {
        const heading = document.querySelector('h1.gh-heading');
        const kept = (window as unknown as { firstHeading?: Element }).firstHeading;
        return (
          heading !== null &&
          heading === kept &&
          Object.keys(heading).some((key) => key.startsWith('__reactFiber'))
        );
      }),
    )
    .toBe(true);
  expect(await page.locator('style[data-gatehouse-widget="widget"]').count()).toBe(1);

  await page.getByLabel(/email/i).fill(DEMO_ADMIN_EMAIL);
  await page.getByRole('button', { name: 'Continue with email' }).click();
  await page.getByText('Check your email').waitFor();
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
