/** TOTPEnrollmentQRCode: the registration's QR code, created on entry, once. */
import { useEffect } from 'react';
import { format } from '../messages/en.js';
import { Button } from '../parts/Button.js';
import { FormError } from '../parts/FormError.js';
import { Heading } from '../parts/Heading.js';
import { MfaScreen } from '../parts/MfaScreen.js';
import { Spinner } from '../parts/Spinner.js';
import { useWidget } from '../WidgetContext.js';

export function TOTPEnrollmentQRCode() {
  const { state, actions } = useWidget();
  const { enrollment, isCreating, error } = state.mfa.totp;

  useEffect(() => {
    actions.createTotp();
  }, [actions]);

  return (
    <MfaScreen>
      <Heading>{format('totpQr.heading')}</Heading>
      {enrollment ? (
        <img className="gh-qr" src={enrollment.qrCode} alt={format('totpQr.alt')} />
      ) : isCreating ? (
        <div className="gh-centered">
          <Spinner />
        </div>
      ) : (
        <FormError id="gh-totp-error" message={error} />
      )}
      <Button
        variant="text"
        disabled={!enrollment}
        onClick={() => actions.showMfaScreen('TOTPEnrollmentManual')}
      >
        {format('totpQr.trouble')}
      </Button>
      <Button disabled={!enrollment} onClick={() => actions.showMfaScreen('TOTPEntry')}>
        {format('common.continue')}
      </Button>
    </MfaScreen>
  );
}
