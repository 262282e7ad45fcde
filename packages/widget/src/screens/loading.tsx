/** The loading screens: 'Logging in...' with a spinner, or a spinner alone. */
import { useMessages } from '../messages/use-messages.js';
import { Spinner } from '../parts/spinner.js';

export function LoggingIn() {
  const format = useMessages();
  return (
    <div className="gh-screen gh-centered" aria-live="polite">
      <Spinner decorative />
      <p className="gh-text">{format('loading.loggingIn')}</p>
    </div>
  );
}

export function Loading() {
  return (
    <div className="gh-screen gh-centered">
      <Spinner />
    </div>
  );
}
