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
 * Keeps the stage's height whenever it changes, for the spinner of the next screen: a screen
 * grows or shrinks on its own (a message under a field) without the widget drawing it again.
 * React keeps the screen being left on the page, hidden, while the next one's code loads; Preact
 * takes it off first and draws the spinner over an empty stage, whose height is not kept.
 */
export function ScreenHeight({ stageRef, heightRef, children }: ScreenHeightProps) {
  useLayoutEffect(() => {
    const stage = stageRef.current;
    if (!stage) return;
    const keep = () => {
      const height = stage.offsetHeight;
      if (height > 0) heightRef.current = height;
    };
    keep();
    // Every browser the widget supports has one; a DOM without layout (unit tests) has neither.
    if (typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(keep);
    observer.observe(stage);
    return () => observer.disconnect();
  }, [stageRef, heightRef]);
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
