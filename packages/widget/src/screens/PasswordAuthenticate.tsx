/** PasswordAuthenticate: back to Main, 'Log in with email and password' and the password form. */
import { format } from '../messages/en.js';
import { BackButton } from '../parts/BackButton.js';
import { Heading } from '../parts/Heading.js';
import { PasswordLoginForm } from '../parts/PasswordLoginForm.js';
import { useWidget } from '../WidgetContext.js';

export function PasswordAuthenticate() {
  const { actions } = useWidget();
  return (
    <div className="gh-screen">
      <BackButton onClick={actions.returnToMain} />
      <Heading>{format('passwordAuthenticate.heading')}</Heading>
      <PasswordLoginForm />
    </div>
  );
}
