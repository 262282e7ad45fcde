/** A tiny store around the reducer, so effects always read the state their events produced. */
import type { ResolvedConfig } from '../config.js';
import { reduce, type WidgetEvent } from './reducer.js';
import type { WidgetState } from './state.js';

/** The machine's state with a synchronous dispatch, shaped for React's useSyncExternalStore. */
export interface MachineStore {
  getState: () => WidgetState;
  dispatch: (event: WidgetEvent) => void;
  subscribe: (listener: () => void) => () => void;
}

/**
 * Creates a store. Dispatch applies the event at once: an effect that dispatches and then reads
 * the state sees the result, which is what guards against a double submit.
 */
export function createMachineStore(initial: WidgetState, config: ResolvedConfig): MachineStore {
  let state = initial;
  const listeners = new Set<() => void>();
  return {
    getState: () => state,
    dispatch: (event) => {
      const next = reduce(state, event, config);
      if (next === state) return;
      state = next;
      for (const listener of listeners) listener();
    },
    subscribe: (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
