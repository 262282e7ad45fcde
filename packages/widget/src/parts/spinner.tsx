/** The loading spinner: announced on its own, silent inside a busy button. */
import { useMessages } from '../messages/use-messages.js';

export function Spinner({ decorative = false }: { decorative?: boolean }) {
  const format = useMessages();
  if (decorative) return <span className="gh-spinner" aria-hidden="true" />;
  return <span className="gh-spinner" role="status" aria-label={format('loading.label')} />;
}
