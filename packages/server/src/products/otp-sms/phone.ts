/**
 * Phone numbers for SMS MFA: parsing, validation and E.164 normalization. libphonenumber-js and
 * its metadata (about 3 MB of a server's memory) load on the first number read, not at start.
 */
import type { CountryCode } from 'libphonenumber-js/min';
import { DEFAULT_PHONE_REGION } from '@gatehouse/protocol';

/** A valid phone number in its stored and displayed forms. */
export interface NormalizedPhoneNumber {
  /** E.164, e.g. `+14155552671`: how numbers are stored, compared and sent to. */
  e164: string;
  /** The national format, e.g. `(415) 555-2671`, for display. */
  national: string;
}

/**
 * Parses a phone number typed in any usual format. Numbers without a `+` country code are read in
 * `defaultRegion`. Returns null for anything that is not a valid number (docs/protocol.md §7.7:
 * `invalid_phone_number`). Uses the same "min" metadata as the widget, so both sides agree on
 * what is valid.
 *
 * @example
 * await normalizePhoneNumber('+1 (415) 555-2671'); // { e164: '+14155552671', national: '(415) 555-2671' }
 * await normalizePhoneNumber('12'); // null
 */
export async function normalizePhoneNumber(
  input: string,
  defaultRegion: CountryCode = DEFAULT_PHONE_REGION,
): Promise<NormalizedPhoneNumber | null> {
  return (await phoneNumberReader())(input, defaultRegion);
}

/** Reads one phone number as {@link normalizePhoneNumber} does, once the library has loaded. */
export type PhoneNumberReader = (
  input: string,
  defaultRegion?: CountryCode,
) => NormalizedPhoneNumber | null;

let reader: Promise<PhoneNumberReader> | undefined;

/**
 * {@link normalizePhoneNumber} without a promise per number, for reading many at once.
 *
 * @example
 * const read = await phoneNumberReader();
 * const numbers = inputs.map((input) => read(input)?.e164);
 */
export function phoneNumberReader(): Promise<PhoneNumberReader> {
  reader ??= import('libphonenumber-js/min').then(
    ({ parsePhoneNumberFromString }) =>
      (input, defaultRegion = DEFAULT_PHONE_REGION) => {
        const parsed = parsePhoneNumberFromString(input.trim(), defaultRegion);
        if (!parsed?.isValid()) return null;
        return { e164: parsed.number, national: parsed.formatNational() };
      },
  );
  return reader;
}
