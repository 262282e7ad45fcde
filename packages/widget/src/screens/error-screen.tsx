/** Error: 'Looks like there was an error!', an illustration and the message of its type. */
import type { ErrorScreenType } from '../machine/state.js';
import { useMessages } from '../messages/use-messages.js';
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
  const { state } = useWidget();
  return (
    <div className="gh-screen" role="alert">
      <ErrorIllustration />
      <Heading>{format('error.heading')}</Heading>
      <p className="gh-text">{format(MESSAGE[state.errorType])}</p>
    </div>
  );
}
