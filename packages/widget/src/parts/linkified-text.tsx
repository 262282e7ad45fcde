/** Text in which web addresses become links, for server messages that point somewhere (docs/widget.md §5). */
import type { ReactNode } from 'react';

const URL_PATTERN = /(https?:\/\/[^\s<>"']+[^\s<>"'.,;:!?)])/;

/** Splits text into plain parts and links; only http(s) addresses are linked. */
export function linkify(text: string): ReactNode[] {
  // split() with a capturing group keeps the addresses at the odd indexes.
  return text.split(URL_PATTERN).map((part, index) =>
    index % 2 === 1 ? (
      <a key={index} href={part} target="_blank" rel="noopener noreferrer">
        {part}
      </a>
    ) : (
      part
    ),
  );
}

export function LinkifiedText({ text }: { text: string }) {
  return <>{linkify(text)}</>;
}
