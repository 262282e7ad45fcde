/**
 * One SAML connection in the SSO section: our side's values to copy, and for admins who may
 * change it, a panel with its IdP metadata, the test sign-in, the attribute and group mapping and
 * the certificates (docs/widget.md §15).
 */
import { useId, useState } from 'react';
import type { SamlConnection } from '@gatehouse/protocol';
import { Button } from '../parts/button.js';
import { useAdmin } from './admin-context.js';
import { CopyField } from './copy-field.js';
import { SsoCertificates } from './sso-certificates.js';
import { SsoMapping } from './sso-mapping.js';
import { MetadataForm } from './sso-metadata.js';
import { SsoTest } from './sso-test.js';

export function ConnectionTitle({
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

export function SamlConnectionItem({
  connection: c,
  onChanged,
}: {
  connection: SamlConnection;
  onChanged: (message: string) => void;
}) {
  const { format, rights } = useAdmin();
  const id = useId();
  const [open, setOpen] = useState(false);
  return (
    <li className="gh-admin-row gh-admin-row-main">
      <ConnectionTitle kind="saml" name={c.display_name} status={c.status} />
      <CopyField label={format('sso.entityId')} value={c.audience_uri} />
      <CopyField label={format('sso.acsUrl')} value={c.acs_url} />
      <CopyField label={format('sso.metadataUrl')} value={c.sp_metadata_url} />
      {c.idp_entity_id !== '' && (
        <p className="gh-text-secondary gh-admin-hint">
          {format('sso.idpEntityId', { value: c.idp_entity_id })}
        </p>
      )}
      {rights.updateSso && (
        <>
          <Button
            variant="secondary"
            aria-expanded={open}
            aria-controls={`${id}-panel`}
            onClick={() => setOpen(!open)}
          >
            {format(open ? 'sso.hide' : 'sso.manage', { name: c.display_name })}
          </Button>
          {open && (
            <div id={`${id}-panel`} className="gh-admin-panel">
              {c.status === 'active' ? (
                <SsoTest connectionId={c.connection_id} />
              ) : (
                <p className="gh-text-secondary">{format('sso.testNeedsIdp')}</p>
              )}
              <MetadataForm connectionId={c.connection_id} onSaved={onChanged} />
              <SsoMapping key={c.updated_at} connection={c} onSaved={onChanged} />
              <SsoCertificates connection={c} onSaved={onChanged} />
            </div>
          )}
        </>
      )}
    </li>
  );
}
