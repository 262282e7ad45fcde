/** The widget's buttons: primary (filled), secondary (outlined) and text. */
import type { ButtonHTMLAttributes, ReactNode } from 'react';
import { focusOnMount } from './focus-on-mount.js';
import { Spinner } from './spinner.js';

export interface ButtonProps extends ButtonHTMLAttributes<HTMLButtonElement> {
  variant?: 'primary' | 'secondary' | 'text';
  /** Shows a spinner and blocks clicks until the work is done. */
  loading?: boolean;
  icon?: ReactNode;
}

export function Button({
  variant = 'primary',
  loading = false,
  icon,
  children,
  disabled,
  type = 'button',
  autoFocus,
  ...rest
}: ButtonProps) {
  return (
    <button
      {...rest}
      ref={autoFocus ? focusOnMount : undefined}
      type={type}
      className={`gh-button gh-button-${variant}`}
      disabled={disabled || loading}
      aria-busy={loading || undefined}
    >
      {loading ? <Spinner decorative /> : icon}
      {children}
    </button>
  );
}
