/** The SSO section: the organization's connections, our side's values to copy, and new connections. */
import { useEffect, useId, useState } from 'react';
import type { OidcConnection, SamlConnection } from '@gatehouse/protocol';
import { FormError } from '../parts/form-error.js';
import { Spinner } from '../parts/spinner.js';
import { useAdmin } from './admin-context.js';
import { CopyField } from './copy-field.js';
import { Notice, useNotice } from './notice.js';
import { OidcForm, SamlForm } from './sso-forms.js';
import { useAction } from './use-action.js';

interface Connections {
  saml: SamlConnection[];
  oidc: OidcConnection[];
}

export function SsoSection() {
  const { admin, format, rights } = useAdmin();
  const id = useId();
  const [connections, setConnections] = useState<Connections | null>(null);
  const notice = useNotice();
  const load = useAction(format, async () => {
    const answer = await admin.sso.getConnections();
    setConnections({ saml: answer.saml_connections, oidc: answer.oidc_connections });
  });
  const { run } = load;
  useEffect(() => {
    void run();
  }, [run]);
  const created = (name: string) => {
    notice.show(format('sso.created', { name }));
    void run();
  };

  return (
    <section className="gh-admin-section" aria-labelledby={`${id}-heading`}>
      <h2 id={`${id}-heading`} className="gh-admin-heading">
        {format('sso.heading')}
      </h2>
      <Notice notice={notice} />
      <FormError id={`${id}-error`} message={load.error} />
      {!connections ? (
        !load.error && <Spinner />
      ) : connections.saml.length + connections.oidc.length === 0 ? (
        <p className="gh-text-secondary">{format('sso.empty')}</p>
      ) : (
        <ul className="gh-admin-list">
          {connections.saml.map((c) => (
            <li key={c.connection_id} className="gh-admin-row gh-admin-row-main">
              <ConnectionTitle kind="saml" name={c.display_name} status={c.status} />
              <CopyField label={format('sso.entityId')} value={c.audience_uri} />
              <CopyField label={format('sso.acsUrl')} value={c.acs_url} />
              <CopyField label={format('sso.metadataUrl')} value={c.sp_metadata_url} />
            </li>
          ))}
          {connections.oidc.map((c) => (
            <li key={c.connection_id} className="gh-admin-row gh-admin-row-main">
              <ConnectionTitle kind="oidc" name={c.display_name} status={c.status} />
              <CopyField label={format('sso.redirectUrl')} value={c.redirect_url} />
            </li>
          ))}
        </ul>
      )}
      {rights.createSso && (
        <>
          <SamlForm onCreated={created} />
          <OidcForm onCreated={created} />
        </>
      )}
    </section>
  );
}

function ConnectionTitle({
  kind,
  name,
  status,
}: {
  kind: 'saml' | 'oidc';
  name: string;
  status: string;
}) {
  const { format } = useAdmin();
  return (
    <h3 className="gh-admin-subheading">
      {name} <span className="gh-admin-badge">{format(`sso.kind.${kind}`)}</span>{' '}
      <span className="gh-admin-badge">
        {format(status === 'active' ? 'sso.status.active' : 'sso.status.pending')}
      </span>
    </h3>
  );
}
