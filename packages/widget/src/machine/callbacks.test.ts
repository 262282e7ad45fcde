import { afterEach, describe, expect, it, vi } from 'vitest';
import { invokeCallback, type WidgetCallbacks } from './callbacks.js';

afterEach(() => vi.restoreAllMocks());

describe('invokeCallback', () => {
  it('passes the value to the host callback', () => {
    const seen: unknown[] = [];
    const callbacks: WidgetCallbacks = { onSuccess: (data) => seen.push(data) };
    invokeCallback(callbacks, 'onSuccess', { ok: true });
    invokeCallback(callbacks, 'onError', { message: 'not listened to' });
    expect(seen).toEqual([{ ok: true }]);
  });

  it('keeps a throwing callback from breaking the widget', () => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const callbacks: WidgetCallbacks = {
      onEvent() {
        throw new Error('host bug');
      },
    };
    expect(() => invokeCallback(callbacks, 'onEvent', { type: 'X', data: null })).not.toThrow();
    expect(logged).toHaveBeenCalledOnce();
  });
});
