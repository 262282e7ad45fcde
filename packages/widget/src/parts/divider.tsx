/** The 'or' rule between the e-mail form and the sign-in buttons. */
import { format } from '../messages/en.js';

export function Divider() {
  return <div className="gh-divider">{format('main.divider')}</div>;
}
