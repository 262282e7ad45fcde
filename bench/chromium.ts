/**
 * The benchmarks' browser: Debian's Chromium (`CHROMIUM_PATH` for another build), headless,
 * with nothing of its own running in the background to disturb a measurement.
 */
import { chromium, type Browser } from 'playwright-core';

/**
 * Starts the benchmarks' Chromium.
 *
 * @example
 * const browser = await launchChromium();
 */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
    ],
  });
}
