/**
 * What the card shows while a screen's code loads: the spinner, centred, in a card that keeps the
 * height of the screen before, so the card does not collapse and spring back.
 */
import { useState, type RefObject } from 'react';
import { Spinner } from './spinner.js';

export function PendingScreen({ stage }: { stage: RefObject<HTMLElement | null> }) {
  // Read once, as this first renders: the stage still holds the screen being left.
  const [height] = useState(() => stage.current?.offsetHeight ?? 0);
  return (
    <div className="gh-screen gh-centered gh-pending" style={height ? { minHeight: height } : {}}>
      <Spinner />
    </div>
  );
}
