/** SMSOTPEntry: the texted passcode, its countdown, 'Resend code' and the authenticator switch. */
import { useEffect, useId } from 'react';
import { useMessages } from '../messages/use-messages.js';
import { canSwitchTo, formatCountdown } from '../machine/mfa-selectors.js';
import { Button } from '../parts/button.js';
import { FormError } from '../parts/form-error.js';
import { Heading } from '../parts/heading.js';
import { MfaScreen } from '../parts/mfa-screen.js';
import { OtpInput } from '../parts/otp-input.js';
import { displayPhone } from '../parts/phone.js';
import { useCountdown } from '../parts/use-countdown.js';
import { useWidget } from '../widget-context.js';

function Countdown({ remaining }: { remaining: number | null }) {
  const format = useMessages();
  if (remaining === null) return null;
  return (
    // Announced when it expires, not every second.
    <p className="gh-helper" aria-live={remaining > 0 ? 'off' : 'polite'}>
      {remaining > 0
        ? format('smsEntry.expiresIn', { time: formatCountdown(remaining) })
        : format('smsEntry.expired')}
    </p>
  );
}

export function SMSOTPEntry() {
  const format = useMessages();
  const { state, actions, now } = useWidget();
  const { mfa, form } = state;
  const remaining = useCountdown(mfa.smsOtp.codeExpiration, now);
  const errorId = useId();
  const destination = mfa.smsOtp.formattedDestination ?? mfa.primaryInfo?.memberPhoneNumber ?? '';

  useEffect(() => {
    actions.sendSmsCodeIfNonePending();
  }, [actions]);

  return (
    <MfaScreen>
      <Heading>{format('smsEntry.heading')}</Heading>
      <p className="gh-text">
        {format('smsEntry.sentTo', { destination: displayPhone(destination) })}
      </p>
      <OtpInput onComplete={actions.authenticateSms} errorId={form.error ? errorId : undefined} />
      <FormError id={errorId} message={form.error} />
      <Countdown remaining={remaining} />
      <Button variant="text" loading={mfa.smsOtp.isSending} onClick={() => actions.sendSmsCode()}>
        {format('smsEntry.resend')}
      </Button>
      {canSwitchTo(mfa, 'totp') && (
        <Button variant="secondary" onClick={() => actions.showMfaScreen('TOTPEntry')}>
          {format('mfa.totpOption')}
        </Button>
      )}
    </MfaScreen>
  );
}
