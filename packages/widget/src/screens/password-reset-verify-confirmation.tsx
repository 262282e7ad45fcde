/** PasswordResetVerifyConfirmation: a login link was sent to verify the e-mail before a reset. */
import { useMessages } from '../messages/use-messages.js';
import { Button } from '../parts/button.js';
import { Heading } from '../parts/heading.js';
import { WebmailLinks } from '../parts/webmail-links.js';
import { useWidget } from '../widget-context.js';

export function PasswordResetVerifyConfirmation() {
  const format = useMessages();
  const { state, actions } = useWidget();
  return (
    <div className="gh-screen">
      <Heading>{format('passwordResetVerify.heading')}</Heading>
      <p className="gh-text">
        {format('passwordResetVerify.sentTo', { email: state.password.email })}
      </p>
      <WebmailLinks senderDomain={state.bootstrap.emailDomains[0] ?? null} />
      <p className="gh-text gh-text-secondary">
        {format('passwordResetVerify.didntGetIt')}{' '}
        <Button
          variant="text"
          loading={state.form.isSubmitting}
          onClick={() => actions.resendPasswordEmail('resetLink')}
        >
          {format('passwordResetVerify.resend')}
        </Button>
      </p>
    </div>
  );
}
