// A phone's screen, 390 × 844 CSS pixels: the demo's pages and every screen of the widget fit its
// width, with nothing to scroll sideways and nothing pushed past the right edge.
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { beforeAll, describe, expect, test } from 'vitest';
import {
  openFixtureCase,
  sweepFixtureCases,
  useScreenEnvironment,
  type FixtureServer,
} from './a11y.js';
import type { TestDemo } from './harness.js';
import { signInToAcmeByLink } from './steps.js';

const PHONE = { width: 390, height: 844 };

const env = useScreenEnvironment();
let browser: Browser;
let fixture: FixtureServer;
let demo: TestDemo;
beforeAll(() => {
  ({ browser, fixture, demo } = env);
});

const phone = (): Promise<BrowserContext> => browser.newContext({ viewport: PHONE });

interface Overflow {
  innerWidth: number;
  scrollWidth: number;
  /** Elements wider than the viewport or reaching past its right edge, described. */
  outside: string[];
}

/**
 * How the page overflows the viewport's width: the document's scroll width, and every rendered
 * element under `within` (the widget card by default; shadow roots included) that is wider than
 * the viewport or ends past its right edge.
 */
function overflow(page: Page, within = '.gh-root'): Promise<Overflow> {
  return page.evaluate((selector) => {
    const width = window.innerWidth;
    const outside: string[] = [];
    const visit = (root: Document | ShadowRoot, inside: boolean) => {
      for (const element of root.querySelectorAll('*')) {
        const counted = inside || element.matches(selector) || element.closest(selector) !== null;
        if (element.shadowRoot) visit(element.shadowRoot, counted);
        if (!counted) continue;
        const box = element.getBoundingClientRect();
        if (box.width === 0 && box.height === 0) continue;
        if (box.width > width || box.right > width + 0.5) {
          const name = `${element.tagName.toLowerCase()}${element.className ? `.${String(element.className).split(' ').join('.')}` : ''}`;
          outside.push(`${name} ${Math.round(box.left)}–${Math.round(box.right)} px`);
        }
      }
    };
    visit(document, false);
    return { innerWidth: width, scrollWidth: document.documentElement.scrollWidth, outside };
  }, within);
}

/** Fails with what sticks out when the page is wider than the phone's screen. */
async function expectFits(page: Page, label: string, within?: string): Promise<void> {
  const found = await overflow(page, within);
  expect(found.innerWidth, label).toBe(PHONE.width);
  expect({ label, ...found }).toEqual({
    label,
    innerWidth: PHONE.width,
    scrollWidth: expect.any(Number) as number,
    outside: [],
  });
  expect(found.scrollWidth, label).toBeLessThanOrEqual(found.innerWidth);
}

/** The page asks phones to lay it out at their own width, not a desktop's. */
async function expectPhoneViewport(page: Page, label: string): Promise<void> {
  const viewport = await page.locator('meta[name="viewport"]').getAttribute('content');
  expect(viewport, label).toContain('width=device-width');
}

describe('at 390 × 844', () => {
  // Every case in one page (as the accessibility sweep walks them): more than the usual limit.
  test('every widget screen and variant fits', { timeout: 300_000 }, async () => {
    const context = await phone();
    const page = await context.newPage();
    const cases = await sweepFixtureCases(page, fixture, (name) => expectFits(page, name));
    expect(cases).toEqual(expect.arrayContaining(['Main', 'SMSOTPEnrollment', 'RecoveryCodeSave']));
    await context.close();
  });

  test('the country select shows a short label with the dial code', async () => {
    const context = await phone();
    const page = await context.newPage();
    await openFixtureCase(page, fixture, 'SMSOTPEnrollment');
    const select = page.getByRole('combobox', { name: 'Country' });
    await select.waitFor();
    // What the eye reads: the region and dial code, all of it shown.
    const face = page.locator('.gh-phone-country-face');
    expect(await face.textContent()).toBe('US +1');
    expect(await face.evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);
    // What a screen reader reads: the country by name.
    expect(await select.evaluate((el: HTMLSelectElement) => el.selectedOptions[0]?.text)).toBe(
      'United States +1',
    );
    await select.selectOption('GB');
    expect(await face.textContent()).toBe('GB +44');
    await expectFits(page, 'SMSOTPEnrollment, GB');
    await context.close();
  });

  test('the demo fits: signed out, the login screen, signed in, and the dev inbox', async () => {
    const context = await phone();
    const page = await context.newPage();

    await page.goto(`${demo.url}/account`);
    await page.getByRole('heading', { name: 'You are not signed in' }).waitFor();
    await expectPhoneViewport(page, 'signed-out account page');
    await expectFits(page, 'signed-out account page', 'body');

    await page.goto(`${demo.url}/_app`);
    await page.getByRole('heading', { name: 'Sign up or log in' }).waitFor();
    await expectPhoneViewport(page, 'login screen');
    await expectFits(page, 'login screen', 'body');

    await signInToAcmeByLink(page, demo.url);
    await page.goto(`${demo.url}/_app`);
    const signOut = page.getByRole('button', { name: 'Sign out' });
    await signOut.waitFor();
    await expectFits(page, 'signed-in home', 'body');
    // The header's controls are on the screen, not past its edge.
    for (const control of [signOut, page.getByRole('link', { name: 'Dev inbox' })]) {
      const box = await control.boundingBox();
      expect(box && box.x >= 0 && box.x + box.width <= PHONE.width).toBe(true);
    }

    await page.goto(`${demo.url}/account`);
    await page.getByRole('heading', { name: 'Your account' }).waitFor();
    await expectFits(page, 'signed-in account page', 'body');

    await page.goto(`${demo.url}/_dev/inbox`);
    await page.getByRole('heading', { name: 'Dev inbox' }).waitFor();
    // The login link e-mail is there, with its long link.
    await page.getByText('Your login link for Acme Corp').first().waitFor();
    await expectPhoneViewport(page, 'dev inbox');
    await expectFits(page, 'dev inbox', 'body');
    await context.close();
  });
});
