/**
 * Browser steps several suites share: authenticator-app enrolment, the signed-in check, and moving
 * through the widget with the keyboard alone.
 */
import { createHmac } from 'node:crypto';
import type { Locator, Page } from 'playwright-core';
import { expect } from 'vitest';
import { DEMO_ADMIN_EMAIL } from '@gatehouse/demo';
import { inboxIds, waitForEmailLink } from './harness.js';

/** RFC 6238 (SHA-1, 30 s, 6 digits), written out here so the server's own code is not trusted. */
export function totpCode(base32Secret: string, atMs: number = Date.now()): string {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
  let bits = '';
  for (const char of base32Secret.toUpperCase().replace(/[\s=]/g, '')) {
    bits += alphabet.indexOf(char).toString(2).padStart(5, '0');
  }
  const key = Buffer.from(bits.match(/.{8}/g)!.map((byte) => parseInt(byte, 2)));
  const counter = Buffer.alloc(8);
  counter.writeBigUInt64BE(BigInt(Math.floor(atMs / 30_000)));
  const mac = createHmac('sha1', key).update(counter).digest();
  const offset = mac[mac.length - 1]! & 0x0f;
  const value = (mac.readUInt32BE(offset) & 0x7fffffff) % 1_000_000;
  return value.toString().padStart(6, '0');
}

/**
 * From the widget's MFA prompt of an unenrolled member: set up an authenticator app through the
 * manual secret and stop on the backup codes screen. Returns the secret.
 */
export async function enrollTotp(page: Page, options: { wrongCodeFirst?: boolean } = {}) {
  await page.getByRole('heading', { name: 'Set up Multi-Factor Authentication' }).waitFor();
  await page.getByRole('button', { name: 'Use an authenticator app' }).click();
  await page
    .getByRole('heading', { name: 'Scan the QR code to link your authenticator app' })
    .waitFor();
  const qr = page.getByRole('img', { name: 'QR code for your authenticator app' });
  await qr.waitFor();
  expect(await qr.getAttribute('src')).toMatch(/^data:image\/png;base64,/);
  await page.getByRole('button', { name: 'Having trouble scanning?' }).click();
  await page.getByRole('heading', { name: 'Having trouble scanning the QR code?' }).waitFor();
  const shown = (await page.locator('.gh-secret').textContent()) ?? '';
  // Shown in lowercase groups of four, as the member would type it into an app.
  expect(shown).toMatch(/^[a-z2-7]{4}( [a-z2-7]{1,4})+$/);
  const secret = shown.replace(/\s/g, '').toUpperCase();
  await page.getByRole('button', { name: 'Continue' }).click();
  await page.getByRole('heading', { name: 'Enter verification code' }).waitFor();
  const passcode = page.getByLabel('Passcode');
  if (options.wrongCodeFirst) {
    const right = totpCode(secret);
    const wrong = String((Number(right) + 500_000) % 1_000_000).padStart(6, '0');
    await passcode.fill(wrong);
    await page.getByText('Invalid passcode, please try again.').waitFor();
  }
  await passcode.fill(totpCode(secret));
  await page.getByRole('heading', { name: 'Save your backup codes!' }).waitFor();
  return secret;
}

/** The widget's success screen and the host page's session line. */
export async function expectLoggedIn(page: Page, email: string, organizationName: string) {
  await page.getByText('Success!').waitFor();
  await page.getByText('You have successfully logged in.').waitFor();
  await expect
    .poll(() => page.locator('#session-status').textContent())
    .toBe(`Signed in as ${email} (${organizationName})`);
}

/**
 * Signs `email` (the demo's admin unless named) in to Acme Corp by login link, from its
 * organization page.
 */
