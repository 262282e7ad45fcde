/**
 * The SSO section: the organization's connections with our side's values to copy and each one's
 * management panel, the organization's SSO rules, and new connections.
 */
import { useEffect, useId, useState } from 'react';
import type { OidcConnection, SamlConnection } from '@gatehouse/protocol';
import { FormError } from '../parts/form-error.js';
import { Spinner } from '../parts/spinner.js';
import { useAdmin } from './admin-context.js';
import { Notice, useNotice } from './notice.js';
import { OidcConnectionItem, SamlConnectionItem } from './sso-connection.js';
import { OidcForm, SamlForm } from './sso-forms.js';
import { SsoSettings } from './sso-settings.js';
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
  const changed = (message: string) => {
    notice.show(message);
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
            <SamlConnectionItem key={c.connection_id} connection={c} onChanged={changed} />
          ))}
          {connections.oidc.map((c) => (
            <OidcConnectionItem key={c.connection_id} connection={c} onChanged={changed} />
          ))}
        </ul>
      )}
      {connections && rights.updateSsoSettings && (
        <SsoSettings
          // A connection added or changed moves the organization's updated_at: load it again.
          key={[...connections.saml, ...connections.oidc].map((c) => c.updated_at).join()}
          connections={[...connections.saml, ...connections.oidc]}
          onSaved={notice.show}
        />
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
