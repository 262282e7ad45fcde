/** Running one server call from a control: busy while it runs, the server's words when it fails. */
import { useCallback, useLayoutEffect, useRef, useState } from 'react';
import { GatehouseAPIError } from '@gatehouse/client';
import type { AdminFormat } from './admin-messages.js';

export interface Action<A extends unknown[]> {
  run: (...args: A) => Promise<boolean>;
  busy: boolean;
  /** The server's message (or a general one), shown in an alert until the next run. */
  error: string | null;
  clearError: () => void;
}

/**
 * Wraps `work`: `run` resolves true when it succeeded, false when it failed (the error is kept
 * for the alert). A 403 `unauthorized_action` shows the server's own explanation.
 *
 * @example
 * const save = useAction(format, (name: string) => admin.organization.update({ organization_name: name }));
 */
export function useAction<A extends unknown[]>(
  format: AdminFormat,
  work: (...args: A) => Promise<unknown>,
): Action<A> {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const latest = useRef(work);
  useLayoutEffect(() => {
    latest.current = work;
  });
  const run = useCallback(
    async (...args: A) => {
      setBusy(true);
      setError(null);
      try {
        await latest.current(...args);
        return true;
      } catch (e) {
        setError(errorMessage(format, e));
        return false;
      } finally {
        setBusy(false);
      }
    },
    [format],
  );
  return { run, busy, error, clearError: useCallback(() => setError(null), []) };
}

/** What to tell the member about a failed call. */
export function errorMessage(format: AdminFormat, error: unknown): string {
  if (error instanceof GatehouseAPIError) {
    if (error.error_message) return error.error_message;
    if (error.error_type === 'unauthorized_action') return format('common.forbidden');
  }
  return format('common.error');
}
