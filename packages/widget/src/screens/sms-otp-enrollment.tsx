/** SMSOTPEnrollment: the country and national number the code is texted to. */
import { DEFAULT_PHONE_REGION } from '@gatehouse/protocol';
import { useId, useState, type FormEvent } from 'react';
import { useMessages } from '../messages/use-messages.js';
import { Button } from '../parts/button.js';
import { FormError } from '../parts/form-error.js';
import { Heading } from '../parts/heading.js';
import { MfaScreen } from '../parts/mfa-screen.js';
import { isCountryCode, parsePhone, type CountryCode } from '../parts/phone.js';
import { PhoneInput } from '../parts/phone-input.js';
import { useWidget } from '../widget-context.js';

const DEFAULT_COUNTRY: CountryCode = isCountryCode(DEFAULT_PHONE_REGION)
  ? DEFAULT_PHONE_REGION
  : 'US';

export function SMSOTPEnrollment() {
  const format = useMessages();
  const { state, actions } = useWidget();
  const { isSending, sendError } = state.mfa.smsOtp;
  const [country, setCountry] = useState<CountryCode>(DEFAULT_COUNTRY);
  const [national, setNational] = useState('');
  const [invalid, setInvalid] = useState(false);
  const errorId = useId();
  const error = invalid ? format('phone.invalid') : sendError;

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const phone = parsePhone(country, national);
    setInvalid(!phone);
    if (phone) actions.sendSmsCode(phone);
  }

  function changeCountry(next: CountryCode) {
    setCountry(next);
    setNational('');
  }

  return (
    <MfaScreen>
      <Heading>{format('smsEnrollment.heading')}</Heading>
      <form className="gh-form" noValidate onSubmit={submit}>
        <PhoneInput
          country={country}
          onCountryChange={changeCountry}
          national={national}
          onNationalChange={setNational}
          errorId={error ? errorId : undefined}
        />
        <FormError id={errorId} message={error} />
        <Button type="submit" loading={isSending}>
          {format('common.continue')}
        </Button>
      </form>
    </MfaScreen>
  );
}
