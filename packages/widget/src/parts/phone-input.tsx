/** The country select with dial codes and the national number, formatted while typing. */
import { useId, useMemo } from 'react';
import { useMessages } from '../messages/use-messages.js';
import { countryOptions, nextNationalValue, type CountryCode } from './phone.js';

export interface PhoneInputProps {
  country: CountryCode;
  onCountryChange: (country: CountryCode) => void;
  national: string;
  onNationalChange: (national: string) => void;
  /** The id of the error that describes the number, when there is one. */
  errorId?: string;
}

export function PhoneInput({
  country,
  onCountryChange,
  national,
  onNationalChange,
  errorId,
}: PhoneInputProps) {
  const format = useMessages();
  const options = useMemo(() => countryOptions(), []);
  const selected = options.find((o) => o.code === country);
  const selectId = useId();
  const inputId = useId();
  return (
    <div className="gh-phone">
      <label className="gh-label" htmlFor={selectId}>
        {format('phone.country')}
      </label>
      {/* A closed select shows its option's whole text, which a phone's width cuts to "United
          Stat": the eye reads a short face ("US +1") over the select, which stays transparent on
          top to take clicks and keeps the country's name for screen readers and the list. */}
      <div className="gh-phone-country">
        <span className="gh-input gh-phone-country-face" aria-hidden="true">
          {selected ? `${selected.code} +${selected.dialCode}` : country}
        </span>
        <select
          id={selectId}
          className="gh-phone-country-select"
          autoComplete="tel-country-code"
          value={country}
          onChange={(e) => {
            const next = options.find((o) => o.code === e.target.value);
            if (next) onCountryChange(next.code);
          }}
        >
          {options.map((o) => (
            <option key={o.code} value={o.code}>
              {`${o.name} +${o.dialCode}`}
            </option>
          ))}
        </select>
      </div>
      <label className="gh-label" htmlFor={inputId}>
        {format('phone.label')}
      </label>
      <input
        id={inputId}
        className="gh-input"
        type="tel"
        inputMode="tel"
        autoComplete="tel-national"
        placeholder={format('smsEnrollment.placeholder')}
        value={national}
        onChange={(e) => onNationalChange(nextNationalValue(country, national, e.target.value))}
        aria-invalid={errorId ? true : undefined}
        aria-describedby={errorId}
      />
    </div>
  );
}
