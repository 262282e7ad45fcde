/**
 * The client-side services page (docs/protocol.md §12): apps on the published UI frame it to
 * parse phone numbers. It answers `parsedPhoneNumber` with libphonenumber-js, exactly once per
 * message, on the port the message hands over; any other method fails with "unsupported method".
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

/** Runs in the frame: one answer per message, on `event.ports[0]`. */
export const SERVICES_PAGE_SCRIPT = `
window.addEventListener('message', (event) => {
  const port = event.ports && event.ports[0];
  if (!port) return;
  const data = event.data || {};
  let answer;
  try {
    if (data.method !== 'parsedPhoneNumber') throw new Error('unsupported method');
    const request = (Array.isArray(data.args) && data.args[0]) || {};
    const input = typeof request.phoneNumber === 'string' ? request.phoneNumber : '';
    const region = typeof request.regionCode === 'string' && request.regionCode ? request.regionCode : 'US';
    const parsed = window.libphonenumber.parsePhoneNumberFromString(input, region);
    answer = {
      success: true,
      payload: {
        isValid: parsed ? parsed.isValid() : false,
        number: parsed ? parsed.number : '',
        national: parsed ? parsed.formatNational() : input,
      },
    };
  } catch (error) {
    answer = { success: false, error: { name: 'Error', message: error && error.message ? error.message : String(error) } };
  }
  port.postMessage(answer);
});
`;

/** The page: the library, then the listener. */
export function servicesPage(libraryPath: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Gatehouse client-side services</title>
<script src="${libraryPath}"></script>
<script>${SERVICES_PAGE_SCRIPT}</script>
</head><body></body></html>`;
}

let library: string | null = null;

/** libphonenumber-js's browser bundle (with its compact metadata), read once. */
export function phoneLibrary(): string {
  if (library === null) {
    const root = dirname(createRequire(import.meta.url).resolve('libphonenumber-js/package.json'));
    library = readFileSync(join(root, 'bundle', 'libphonenumber-min.js'), 'utf8');
  }
  return library;
}
