/** PasswordSetNewConfirmation: 'Check your email!' after a reset e-mail, with 'Resend email'. */
import { useMessages } from '../messages/use-messages.js';
import { Button } from '../parts/button.js';
import { Heading } from '../parts/heading.js';
import { WebmailLinks } from '../parts/webmail-links.js';
import { useWidget } from '../widget-context.js';

export function PasswordSetNewConfirmation() {
  const format = useMessages();
  const { state, actions } = useWidget();
  return (
    <div className="gh-screen">
      <Heading>{format('passwordSetNew.heading')}</Heading>
      <WebmailLinks senderDomain={state.bootstrap.emailDomains[0] ?? null} />
      <Button
        variant="secondary"
        loading={state.form.isSubmitting}
        onClick={() => actions.resendPasswordEmail('resetEmail')}
      >
        {format('passwordSetNew.resend')}
      </Button>
    </div>
  );
}
