/** A labelled e-mail field for the password and MFA forms. */
import { useId, type InputHTMLAttributes } from 'react';
import { useMessages } from '../messages/use-messages.js';

export interface EmailInputProps extends Omit<
  InputHTMLAttributes<HTMLInputElement>,
  'type' | 'onChange' | 'autoComplete'
> {
  value: string;
  onChange?: (value: string) => void;
  /** `username` where the address pairs with a password, `email` where it stands alone. */
  autoComplete: 'username' | 'email';
  /** The id of the message that describes the field's error, when there is one. */
  errorId?: string;
}

export function EmailInput({ value, onChange, autoComplete, errorId, ...rest }: EmailInputProps) {
  const format = useMessages();
  const id = useId();
  return (
    <>
      <label className="gh-label" htmlFor={id}>
        {format('email.label')}
      </label>
      <input
        {...rest}
        id={id}
        className="gh-input"
        type="email"
        name="email"
        required
        autoComplete={autoComplete}
        placeholder={format('email.placeholder')}
        value={value}
        onChange={(e) => onChange?.(e.target.value)}
        aria-invalid={errorId ? true : undefined}
        aria-describedby={errorId}
      />
    </>
  );
}
