/**
 * One connection in the SSO section: our side's values to copy, and for admins who may change
 * it, a panel with the test sign-in and the attribute and group mapping; a SAML connection's also
 * has its IdP metadata and certificates (docs/widget.md §15).
 */
import { useCallback, useId, useState, type ReactNode } from 'react';
import type { OidcConnection, SamlConnection } from '@gatehouse/protocol';
import { Button } from '../parts/button.js';
import { useAdmin } from './admin-context.js';
import { CopyField } from './copy-field.js';
import { SsoCertificates } from './sso-certificates.js';
import { SsoMapping } from './sso-mapping.js';
import { MetadataForm } from './sso-metadata.js';
import { SsoSwitch } from './sso-switch.js';
import { SsoTest } from './sso-test.js';

/** Whether a test of the connection passed since the page was opened, and the call that says so. */
function usePassed(): [boolean, () => void] {
  const [passed, setPassed] = useState(false);
  return [passed, useCallback(() => setPassed(true), [])];
}

function ConnectionTitle({
  kind,
  name,
  status,
  on,
}: {
  kind: 'saml' | 'oidc';
  name: string;
  status: string;
  on: boolean;
}) {
  const { format } = useAdmin();
  return (
    <h3 className="gh-admin-subheading">
      {name} <span className="gh-admin-badge">{format(`sso.kind.${kind}`)}</span>{' '}
      <span className="gh-admin-badge">
        {format(status === 'active' ? 'sso.status.active' : 'sso.status.pending')}
      </span>{' '}
      <span className="gh-admin-badge">{format(on ? 'sso.switch.on' : 'sso.switch.off')}</span>
    </h3>
  );
}

/** The button that opens a connection's management panel, and the panel, for admins who may. */
function ManagePanel({ name, children }: { name: string; children: () => ReactNode }) {
  const { format, rights } = useAdmin();
  const id = useId();
  const [open, setOpen] = useState(false);
  if (!rights.updateSso) return null;
  return (
    <>
      <Button
        variant="secondary"
        aria-expanded={open}
        aria-controls={`${id}-panel`}
        onClick={() => setOpen(!open)}
      >
        {format(open ? 'sso.hide' : 'sso.manage', { name })}
      </Button>
      {open && (
        <div id={`${id}-panel`} className="gh-admin-panel">
          {children()}
        </div>
      )}
    </>
  );
}

export function SamlConnectionItem({
  connection: c,
  onChanged,
}: {
  connection: SamlConnection;
  onChanged: (message: string) => void;
}) {
  const { format } = useAdmin();
  const [testPassed, passed] = usePassed();
  return (
    <li className="gh-admin-row gh-admin-row-main">
      <ConnectionTitle kind="saml" name={c.display_name} status={c.status} on={c.sign_in_enabled} />
      <CopyField label={format('sso.entityId')} value={c.audience_uri} />
      <CopyField label={format('sso.acsUrl')} value={c.acs_url} />
      <CopyField label={format('sso.metadataUrl')} value={c.sp_metadata_url} />
      {c.idp_entity_id !== '' && (
        <p className="gh-text-secondary gh-admin-hint">
          {format('sso.idpEntityId', { value: c.idp_entity_id })}
        </p>
      )}
      <ManagePanel name={c.display_name}>
        {() => (
          <>
            {c.status === 'active' ? (
              <SsoTest
                connectionId={c.connection_id}
                connectionRoles={c.saml_connection_implicit_role_assignments.map((r) => r.role_id)}
                onPassed={passed}
              />
            ) : (
              <p className="gh-text-secondary">{format('sso.testNeedsIdp')}</p>
            )}
            <SsoSwitch
              kind="saml"
              connectionId={c.connection_id}
              name={c.display_name}
              on={c.sign_in_enabled}
              updatedAt={c.updated_at}
              testPassed={testPassed}
              onSaved={onChanged}
            />
            <MetadataForm connectionId={c.connection_id} onSaved={onChanged} />
            <SsoMapping
              key={c.updated_at}
              target={{ kind: 'saml', connection: c }}
              onSaved={onChanged}
            />
            <SsoCertificates connection={c} onSaved={onChanged} />
          </>
        )}
      </ManagePanel>
    </li>
  );
}

export function OidcConnectionItem({
  connection: c,
  onChanged,
}: {
  connection: OidcConnection;
  onChanged: (message: string) => void;
}) {
  const { format } = useAdmin();
  const [testPassed, passed] = usePassed();
  return (
    <li className="gh-admin-row gh-admin-row-main">
      <ConnectionTitle kind="oidc" name={c.display_name} status={c.status} on={c.sign_in_enabled} />
      <CopyField label={format('sso.redirectUrl')} value={c.redirect_url} />
      <ManagePanel name={c.display_name}>
        {() => (
          <>
            {c.status === 'active' && (
              <SsoTest connectionId={c.connection_id} kind="oidc" onPassed={passed} />
            )}
            <SsoSwitch
              kind="oidc"
              connectionId={c.connection_id}
              name={c.display_name}
              on={c.sign_in_enabled}
              updatedAt={c.updated_at}
              testPassed={testPassed}
              onSaved={onChanged}
            />
            <SsoMapping
              key={c.updated_at}
              target={{ kind: 'oidc', connection: c }}
              onSaved={onChanged}
            />
          </>
        )}
      </ManagePanel>
    </li>
  );
}
