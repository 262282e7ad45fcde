/** The settings section's session limit: the longest a member's session lives, in minutes from its sign-in. */
import { useId } from 'react';
import { SESSION_DURATION_MAX_MINUTES, SESSION_DURATION_MIN_MINUTES } from '@gatehouse/protocol';
import { useAdmin } from './admin-context.js';

export interface SessionLengthFieldProps {
  /** The minutes as typed; empty for no limit of the organization's own. */
  value: string;
  onChange: (value: string) => void;
}

/** A whole number of minutes within the protocol's session bounds, or empty (docs/protocol.md §5). */
export function SessionLengthField({ value, onChange }: SessionLengthFieldProps) {
  const { format } = useAdmin();
  const id = useId();
  return (
    <div className="gh-admin-field">
      <label htmlFor={`${id}-session-max`}>{format('settings.sessionMax')}</label>
      <input
        id={`${id}-session-max`}
        className="gh-input"
        type="number"
        inputMode="numeric"
        min={SESSION_DURATION_MIN_MINUTES}
        max={SESSION_DURATION_MAX_MINUTES}
        step={1}
        placeholder={format('settings.sessionMaxNone')}
        value={value}
        aria-describedby={`${id}-session-max-hint`}
        onChange={(e) => onChange(e.target.value)}
      />
      <p id={`${id}-session-max-hint`} className="gh-text-secondary gh-admin-hint">
        {format('settings.sessionMaxHint')}
      </p>
    </div>
  );
}
