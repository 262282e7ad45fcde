/**
 * PasswordSetNewConfirmation: 'Check your email!' after a reset e-mail, with the address it went
 * to (and why, when the organization required a new password), 'Resend email', and the back
 * arrow to the start for a mistyped address.
 */
import { useMessages } from '../messages/use-messages.js';
import { BackButton } from '../parts/back-button.js';
import { Button } from '../parts/button.js';
import { Heading } from '../parts/heading.js';
import { WebmailLinks } from '../parts/webmail-links.js';
import { useWidget } from '../widget-context.js';

export function PasswordSetNewConfirmation() {
  const format = useMessages();
  const { state, actions } = useWidget();
  return (
    <div className="gh-screen">
      <BackButton onClick={actions.returnToMain} />
      <Heading>{format('passwordSetNew.heading')}</Heading>
      <p className="gh-text">
        {format('emailConfirmation.sentTo', { email: state.password.email })}
      </p>
      {state.password.requiredReset && (
        <p className="gh-text">{format('passwordSetNew.resetRequired')}</p>
      )}
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
