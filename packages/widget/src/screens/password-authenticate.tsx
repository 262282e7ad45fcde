/** PasswordAuthenticate: back to Main, 'Log in with email and password' and the password form. */
import { useMessages } from '../messages/use-messages.js';
import { BackButton } from '../parts/back-button.js';
import { Heading } from '../parts/heading.js';
import { PasswordLoginForm } from '../parts/password-login-form.js';
import { useWidget } from '../widget-context.js';

export function PasswordAuthenticate() {
  const format = useMessages();
  const { actions } = useWidget();
  return (
    <div className="gh-screen">
      <BackButton onClick={actions.returnToMain} />
      <Heading>{format('passwordAuthenticate.heading')}</Heading>
      <PasswordLoginForm />
    </div>
  );
}
