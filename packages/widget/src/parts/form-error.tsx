/** The announced error under a form; server messages with links become clickable (docs/widget.md §5). */
import { LinkifiedText } from './linkified-text.js';

export function FormError({ id, message }: { id: string; message: string | null }) {
  if (!message) return null;
  return (
    <p id={id} className="gh-error-text" role="alert">
      <LinkifiedText text={message} />
    </p>
  );
}
