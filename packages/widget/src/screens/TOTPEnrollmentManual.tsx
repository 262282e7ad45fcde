/** TOTPEnrollmentManual: the secret to type into the app, copied when clicked. */
import { format } from '../messages/en.js';
import { groupSecret } from '../machine/mfaSelectors.js';
import { Button } from '../parts/Button.js';
import { Heading } from '../parts/Heading.js';
import { MfaScreen } from '../parts/MfaScreen.js';
import { useWidget } from '../WidgetContext.js';

export function TOTPEnrollmentManual() {
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
