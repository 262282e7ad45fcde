// Accessibility in Chromium: axe at WCAG 2.1 AA on every screen of the widget and its variants
// (rendered by the screen fixture page), on its toasts, and focus handling on a screen change.
import type { Browser, Locator, Page } from 'playwright-core';
import { beforeAll, describe, expect, test } from 'vitest';
import { DEMO_ADMIN_EMAIL } from '@gatehouse/demo';
import {
  expectNoAxeViolations,
  fixtureCases,
  openFixtureCase,
  sweepFixtureCasesWithAxe,
  useScreenEnvironment,
  type FixtureServer,
} from './a11y.js';
import type { TestDemo } from './harness.js';

/** Every rendered screen of the widget (packages/widget/src/machine/screens.ts). */
const SCREENS = [
  'Main',
  'EmailConfirmation',
  'LoggedIn',
  'Discovery',
  'Error',
  'LoggingIn',
  'Loading',
  'PasswordAuthenticate',
  'PasswordForgotForm',
  'PasswordSetNewConfirmation',
  'PasswordResetForm',
  'PasswordResetVerifyConfirmation',
  'MFAEnrollmentSelection',
  'SMSOTPEnrollment',
  'SMSOTPEntry',
  'TOTPEnrollmentQRCode',
  'TOTPEnrollmentManual',
  'TOTPEntry',
  'RecoveryCodeEntry',
  'RecoveryCodeSave',
];

const env = useScreenEnvironment();
let browser: Browser;
let fixture: FixtureServer;
let demo: TestDemo;
beforeAll(() => {
  ({ browser, fixture, demo } = env);
});

/**
 * Opens the fixture page on its first case with toast timers held, so that a toast shown after
 * this stays until checked, however slow the run (its 2-4 s timer would otherwise let a busy
 * runner check it as it fades out).
 */
async function openWithToastsHeld(page: Page): Promise<void> {
  await openCase(page, 'Main');
  await page.evaluate(() =>
    (window as { gatehouseHoldToasts?: () => void }).gatehouseHoldToasts?.(),
  );
}

/** Switches the fixture page to another case in place (see `sweepFixtureCases`). */
async function showCase(page: Page, name: string): Promise<void> {
  await page.evaluate((n) => {
    (window as { gatehouseShowCase?: (name: string) => void }).gatehouseShowCase?.(n);
  }, name);
}

/** Waits until a toast's entrance animation has ended: it is checked where it comes to rest. */
async function toastAtRest(page: Page, toast: Locator): Promise<void> {
  await toast.waitFor();
  await page.evaluate(() =>
    Promise.all(
      document
        .getAnimations()
        // Spinners run for ever; an animation cancelled by a re-render is as good as finished.
        .filter((a) => a.effect?.getTiming().iterations !== Infinity)
        .map((a) => a.finished.catch(() => undefined)),
    ),
  );
}

/** Opens a fixture case and waits until its screen (not the lazy-load spinner) is shown. */
function openCase(page: Page, name: string): Promise<void> {
  return openFixtureCase(page, fixture, name);
}

describe('axe, WCAG 2.1 AA', () => {
  test('the fixture page has a case for every screen', async () => {
    const page = await (await browser.newContext()).newPage();
    await page.goto(fixture.url);
    const cases = await fixtureCases(page);
    for (const screen of SCREENS) expect(cases).toContain(screen);
    // The error screen's three messages are checked as well.
    expect(cases).toEqual(expect.arrayContaining(['Error-email_magic_link', 'Error-organization']));
    await page.context().close();
  });

  // Every case in one page, one axe run each (4-6 s on a busy runner): more than the usual limit.
  test('every screen and variant has no violations', { timeout: 300_000 }, async () => {
    const page = await (await browser.newContext()).newPage();
    const cases = await sweepFixtureCasesWithAxe(page, fixture);
    expect(cases.length).toBeGreaterThan(SCREENS.length);
    await page.context().close();
  });

  test('an error toast is an assertive alert and has no violations', async () => {
    const page = await (await browser.newContext()).newPage();
    await openWithToastsHeld(page);
    await showCase(page, 'TOTPEnrollmentQRCode-failed');
    const toast = page.getByRole('alert').filter({ hasText: 'The request was not authorized.' });
    await toastAtRest(page, toast.first());
    const live = page.locator('[aria-live="assertive"]', { hasText: 'not authorized' });
    await live.first().waitFor();
    await expectNoAxeViolations(page, 'error toast');
    await page.context().close();
  });

  test('a success toast is a polite status and has no violations', async () => {
    const context = await browser.newContext({
      permissions: ['clipboard-read', 'clipboard-write'],
    });
    const page = await context.newPage();
    await openWithToastsHeld(page);
    await showCase(page, 'RecoveryCodeSave');
    await page.getByRole('button', { name: 'Copy all' }).click();
    const toast = page.getByRole('status').filter({ hasText: 'Copied' });
    await toastAtRest(page, toast);
    expect(await toast.getAttribute('aria-live')).toBe('polite');
    await expectNoAxeViolations(page, 'success toast');
    await context.close();
  });
});

describe('focus', () => {
  /** What the focused element is and how its outline is drawn. */
  function focused(page: Page) {
    return page.evaluate(() => {
      const el = document.activeElement as HTMLElement | null;
      const style = el ? getComputedStyle(el) : null;
      return {
        tag: el?.tagName.toLowerCase(),
        text: el?.textContent?.trim(),
        tabIndex: el?.tabIndex,
        outlineStyle: style?.outlineStyle,
        outlineWidth: style ? parseFloat(style.outlineWidth) : 0,
      };
    });
  }

  test('a new screen focuses its heading without a ring; a tabbed control shows one', async () => {
    const page = await (await browser.newContext()).newPage();
    await page.goto(`${demo.url}/_app`);
    await page.getByRole('heading', { name: 'Sign up or log in' }).waitFor();
    await expectNoAxeViolations(page, 'demo Main', '.gh-root');
    await page.getByRole('textbox', { name: 'Email' }).focus();
    await page.keyboard.type(DEMO_ADMIN_EMAIL);
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'Check your email' }).waitFor();

    await expect.poll(() => focused(page)).toMatchObject({ tag: 'h1', text: 'Check your email' });
    const heading = await focused(page);
    expect(heading.tabIndex).toBe(-1);
    expect(heading.outlineStyle).toBe('none');
    await expectNoAxeViolations(page, 'demo EmailConfirmation', '.gh-root');

    // Tab from the heading reaches the first control, which shows a focus ring.
    await page.keyboard.press('Tab');
    const control = await focused(page);
    expect(['a', 'button']).toContain(control.tag);
    expect(control.outlineStyle).toBe('solid');
    expect(control.outlineWidth).toBeGreaterThanOrEqual(2);
    await page.context().close();
  });
});
