/**
 * Phone numbers for SMS enrollment: the country list with dial codes, national formatting while
 * typing, and parsing to E.164. It holds libphonenumber's metadata, so only SMS screens load it.
 */
import {
  AsYouType,
  getCountries,
  getCountryCallingCode,
  parsePhoneNumberFromString,
  type CountryCode,
} from 'libphonenumber-js/min';
import type { EnteredPhoneNumber } from '../machine/mfa.js';

export type { CountryCode };

/** A choice of the country select. */
export interface CountryOption {
  code: CountryCode;
  name: string;
  dialCode: string;
}

let countries: CountryOption[] | null = null;

/** Every country with its dial code, sorted by English name (computed once). */
export function countryOptions(): CountryOption[] {
  if (countries) return countries;
  const names = new Intl.DisplayNames(['en'], { type: 'region' });
  countries = getCountries()
    .map((code) => ({ code, name: names.of(code) ?? code, dialCode: getCountryCallingCode(code) }))
    .sort((a, b) => a.name.localeCompare(b.name, 'en'));
  return countries;
}

/** Whether a region code is one the country select offers. */
export function isCountryCode(code: string): code is CountryCode {
  return countryOptions().some((c) => c.code === code);
}

/**
 * The national field's next text: the digits typed, formatted for the country. Deleting only a
 * bracket, space or dash would be undone by the formatting, so it deletes the digit before it.
 */
export function nextNationalValue(country: CountryCode, previous: string, next: string): string {
  const digits = next.replace(/\D/g, '');
  const onlyFormattingDeleted =
    next.length < previous.length && digits === previous.replace(/\D/g, '');
  const kept = onlyFormattingDeleted ? digits.slice(0, -1) : digits;
  return new AsYouType(country).input(kept);
}

/** The number in E.164 with how to show it, or null when it is not a valid number there. */
export function parsePhone(country: CountryCode, national: string): EnteredPhoneNumber | null {
  const parsed = parsePhoneNumberFromString(national, country);
  if (!parsed?.isValid()) return null;
  return { countryCode: country, e164: parsed.number, display: parsed.formatInternational() };
}

/** An E.164 number as the code screen shows it; anything unparsable is shown as it is. */
export function displayPhone(e164: string): string {
  return parsePhoneNumberFromString(e164)?.formatInternational() ?? e164;
}
