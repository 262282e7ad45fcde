/**
 * The one-time code input: six boxes over one real field, so that typing, pasting and the
 * platform's code autofill all work; digits only, and it submits by itself at the sixth digit.
 */
import { OTP_LENGTH } from '@gatehouse/protocol';
import { useId, useState } from 'react';
import { useMessages } from '../messages/use-messages.js';

export interface OtpInputProps {
  /** Called once the code has all its digits. */
  onComplete: (code: string) => void;
  /** The id of the error that describes the field, when there is one. */
  errorId?: string;
}

const BOXES = Array.from({ length: OTP_LENGTH }, (_, i) => i);

/** What the field keeps of typed or pasted text: its digits, at most six. */
export function otpDigits(text: string): string {
  return text.replace(/\D/g, '').slice(0, OTP_LENGTH);
}

export function OtpInput({ onComplete, errorId }: OtpInputProps) {
  const format = useMessages();
  const [code, setCode] = useState('');
  const id = useId();

  function change(field: HTMLInputElement) {
    const digits = otpDigits(field.value);
    // What the field keeps, put back at once: a seventh digit leaves the state as it was, and not
    // every renderer then writes the controlled value back over the typed one.
    if (field.value !== digits) field.value = digits;
    setCode(digits);
    // Only the change that completes the code submits it; an unchanged full code does not.
    if (digits.length === OTP_LENGTH && digits !== code) onComplete(digits);
  }

  return (
    <div className="gh-otp">
      <label className="gh-label" htmlFor={id}>
        {format('otp.label')}
      </label>
      <input
        id={id}
        className="gh-otp-input"
        type="text"
        inputMode="numeric"
        autoComplete="one-time-code"
        pattern="[0-9]*"
        value={code}
        onChange={(e) => change(e.currentTarget)}
        aria-invalid={errorId ? true : undefined}
        aria-describedby={errorId}
      />
      <div className="gh-otp-boxes" aria-hidden="true">
        {BOXES.map((i) => (
          <span
            key={i}
            className={
              i === Math.min(code.length, OTP_LENGTH - 1) ? 'gh-otp-box gh-otp-next' : 'gh-otp-box'
            }
          >
            {code[i] ?? ''}
          </span>
        ))}
      </div>
    </div>
  );
}
