/** Adds the style sheet of a lazily loaded screen family beside the widget's own, before paint. */
import { useLayoutEffect, useRef } from 'react';
import { injectStyles } from '../inject-styles.js';

export function StyleSheet({ name, css }: { name: string; css: string }) {
  const ref = useRef<HTMLSpanElement>(null);
  useLayoutEffect(() => {
    // The sheet goes to the root that holds the widget, so shadow-DOM mounts get it too.
    if (ref.current) injectStyles(ref.current, css, name);
  }, [name, css]);
  return <span ref={ref} hidden />;
}