export async function signInToAcmeByLink(
  page: Page,
  demoUrl: string,
  email: string = DEMO_ADMIN_EMAIL,
): Promise<void> {
  await page.goto(`${demoUrl}/_app/org/acme`);
  await page.getByRole('heading', { name: 'Continue to Acme Corp' }).waitFor();
  const seen = await inboxIds(demoUrl);
  await page.getByLabel(/email/i).fill(email);
  await page.getByRole('button', { name: 'Continue with email' }).click();
  const { link } = await waitForEmailLink(demoUrl, email, 'multi_tenant_magic_links', seen);
  await page.goto(link);
  await page.getByText('Success!').waitFor();
}

/** The code of the newest text message to `to`, read from the dev inbox over HTTP. */
export async function waitForSmsCode(
  baseUrl: string,
  to: string,
  seen: ReadonlySet<string>,
): Promise<string> {
  const deadline = Date.now() + 15_000;
  while (Date.now() < deadline) {
    const response = await fetch(`${baseUrl}/_dev/inbox/messages`);
    const messages = (await response.json()) as {
      id: string;
      channel: string;
      to: string;
      subject: string;
      text: string;
    }[];
    const sms = messages.find((m) => m.channel === 'sms' && m.to === to && !seen.has(m.id));
    const code = sms ? /\b(\d{6})\b/.exec(sms.text)?.[1] : undefined;
    if (sms && code) {
      expect(sms.subject).toBe('');
      return code;
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`No SMS reached ${to} within 15 s`);
}

/** Whether the element `target` finds has the keyboard focus. Reads the page; never acts on it. */
function hasFocus(target: Locator): Promise<boolean> {
  return target.evaluate((element) => element === document.activeElement);
}

/**
 * Presses Tab (or Shift+Tab with `backwards`) until `target` has the focus, as a keyboard user
 * moves through a page; nothing when it has it already, a failure when `max` presses miss it.
 */
export async function tabTo(
  page: Page,
  target: Locator,
  options: { backwards?: boolean; max?: number } = {},
): Promise<void> {
  await target.waitFor();
  if (await hasFocus(target)) return;
  const key = options.backwards ? 'Shift+Tab' : 'Tab';
  for (let presses = 0; presses < (options.max ?? 40); presses++) {
    await page.keyboard.press(key);
    if (await hasFocus(target)) return;
  }
  throw new Error(`${key} never reached ${target.toString()}`);
}

/** Tabs to a control and presses a key on it: Enter by default, Space for toggles. */
export async function pressOn(page: Page, target: Locator, key = 'Enter'): Promise<void> {
  await tabTo(page, target);
  await page.keyboard.press(key);
}

/** Tabs to a field and types into it, key by key. */
export async function typeInto(page: Page, target: Locator, text: string): Promise<void> {
  await tabTo(page, target);
  await page.keyboard.type(text);
}

/**
 * `enrollTotp` with the keyboard alone: from the MFA prompt of an unenrolled member to the backup
 * codes screen. Returns the secret.
 */
export async function enrollTotpByKeyboard(page: Page): Promise<string> {
  await page.getByRole('heading', { name: 'Set up Multi-Factor Authentication' }).waitFor();
  await pressOn(page, page.getByRole('button', { name: 'Use an authenticator app' }));
  await page
    .getByRole('heading', { name: 'Scan the QR code to link your authenticator app' })
    .waitFor();
  await page.getByRole('img', { name: 'QR code for your authenticator app' }).waitFor();
  await pressOn(page, page.getByRole('button', { name: 'Having trouble scanning?' }));
  await page.getByRole('heading', { name: 'Having trouble scanning the QR code?' }).waitFor();
  const secret = ((await page.locator('.gh-secret').textContent()) ?? '')
    .replace(/\s/g, '')
    .toUpperCase();
  await pressOn(page, page.getByRole('button', { name: 'Continue' }));
  await page.getByRole('heading', { name: 'Enter verification code' }).waitFor();
  // The six digits submit by themselves.
  await typeInto(page, page.getByRole('textbox', { name: 'Passcode' }), totpCode(secret));
  await page.getByRole('heading', { name: 'Save your backup codes!' }).waitFor();
  return secret;
}
