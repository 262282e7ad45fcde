/**
 * What the card shows while a screen's code loads: the spinner, centred, in a card that keeps the
 * height of the screen before, so the card does not collapse and spring back.
 */
import { useLayoutEffect, useRef, type ReactNode, type RefObject } from 'react';
import { Spinner } from './spinner.js';

export interface ScreenHeightProps {
  /** The stage the screens are drawn on. */
  stageRef: RefObject<HTMLElement | null>;
  /** Where the height of the screen last drawn is kept. */
  heightRef: RefObject<number>;
  children: ReactNode;
}

/**
 * Keeps the stage's height each time a screen on it is drawn, for the spinner of the next one.
 * React keeps the screen being left on the page, hidden, while the next one's code loads; Preact
 * takes it off first and draws this once more over an empty stage, whose height is not kept.
 */
export function ScreenHeight({ stageRef, heightRef, children }: ScreenHeightProps) {
  useLayoutEffect(() => {
    const drawn = stageRef.current?.offsetHeight ?? 0;
    if (drawn > 0) heightRef.current = drawn;
  });
  return children;
}

export function PendingScreen({ heightRef }: { heightRef: RefObject<number> }) {
  const screenRef = useRef<HTMLDivElement>(null);
  // Set once, as it first shows, before the browser paints.
  useLayoutEffect(() => {
    if (screenRef.current && heightRef.current > 0) {
      screenRef.current.style.minHeight = `${heightRef.current}px`;
    }
  }, [heightRef]);
  return (
    <div ref={screenRef} className="gh-screen gh-centered gh-pending">
      <Spinner />
    </div>
  );
}
