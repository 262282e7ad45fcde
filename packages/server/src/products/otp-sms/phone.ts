/** Phone numbers for SMS MFA: parsing, validation and E.164 normalization. */
import { parsePhoneNumberFromString, type CountryCode } from 'libphonenumber-js/min';
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
 * normalizePhoneNumber('+1 (415) 555-2671'); // { e164: '+14155552671', national: '(415) 555-2671' }
 * normalizePhoneNumber('12'); // null
 */
export function normalizePhoneNumber(
  input: string,
  defaultRegion: CountryCode = DEFAULT_PHONE_REGION,
): NormalizedPhoneNumber | null {
  const parsed = parsePhoneNumberFromString(input.trim(), defaultRegion);
  if (!parsed?.isValid()) return null;
  return { e164: parsed.number, national: parsed.formatNational() };
}
