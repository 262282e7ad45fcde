/** The 'or' rule between the e-mail form and the sign-in buttons. */
import { useMessages } from '../messages/use-messages.js';

export function Divider() {
  const format = useMessages();
  return <div className="gh-divider">{format('main.divider')}</div>;
}
