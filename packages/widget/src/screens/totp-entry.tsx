/** TOTPEntry: the authenticator app's code, with backup codes or a text message as ways out. */
import { useId } from 'react';
import { useMessages } from '../messages/use-messages.js';
import { canSwitchTo } from '../machine/mfa-selectors.js';
import { Button } from '../parts/button.js';
import { FormError } from '../parts/form-error.js';
import { Heading } from '../parts/heading.js';
import { MfaScreen } from '../parts/mfa-screen.js';
import { OtpInput } from '../parts/otp-input.js';
import { useWidget } from '../widget-context.js';

export function TOTPEntry() {
  const format = useMessages();
  const { state, actions } = useWidget();
  const { mfa, form } = state;
  const errorId = useId();
  return (
    <MfaScreen>
      <Heading>{format('totpEntry.heading')}</Heading>
      <p className="gh-text">{format('totpEntry.body')}</p>
      <OtpInput onComplete={actions.authenticateTotp} errorId={form.error ? errorId : undefined} />
      <FormError id={errorId} message={form.error} />
      {mfa.isEnrolling ? (
        <p className="gh-helper">{format('totpEntry.enrollingHint')}</p>
      ) : (
        <Button variant="text" onClick={() => actions.showMfaScreen('RecoveryCodeEntry')}>
          {format('totpEntry.backupCode')}
        </Button>
      )}
      {canSwitchTo(mfa, 'sms_otp') && (
        <Button variant="secondary" onClick={() => actions.showMfaScreen('SMSOTPEntry')}>
          {format('totpEntry.smsInstead')}
        </Button>
      )}
    </MfaScreen>
  );
}
