// Screens loaded on demand: the card keeps its size with a real spinner while a screen's code
// arrives, and the likely next screen's code is fetched before it is needed.
import type { Page } from 'playwright-core';
import { expect, test } from 'vitest';
import { DEMO_ADMIN_EMAIL } from '@gatehouse/demo';
import { useBrowserAndDemo } from './harness.js';

const env = useBrowserAndDemo();

const EMAIL_CONFIRMATION_CHUNK = /\/email-confirmation-[\w-]+\.js$/;

async function boxOf(page: Page, selector: string) {
  const box = await page.locator(selector).first().boundingBox();
  if (!box) throw new Error(`${selector} is not shown`);
  return box;
}

test('the confirmation screen is fetched while the e-mail form shows', async () => {
  const page = await env.browser.newPage();
  const requested = page.waitForRequest((r) => EMAIL_CONFIRMATION_CHUNK.test(r.url()));
  await page.goto(`${env.demo.url}/_app`);
  await page.getByRole('heading', { name: 'Sign up or log in' }).waitFor();
  // Nothing is clicked: the e-mail form alone makes the widget fetch the next screen.
  await requested;
  await page.close();
});

test('while a screen loads, the card keeps its size and shows the 40 px spinner', async () => {
  const page = await env.browser.newPage();
  // Hold the confirmation screen's code until the card has been measured.
  let release = () => {};
  const released = new Promise<void>((resolve) => (release = resolve));
  await page.route(EMAIL_CONFIRMATION_CHUNK, async (route) => {
    await released;
    await route.continue();
  });
  await page.goto(`${env.demo.url}/_app`);
  await page.getByRole('heading', { name: 'Sign up or log in' }).waitFor();
  const card = await boxOf(page, '.gh-root');

  await page.getByLabel('Email').fill(DEMO_ADMIN_EMAIL);
  await page.getByRole('button', { name: 'Continue with email' }).click();
  const spinner = page.locator('.gh-pending .gh-spinner');
  await spinner.waitFor();
  const pendingCard = await boxOf(page, '.gh-root');
  expect(pendingCard.height).toBeGreaterThanOrEqual(card.height);
  expect(pendingCard.width).toBe(card.width);
  // Its layout size: the box of a turning spinner is wider than the spinner.
  const size = await spinner.evaluate((el: HTMLElement) => [el.offsetWidth, el.offsetHeight]);
  expect(size).toEqual([40, 40]);
  expect(await page.getByRole('status', { name: 'Loading' }).count()).toBe(1);

  release();
  await page.getByRole('heading', { name: 'Check your email' }).waitFor();
  expect(await spinner.count()).toBe(0);
  await page.close();
});

test('a screen that grew on its own keeps its new height while the next one loads', async () => {
  const page = await env.browser.newPage();
  let release = () => {};
  const released = new Promise<void>((resolve) => (release = resolve));
  await page.route(/\/password-authenticate-[\w-]+\.js$/, async (route) => {
    await released;
    await route.continue();
  });
  await page.goto(`${env.demo.url}/_app/org/acme`);
  await page.getByRole('button', { name: 'Use a password instead' }).waitFor();
  // The form's own message makes the screen taller; nothing else on the widget changes.
  await page.getByLabel('Email').fill('not an address');
  await page.getByRole('button', { name: 'Continue with email' }).click();
  await page.getByRole('alert').filter({ hasText: 'Invalid email address' }).waitFor();
  const grown = await boxOf(page, '.gh-root');

  await page.getByRole('button', { name: 'Use a password instead' }).click();
  await page.locator('.gh-pending .gh-spinner').waitFor();
  const pendingCard = await boxOf(page, '.gh-root');
  expect(pendingCard.height).toBeGreaterThanOrEqual(grown.height);

  release();
  await page.locator('.gh-pending').waitFor({ state: 'detached' });
  await page.close();
});
