/** A screen's heading, which takes focus when the screen replaces another. */
import { useEffect, useRef, type ReactNode } from 'react';
import { useWidget } from '../widget-context.js';

export function Heading({ children }: { children: ReactNode }) {
  const { shouldFocusHeading } = useWidget();
  const ref = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    // Screen readers and keyboard users land on the new screen instead of a removed element.
    if (shouldFocusHeading()) ref.current?.focus();
  }, [shouldFocusHeading]);
  return (
    <h1 ref={ref} tabIndex={-1} className="gh-heading">
      {children}
    </h1>
  );
}
