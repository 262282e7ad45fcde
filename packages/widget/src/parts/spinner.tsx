/** The loading spinner: announced on its own, silent inside a busy button. */
import { format } from '../messages/en.js';

export function Spinner({ decorative = false }: { decorative?: boolean }) {
  if (decorative) return <span className="gh-spinner" aria-hidden="true" />;
  return <span className="gh-spinner" role="status" aria-label={format('loading.label')} />;
}
