/** The account section's authenticator app: set it up (QR code or key, then a code), remove it, new backup codes. */
import { useId, useState, type FormEvent } from 'react';
import type { TotpCreateResult } from '@gatehouse/client';
import { Button } from '../parts/button.js';
import { FormError } from '../parts/form-error.js';
import { allowsMfa, type AccountPanelProps } from './account-panel.js';
import { useAdmin } from './admin-context.js';
import { BackupCodes } from './backup-codes.js';
import { ConfirmBox } from './confirm-box.js';
import { CopyField } from './copy-field.js';
import { useAction } from './use-action.js';

type Mode = 'view' | 'confirmRemove' | 'confirmCodes';

export function TotpPanel({ member, organization, onMember, notice }: AccountPanelProps) {
  const { admin, client, format } = useAdmin();
  const id = useId();
  const [mode, setMode] = useState<Mode>('view');
  const [pending, setPending] = useState<TotpCreateResult | null>(null);
  const [code, setCode] = useState('');
  const [codes, setCodes] = useState<string[] | null>(null);
  const ids = { organization_id: member.organization_id, member_id: member.member_id };
  const enrolled = member.totp_registration_id !== '';

  const start = useAction(format, async () => {
    setCodes(null);
    setPending(await client.totp.create(ids));
  });
  const verify = useAction(format, async (registration: TotpCreateResult) => {
    await client.totp.authenticate({ ...ids, code: code.trim() });
    onMember((await admin.self.get()).member);
    setPending(null);
    setCode('');
    // The codes made with the registration: shown now, and never again.
    setCodes(registration.recovery_codes);
    notice.show(format('account.totpEnrolled'));
  });
  const remove = useAction(format, async () => {
    onMember((await admin.self.deleteTotp()).member);
    setMode('view');
    setCodes(null);
    notice.show(format('account.totpRemoved'));
  });
  const rotate = useAction(format, async () => {
    setCodes((await client.recoveryCodes.rotate()).recovery_codes);
    setMode('view');
  });
  const error = start.error ?? verify.error ?? remove.error ?? rotate.error;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (pending) void verify.run(pending);
  };

  return (
    <div className="gh-admin-card" role="group" aria-labelledby={`${id}-heading`}>
      <h3 id={`${id}-heading`} className="gh-admin-subheading">
        {format('account.totp')}
      </h3>
      <p className="gh-text-secondary">{format(enrolled ? 'account.totpOn' : 'account.totpOff')}</p>
      {!enrolled && !pending && !allowsMfa(organization, 'totp') && (
        <p className="gh-text-secondary">{format('account.notAllowed')}</p>
      )}
      {!enrolled && !pending && allowsMfa(organization, 'totp') && (
        <Button loading={start.busy} onClick={() => void start.run()}>
          {format('account.totpSetup')}
        </Button>
      )}
      {pending && (
        <form className="gh-admin-form" onSubmit={submit} aria-describedby={`${id}-error`}>
          <p className="gh-text">{format('account.totpScan')}</p>
          <img className="gh-admin-qr" src={pending.qr_code} alt={format('account.totpQr')} />
          <CopyField label={format('account.totpSecret')} value={pending.secret} />
          <div className="gh-admin-field">
            <label htmlFor={`${id}-code`}>{format('account.code')}</label>
            <input
              id={`${id}-code`}
              className="gh-input"
              inputMode="numeric"
              autoComplete="one-time-code"
              pattern="[0-9 ]{6,7}"
              required
              value={code}
              onChange={(e) => setCode(e.target.value)}
            />
          </div>
          <div className="gh-admin-actions">
            <Button type="submit" loading={verify.busy}>
              {format('account.verify')}
            </Button>
            <Button variant="secondary" onClick={() => setPending(null)}>
              {format('common.cancel')}
            </Button>
          </div>
        </form>
      )}
      {enrolled && mode === 'view' && (
        <div className="gh-admin-actions">
          <Button variant="secondary" onClick={() => setMode('confirmCodes')}>
            {format('account.codesNew')}
          </Button>
          <Button variant="secondary" onClick={() => setMode('confirmRemove')}>
            {format('account.totpRemove')}
          </Button>
        </div>
      )}
      {mode === 'confirmRemove' && (
        <ConfirmBox
          text={format('account.totpConfirmRemove')}
          busy={remove.busy}
          onConfirm={() => void remove.run()}
          onCancel={() => setMode('view')}
        />
      )}
      {mode === 'confirmCodes' && (
        <ConfirmBox
          text={format('account.codesConfirm')}
          busy={rotate.busy}
          onConfirm={() => void rotate.run()}
          onCancel={() => setMode('view')}
        />
      )}
      {enrolled && <p className="gh-text-secondary">{format('account.codesIntro')}</p>}
      {codes && <BackupCodes codes={codes} onDone={() => setCodes(null)} />}
      <FormError id={`${id}-error`} message={error} />
    </div>
  );
}
