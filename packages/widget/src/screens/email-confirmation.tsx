/** EmailConfirmation: 'Check your email', the address, web-mail links and 'Try again'. */
import { useMessages } from '../messages/use-messages.js';
import { Button } from '../parts/button.js';
import { Heading } from '../parts/heading.js';
import { WebmailLinks } from '../parts/webmail-links.js';
import { useWidget } from '../widget-context.js';

export function EmailConfirmation() {
  const format = useMessages();
  const { state, actions } = useWidget();
  return (
    <div className="gh-screen">
      <Heading>{format('emailConfirmation.heading')}</Heading>
      <p className="gh-text">
        {format('emailConfirmation.sentTo', { email: state.magicLink.email })}
      </p>
      <WebmailLinks senderDomain={state.bootstrap.emailDomains[0] ?? null} />
      <p className="gh-text gh-text-secondary">
        {format('emailConfirmation.didntGetIt')}{' '}
        <Button variant="text" onClick={actions.returnToMain}>
          {format('emailConfirmation.tryAgain')}
        </Button>
      </p>
    </div>
  );
}
