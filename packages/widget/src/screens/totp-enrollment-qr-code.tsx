/** TOTPEnrollmentQRCode: the registration's QR code, created on entry, once. */
import { useEffect } from 'react';
import { useMessages } from '../messages/use-messages.js';
import { Button } from '../parts/button.js';
import { FormError } from '../parts/form-error.js';
import { Heading } from '../parts/heading.js';
import { MfaScreen } from '../parts/mfa-screen.js';
import { Spinner } from '../parts/spinner.js';
import { useWidget } from '../widget-context.js';

export function TOTPEnrollmentQRCode() {
  const format = useMessages();
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
