/** The reset e-mail this browser asked a reset link for, kept where the client keeps it (docs/protocol.md §11). */
import { DEFAULT_STORAGE_PREFIX } from '@gatehouse/protocol';
import type { WidgetEnvironment } from './context.js';

/** The storage key of the reset e-mail: `{prefix}{public_token}::reset-email-value`. */
export function resetEmailKey(publicToken: string): string {
  return `${DEFAULT_STORAGE_PREFIX}${publicToken}::reset-email-value`;
}

/** The stored reset e-mail, or null when none is stored or storage cannot be read. */
export function readResetEmail(env: Pick<WidgetEnvironment, 'storage'>, publicToken: string) {
  try {
    const raw = env.storage?.getItem(resetEmailKey(publicToken));
    if (!raw) return null;
    const value: unknown = JSON.parse(raw);
    return typeof value === 'string' && value ? value : null;
  } catch {
    // Blocked storage or a value some other script wrote: behave as if nothing were stored.
    return null;
  }
}

/** Stores the reset e-mail, so the reset page opened from the link can show it. */
export function writeResetEmail(
  env: Pick<WidgetEnvironment, 'storage'>,
  publicToken: string,
  email: string,
): void {
  try {
    env.storage?.setItem(resetEmailKey(publicToken), JSON.stringify(email));
  } catch {
    // Full or disabled storage only costs the convenience of a filled-in field.
  }
}

/** Forgets the reset e-mail once the reset is done. */
export function clearResetEmail(env: Pick<WidgetEnvironment, 'storage'>, publicToken: string) {
  try {
    env.storage?.removeItem(resetEmailKey(publicToken));
  } catch {
    // Nothing to undo when storage is unavailable.
  }
}
