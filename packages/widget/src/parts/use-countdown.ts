/** The time left until an epoch-millisecond deadline, refreshed every second until it passes. */
import { COUNTDOWN_REFRESH_MS } from '@gatehouse/protocol';
import { useEffect, useState } from 'react';

/** Milliseconds left (never below 0), or null without a deadline. */
export function useCountdown(deadline: number | null, now: () => number): number | null {
  // Each tick only asks for a render; the time left is read from the clock when rendering.
  const [, setTick] = useState(0);
  useEffect(() => {
    if (deadline === null) return;
    const timer = setInterval(() => {
      setTick((t) => t + 1);
      if (deadline <= now()) clearInterval(timer);
    }, COUNTDOWN_REFRESH_MS);
    return () => clearInterval(timer);
  }, [deadline, now]);
  return deadline === null ? null : Math.max(0, deadline - now());
}
