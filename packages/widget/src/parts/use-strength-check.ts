/** The server's strength verdict for a password being typed, asked 500 ms after the last key. */
import { STRENGTH_CHECK_DEBOUNCE_MS } from '@gatehouse/protocol';
import { useEffect, useState } from 'react';
import type { PasswordStrengthResult } from '../client.js';
import { useWidget } from '../widget-context.js';

/** Where the check of the current password stands. */
export type StrengthCheck =
  | { status: 'idle' }
  /** A password is typed and its verdict is not in yet (the pause, then the call). */
  | { status: 'checking' }
  | { status: 'checked'; result: PasswordStrengthResult }
  /** The check could not be made; the server judges the password on submit instead. */
  | { status: 'unavailable' };

/**
 * Checks a password once typing pauses. Only the answer for the password as it is now counts:
 * a slower answer for an older value is dropped.
 */
export function useStrengthCheck(password: string): StrengthCheck {
  const { actions } = useWidget();
  const [answer, setAnswer] = useState<{ password: string; check: StrengthCheck } | null>(null);

  useEffect(() => {
    if (!password) return;
    let current = true;
    const timer = setTimeout(() => {
      void actions.checkPasswordStrength(password).then((result) => {
        if (!current) return;
        const check: StrengthCheck = result
          ? { status: 'checked', result }
          : { status: 'unavailable' };
        setAnswer({ password, check });
      });
    }, STRENGTH_CHECK_DEBOUNCE_MS);
    return () => {
      current = false;
      clearTimeout(timer);
    };
  }, [password, actions]);

  if (answer && answer.password === password) return answer.check;
  return password ? { status: 'checking' } : { status: 'idle' };
}

/** Whether a password may be submitted: checked and valid, or checked as far as was possible. */
export function canSubmitPassword(password: string, check: StrengthCheck): boolean {
  if (!password) return false;
  if (check.status === 'checked') return check.result.valid_password;
  return check.status === 'unavailable';
}
