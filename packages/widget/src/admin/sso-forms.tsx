/**
 * Creating SSO connections: SAML from IdP metadata (pasted, uploaded or by URL) or its fields, OIDC
 * from the issuer and client.
 */
import { useId, useState, type FormEvent } from 'react';
import { Button } from '../parts/button.js';
import { FormError } from '../parts/form-error.js';
import { useAdmin } from './admin-context.js';
import { EMPTY_METADATA, MetadataFields, saveIdpSide, type MetadataDraft } from './sso-metadata.js';
import { useAction } from './use-action.js';

export function SamlForm({ onCreated }: { onCreated: (name: string) => void }) {
  const { admin, format } = useAdmin();
  const id = useId();
  const [name, setName] = useState('');
  const [metadata, setMetadata] = useState<MetadataDraft>(EMPTY_METADATA);
  const create = useAction(format, async () => {
    // Off until an admin turns it on, after testing it.
    const { connection } = await admin.sso.saml.createConnection({
      display_name: name.trim(),
      sign_in_enabled: false,
    });
    setName('');
    // The connection exists (pending) even if its IdP side is refused: the error says why.
    await saveIdpSide(admin, connection.connection_id, metadata);
    setMetadata(EMPTY_METADATA);
    onCreated(connection.display_name);
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    void create.run();
  };
  return (
    <form className="gh-admin-form gh-admin-card" onSubmit={submit}>
      <h3 className="gh-admin-subheading">{format('sso.newSaml')}</h3>
      <div className="gh-admin-field">
        <label htmlFor={`${id}-name`}>{format('sso.displayName')}</label>
        <input
          id={`${id}-name`}
          className="gh-input"
          required
          value={name}
          onChange={(e) => setName(e.target.value)}
        />
      </div>
      <MetadataFields draft={metadata} onChange={setMetadata} />
      <FormError id={`${id}-error`} message={create.error} />
      <Button type="submit" loading={create.busy}>
        {format('sso.createSaml')}
      </Button>
    </form>
  );
}

export function OidcForm({ onCreated }: { onCreated: (name: string) => void }) {
  const { admin, format } = useAdmin();
  const id = useId();
  const [fields, setFields] = useState({ name: '', issuer: '', clientId: '', secret: '' });
  const create = useAction(format, async () => {
    const { connection } = await admin.sso.oidc.createConnection({
      display_name: fields.name.trim(),
      issuer: fields.issuer.trim(),
      client_id: fields.clientId.trim(),
      client_secret: fields.secret,
      sign_in_enabled: false,
    });
    setFields({ name: '', issuer: '', clientId: '', secret: '' });
    onCreated(connection.display_name);
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    void create.run();
  };
  const field = (key: keyof typeof fields, label: string, type = 'text') => (
    <div className="gh-admin-field">
      <label htmlFor={`${id}-${key}`}>{label}</label>
      <input
        id={`${id}-${key}`}
        className="gh-input"
        type={type}
        required
        autoComplete="off"
        value={fields[key]}
        onChange={(e) => setFields({ ...fields, [key]: e.target.value })}
      />
    </div>
  );
  return (
    <form className="gh-admin-form gh-admin-card" onSubmit={submit}>
      <h3 className="gh-admin-subheading">{format('sso.newOidc')}</h3>
      {field('name', format('sso.displayName'))}
      {field('issuer', format('sso.issuer'), 'url')}
      {field('clientId', format('sso.clientId'))}
      {field('secret', format('sso.clientSecret'), 'password')}
      <FormError id={`${id}-error`} message={create.error} />
      <Button type="submit" loading={create.busy}>
        {format('sso.createOidc')}
      </Button>
    </form>
  );
}
