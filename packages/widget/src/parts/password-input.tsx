/**
 * A password field with a show/hide toggle, labelled for password managers and screen readers; it
 * brings the password screens' style sheet.
 */
import { useId, useState, type Ref } from 'react';
import { useMessages } from '../messages/use-messages.js';
import { EyeIcon } from './password-icons.js';
import css from './passwords.css?inline';
import { StyleSheet } from './style-sheet.js';

export interface PasswordInputProps {
  label: string;
  value: string;
  onChange: (value: string) => void;
  /** `current-password` to sign in, `new-password` to set one: managers fill or generate. */
  autoComplete: 'current-password' | 'new-password';
  /** Ids of the texts that describe the field (errors, strength feedback). */
  describedBy?: string;
  invalid?: boolean;
  inputRef?: Ref<HTMLInputElement>;
}

export function PasswordInput({
  label,
  value,
  onChange,
  autoComplete,
  describedBy,
  invalid,
  inputRef,
}: PasswordInputProps) {
  const format = useMessages();
  const [shown, setShown] = useState(false);
  const id = useId();
  return (
    <div className="gh-password">
      {/* Every password screen has this field, so it brings their styles. */}
      <StyleSheet name="passwords" css={css} />
      <label className="gh-label" htmlFor={id}>
        {label}
      </label>
      <input
        ref={inputRef}
        id={id}
        className="gh-input"
        type={shown ? 'text' : 'password'}
        name="password"
        required
        autoComplete={autoComplete}
        // Shown passwords must not be corrected or capitalised behind the user's back.
        autoCapitalize="none"
        autoCorrect="off"
        spellCheck={false}
        placeholder={label}
        value={value}
        onChange={(e) => onChange(e.target.value)}
        aria-invalid={invalid || undefined}
        aria-describedby={describedBy}
      />
      <button
        type="button"
        className="gh-password-toggle"
        aria-label={format('password.show')}
        aria-pressed={shown}
        aria-controls={id}
        onClick={() => setShown((s) => !s)}
      >
        <EyeIcon crossed={shown} />
      </button>
    </div>
  );
}
