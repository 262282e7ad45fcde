/** LoggedIn: 'Success!' 'You have successfully logged in.' */
import { useMessages } from '../messages/use-messages.js';
import { Heading } from '../parts/heading.js';
import { SuccessIcon } from '../parts/icons.js';

export function LoggedIn() {
  const format = useMessages();
  return (
    <div className="gh-screen" role="status">
      <SuccessIcon />
      <Heading>{format('loggedIn.heading')}</Heading>
      <p className="gh-text">{format('loggedIn.body')}</p>
    </div>
  );
}
