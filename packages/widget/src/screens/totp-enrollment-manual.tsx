/** TOTPEnrollmentManual: the secret to type into the app, copied when clicked. */
import { useMessages } from '../messages/use-messages.js';
import { groupSecret } from '../machine/mfa-selectors.js';
import { Button } from '../parts/button.js';
import { Heading } from '../parts/heading.js';
import { MfaScreen } from '../parts/mfa-screen.js';
import { useWidget } from '../widget-context.js';

export function TOTPEnrollmentManual() {
  const format = useMessages();
  const { state, actions } = useWidget();
  const secret = state.mfa.totp.enrollment?.secret ?? '';
  return (
    <MfaScreen>
      <Heading>{format('totpManual.heading')}</Heading>
      <button type="button" className="gh-secret" onClick={actions.copyTotpSecret}>
        {groupSecret(secret)}
      </button>
      <Button onClick={() => actions.showMfaScreen('TOTPEntry')}>
        {format('common.continue')}
      </Button>
      <Button variant="text" onClick={() => actions.showMfaScreen('TOTPEnrollmentQRCode')}>
        {format('totpManual.rescan')}
      </Button>
    </MfaScreen>
  );
}
