/** One text field of a mapping form, with its hint and the mistake found in it, tied to it. */
import type { AdminFormat, AdminMessageKey } from './admin-messages.js';

export function Field({
  id,
  label,
  hint,
  value,
  problem,
  format,
  onChange,
}: {
  id: string;
  label: string;
  hint?: string;
  value: string;
  problem: AdminMessageKey | undefined;
  format: AdminFormat;
  onChange: (value: string) => void;
}) {
  const described = [hint ? `${id}-hint` : '', problem ? `${id}-error` : ''].filter(Boolean);
  return (
    <div className="gh-admin-field">
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        className="gh-input"
        value={value}
        autoComplete="off"
        aria-invalid={problem ? true : undefined}
        aria-describedby={described.length > 0 ? described.join(' ') : undefined}
        onChange={(e) => onChange(e.target.value)}
      />
      {hint && (
        <p id={`${id}-hint`} className="gh-text-secondary gh-admin-hint">
          {hint}
        </p>
      )}
      {problem && (
        <p id={`${id}-error`} className="gh-error-text">
          {format(problem)}
        </p>
      )}
    </div>
  );
}
