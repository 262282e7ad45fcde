// The dev inbox in Chromium: an e-mail's HTML part shows in a sandboxed frame where no script
// runs, and a switch shows its text part instead.
import { expect, test } from 'vitest';
import { DEMO_ADMIN_EMAIL } from '@gatehouse/demo';
import { inboxIds, useBrowserAndDemo, waitForEmailLink } from './harness.js';

const env = useBrowserAndDemo();

test('an e-mail’s HTML part is shown, its scripts do not run, and the text part is a click away', async () => {
  // A login link e-mail, sent as the widget sends it.
  const seen = await inboxIds(env.demo.url);
  const response = await fetch(`${env.demo.url}/sdk/v1/b2b/magic_links/email/discovery/send`, {
    method: 'POST',
    headers: {
      authorization: `Basic ${btoa(`${env.demo.publicToken}:${env.demo.publicToken}`)}`,
      'content-type': 'application/json',
    },
    body: JSON.stringify({
      email_address: DEMO_ADMIN_EMAIL,
      discovery_redirect_url: `${env.demo.url}/_app`,
    }),
  });
  expect(response.status).toBe(200);
  const { link } = await waitForEmailLink(env.demo.url, DEMO_ADMIN_EMAIL, 'discovery', seen);

  const context = await env.browser.newContext();
  const page = await context.newPage();
  const logged: string[] = [];
  page.on('console', (message) => logged.push(message.text()));
  // Every HTML part arrives with a script added, as a hostile message would carry one; the
  // server's own headers (its sandbox and policy) come with it unchanged.
  await page.route('**/_dev/inbox/messages/*/html', async (route) => {
    const original = await route.fetch();
    const body = (await original.text()).replace(
      '</body>',
      '<script>document.body.dataset.ran = "yes"; console.log("inbox script ran");</script></body>',
    );
    await route.fulfill({ response: original, body });
  });
  await page.goto(`${env.demo.url}/_dev/inbox`);
  const article = page.locator('article').first();
  await article.getByText('Your login link').waitFor();

  // The HTML part: the e-mail's button, in the frame.
  const frame = article.frameLocator('iframe');
  const button = frame.getByRole('link', { name: 'Log in' });
  await button.waitFor();
  expect(await button.getAttribute('href')).toBe(link);
  expect(await frame.locator('script').count()).toBe(1);
  expect(await frame.locator('body').getAttribute('data-ran')).toBeNull();
  expect(logged.filter((text) => text.includes('inbox script ran'))).toEqual([]);
  const text = article.locator('pre');
  expect(await text.isVisible()).toBe(false);

  // The switch shows the text part instead, and back.
  await article.getByRole('radio', { name: 'Text' }).check();
  await text.waitFor();
  expect(await text.textContent()).toContain(link);
  expect(await article.locator('iframe').isVisible()).toBe(false);
  await article.getByRole('radio', { name: 'HTML' }).check();
  await article.locator('iframe').waitFor();
  expect(await text.isVisible()).toBe(false);
  await context.close();
});
