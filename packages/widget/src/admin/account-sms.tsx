/** The account section's phone for text codes: add one (number, then the code texted to it) or remove it. */
import { useId, useState, type FormEvent } from 'react';
import { Button } from '../parts/button.js';
import { focusOnMount } from '../parts/focus-on-mount.js';
import { FormError } from '../parts/form-error.js';
import { allowsMfa, type AccountPanelProps } from './account-panel.js';
import { useAdmin } from './admin-context.js';
import { ConfirmBox } from './confirm-box.js';
import { useAction } from './use-action.js';

export function SmsPanel({ member, organization, onMember, notice }: AccountPanelProps) {
  const { admin, client, format } = useAdmin();
  const id = useId();
  const [phone, setPhone] = useState('');
  const [sentTo, setSentTo] = useState<string | null>(null);
  const [code, setCode] = useState('');
  const [confirming, setConfirming] = useState(false);
  const ids = { organization_id: member.organization_id, member_id: member.member_id };
  const verified = member.mfa_phone_number_verified && member.mfa_phone_number !== '';

  const send = useAction(format, async (number: string) => {
    await client.otps.sms.send({ ...ids, mfa_phone_number: number });
    setSentTo(number);
    notice.show(format('account.codeSent', { phone: number }));
  });
  const verify = useAction(format, async () => {
    await client.otps.sms.authenticate({ ...ids, code: code.trim() });
    const fresh = (await admin.self.get()).member;
    onMember(fresh);
    setSentTo(null);
    setCode('');
    setPhone('');
    notice.show(format('account.smsEnrolled', { phone: fresh.mfa_phone_number }));
  });
  const remove = useAction(format, async () => {
    onMember((await admin.self.deleteMfaPhoneNumber()).member);
    setConfirming(false);
    notice.show(format('account.smsRemoved'));
  });
  const error = send.error ?? verify.error ?? remove.error;

  const submitPhone = (event: FormEvent) => {
    event.preventDefault();
    void send.run(phone.trim());
  };
  const submitCode = (event: FormEvent) => {
    event.preventDefault();
    void verify.run();
  };
  const allowed = allowsMfa(organization, 'sms_otp');

  return (
    <div className="gh-admin-card" role="group" aria-labelledby={`${id}-heading`}>
      <h3 id={`${id}-heading`} className="gh-admin-subheading">
        {format('account.sms')}
      </h3>
      <p className="gh-text-secondary">
        {verified
          ? format('account.smsOn', { phone: member.mfa_phone_number })
          : format('account.smsOff')}
      </p>
      {!verified && !allowed && <p className="gh-text-secondary">{format('account.notAllowed')}</p>}
      {!verified && allowed && !sentTo && (
        <form className="gh-admin-form" onSubmit={submitPhone} aria-describedby={`${id}-error`}>
          <div className="gh-admin-field">
            <label htmlFor={`${id}-phone`}>{format('account.phone')}</label>
            <input
              id={`${id}-phone`}
              className="gh-input"
              type="tel"
              autoComplete="tel"
              required
              value={phone}
              aria-describedby={`${id}-phone-hint`}
              onChange={(e) => setPhone(e.target.value)}
            />
            <p id={`${id}-phone-hint`} className="gh-text-secondary gh-admin-hint">
              {format('account.phoneHint')}
            </p>
          </div>
          <Button type="submit" loading={send.busy}>
            {format('account.sendCode')}
          </Button>
        </form>
      )}
      {!verified && sentTo && (
        <form className="gh-admin-form" onSubmit={submitCode} aria-describedby={`${id}-error`}>
          <div className="gh-admin-field">
            <label htmlFor={`${id}-code`}>{format('account.code')}</label>
            <input
              id={`${id}-code`}
              className="gh-input"
              inputMode="numeric"
              autoComplete="one-time-code"
              required
              ref={focusOnMount}
              value={code}
              onChange={(e) => setCode(e.target.value)}
            />
          </div>
          <div className="gh-admin-actions">
            <Button type="submit" loading={verify.busy}>
              {format('account.verify')}
            </Button>
            <Button variant="secondary" loading={send.busy} onClick={() => void send.run(sentTo)}>
              {format('account.sendCode')}
            </Button>
            <Button variant="secondary" onClick={() => setSentTo(null)}>
              {format('common.cancel')}
            </Button>
          </div>
        </form>
      )}
      {verified && !confirming && (
        <div className="gh-admin-actions">
          <Button variant="secondary" onClick={() => setConfirming(true)}>
            {format('account.smsRemove')}
          </Button>
        </div>
      )}
      {confirming && (
        <ConfirmBox
          text={format('account.smsConfirmRemove', { phone: member.mfa_phone_number })}
          busy={remove.busy}
          onConfirm={() => void remove.run()}
          onCancel={() => setConfirming(false)}
        />
      )}
      <FormError id={`${id}-error`} message={error} />
    </div>
  );
}
