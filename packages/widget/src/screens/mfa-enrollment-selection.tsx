/** MFAEnrollmentSelection: the methods the member may set up, in the configured order. */
import type { MfaMethod } from '@gatehouse/protocol';
import { useMessages } from '../messages/use-messages.js';
import { enrollmentOptions } from '../machine/mfa-selectors.js';
import { Button } from '../parts/button.js';
import { Heading } from '../parts/heading.js';
import { MfaScreen } from '../parts/mfa-screen.js';
import { useWidget } from '../widget-context.js';

const LABEL: Record<MfaMethod, 'mfa.totpOption' | 'mfa.smsOption'> = {
  totp: 'mfa.totpOption',
  sms_otp: 'mfa.smsOption',
};

export function MFAEnrollmentSelection() {
  const format = useMessages();
  const { state, config, actions } = useWidget();
  const primary = state.mfa.primaryInfo;
  const options = primary ? enrollmentOptions(primary, config) : [];
  return (
    <MfaScreen>
      <Heading>{format('mfaEnrollment.heading')}</Heading>
      <p className="gh-text">{format('mfaEnrollment.body')}</p>
      <div className="gh-button-list">
        {options.map((method) => (
          <Button key={method} variant="secondary" onClick={() => actions.chooseMfaMethod(method)}>
            {format(LABEL[method])}
          </Button>
        ))}
      </div>
    </MfaScreen>
  );
}
