/**
 * A SAML connection's IdP signing certificates (docs/widget.md §15): each with its expiry, a
 * second one added before the IdP switches keys and the old one removed after, so that sign-ins
 * never stop during a rotation.
 */
import { useId, useState, type FormEvent } from 'react';
import type { SamlConnection, SamlVerificationCertificate } from '@gatehouse/protocol';
import { Button } from '../parts/button.js';
import { FormError } from '../parts/form-error.js';
import { useAdmin } from './admin-context.js';
import type { AdminFormat } from './admin-messages.js';
import { useAction } from './use-action.js';

const DAY_MS = 86_400_000;

/** Days until a certificate expires: negative once it has. */
export function daysLeft(expiresAt: string, now: number): number {
  return Math.floor((Date.parse(expiresAt) - now) / DAY_MS);
}

function expiry(format: AdminFormat, cert: SamlVerificationCertificate, now: number): string {
  const date = new Date(cert.expires_at).toISOString().slice(0, 10);
  const days = daysLeft(cert.expires_at, now);
  if (days < 0) return format('sso.cert.expired', { date });
  if (days <= 30) return format('sso.cert.expiresSoon', { date, days: String(days) });
  return format('sso.cert.expires', { date });
}

export function SsoCertificates({
  connection,
  onSaved,
}: {
  connection: SamlConnection;
  onSaved: (message: string) => void;
}) {
  const { admin, format } = useAdmin();
  const id = useId();
  const [pem, setPem] = useState('');
  const certs = connection.verification_certificates;
  const add = useAction(format, async () => {
    await admin.sso.saml.updateConnection({
      connection_id: connection.connection_id,
      x509_certificate: pem.trim(),
    });
    setPem('');
    onSaved(format('sso.cert.added'));
  });
  const remove = useAction(format, async (certificateId: string) => {
    await admin.sso.saml.deleteVerificationCertificate({
      connection_id: connection.connection_id,
      certificate_id: certificateId,
    });
    onSaved(format('sso.cert.removed'));
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (pem.trim() !== '') void add.run();
  };
  // Read once per mount (render must stay pure); expiry is shown in whole days.
  const [now] = useState(() => Date.now());
  return (
    <div className="gh-admin-form" role="group" aria-labelledby={`${id}-heading`}>
      <h4 id={`${id}-heading`} className="gh-admin-subheading">
        {format('sso.cert.heading')}
      </h4>
      {certs.length === 0 ? (
        <p className="gh-text-secondary">{format('sso.cert.none')}</p>
      ) : (
        <ul className="gh-admin-list">
          {certs.map((cert, index) => (
            <li key={cert.certificate_id} className="gh-admin-row">
              <div className="gh-admin-grow">
                <span>
                  {format('sso.cert.name', { n: String(index + 1), issuer: cert.issuer })}
                </span>
                <br />
                <span
                  className={
                    daysLeft(cert.expires_at, now) <= 30 ? 'gh-error-text' : 'gh-text-secondary'
                  }
                >
                  {expiry(format, cert, now)}
                </span>
              </div>
              {/* The last certificate stays: without one, nobody could sign in. */}
              {certs.length > 1 && (
                <Button
                  variant="secondary"
                  loading={remove.busy}
                  onClick={() => void remove.run(cert.certificate_id)}
                  aria-label={format('sso.cert.remove', { n: String(index + 1) })}
                >
                  {format('sso.cert.retire')}
                </Button>
              )}
            </li>
          ))}
        </ul>
      )}
      <FormError id={`${id}-remove-error`} message={remove.error} />
      <form className="gh-admin-form" onSubmit={submit}>
        <div className="gh-admin-field">
          <label htmlFor={`${id}-pem`}>{format('sso.cert.add')}</label>
          <textarea
            id={`${id}-pem`}
            className="gh-input gh-admin-textarea"
            rows={4}
            required
            value={pem}
            aria-describedby={`${id}-hint`}
            onChange={(e) => setPem(e.target.value)}
          />
          <p id={`${id}-hint`} className="gh-text-secondary gh-admin-hint">
            {format('sso.cert.hint')}
          </p>
        </div>
        <FormError id={`${id}-error`} message={add.error} />
        <Button type="submit" variant="secondary" loading={add.busy}>
          {format('sso.cert.addButton')}
        </Button>
      </form>
    </div>
  );
}
