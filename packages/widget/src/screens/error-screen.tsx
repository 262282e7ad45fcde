/**
 * Error: 'Looks like there was an error!', an illustration, the message of its type, and a way
 * back to the start (not when the organization itself is missing: there is no start to go to).
 */
import type { ErrorScreenType } from '../machine/state.js';
import { useMessages } from '../messages/use-messages.js';
import { Button } from '../parts/button.js';
import { Heading } from '../parts/heading.js';
import { ErrorIllustration } from '../parts/icons.js';
import { useWidget } from '../widget-context.js';

const MESSAGE: Record<
  ErrorScreenType,
  'error.default' | 'error.emailMagicLink' | 'error.organization'
> = {
  default: 'error.default',
  email_magic_link: 'error.emailMagicLink',
  organization: 'error.organization',
};

export function ErrorScreen() {
  const format = useMessages();
  const { state, actions } = useWidget();
  return (
    <div className="gh-screen" role="alert">
      <ErrorIllustration />
      <Heading>{format('error.heading')}</Heading>
      <p className="gh-text">{format(MESSAGE[state.errorType])}</p>
      {state.errorType !== 'organization' && (
        <Button variant="secondary" onClick={actions.returnToMain}>
          {format('error.backToStart')}
        </Button>
      )}
    </div>
  );
}
