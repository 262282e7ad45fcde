/**
 * The IdP side of a SAML connection: its metadata pasted or uploaded as XML, a URL the server
 * fetches, or its fields typed in (docs/widget.md §15).
 */
import { useId, useState, type ChangeEvent, type FormEvent } from 'react';
import type { AdminClient } from '@gatehouse/client';
import { Button } from '../parts/button.js';
import { FormError } from '../parts/form-error.js';
import { useAdmin } from './admin-context.js';
import type { AdminMessageKey } from './admin-messages.js';
import { useAction } from './use-action.js';

/** Where the IdP side comes from, as the admin chose it. */
export interface MetadataDraft {
  source: 'xml' | 'url' | 'fields';
  xml: string;
  url: string;
  entityId: string;
  ssoUrl: string;
  certificate: string;
}

export const EMPTY_METADATA: MetadataDraft = {
  source: 'xml',
  xml: '',
  url: '',
  entityId: '',
  ssoUrl: '',
  certificate: '',
};

const SOURCES: Record<MetadataDraft['source'], AdminMessageKey> = {
  xml: 'sso.metadataPaste',
  url: 'sso.metadataByUrl',
  fields: 'sso.metadataByFields',
};

/**
 * Sends what the admin gave for the connection's IdP side: metadata (`updateConnectionByMetadata`)
 * or the fields filled in (`updateConnection`). False when nothing was given.
 */
export async function saveIdpSide(
  admin: AdminClient,
  connectionId: string,
  draft: MetadataDraft,
): Promise<boolean> {
  if (draft.source === 'fields') {
    const fields = {
      idp_entity_id: draft.entityId.trim(),
      idp_sso_url: draft.ssoUrl.trim(),
      x509_certificate: draft.certificate.trim(),
    };
    const given = Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== ''));
    if (Object.keys(given).length === 0) return false;
    await admin.sso.saml.updateConnection({ connection_id: connectionId, ...given });
    return true;
  }
  const value = (draft.source === 'url' ? draft.url : draft.xml).trim();
  if (value === '') return false;
  const body = draft.source === 'url' ? { metadata_url: value } : { metadata_xml: value };
  await admin.sso.saml.updateConnectionByMetadata({ connection_id: connectionId, ...body });
  return true;
}

/** The choice between XML, URL and fields, and the fields it shows. */
export function MetadataFields({
  draft,
  onChange,
  required = false,
}: {
  draft: MetadataDraft;
  onChange: (draft: MetadataDraft) => void;
  required?: boolean;
}) {
  const { format } = useAdmin();
  const id = useId();
  const upload = (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    // The file's text goes into the field, where the admin sees what will be sent.
    if (file) void file.text().then((xml) => onChange({ ...draft, source: 'xml', xml }));
  };
  const field = (key: 'entityId' | 'ssoUrl', label: AdminMessageKey) => (
    <div className="gh-admin-field">
      <label htmlFor={`${id}-${key}`}>{format(label)}</label>
      <input
        id={`${id}-${key}`}
        className="gh-input"
        type="url"
        required={required}
        value={draft[key]}
        onChange={(e) => onChange({ ...draft, [key]: e.target.value })}
      />
    </div>
  );
  return (
    <fieldset className="gh-admin-fieldset">
      <legend>{format('sso.metadataSource')}</legend>
      {(['xml', 'url', 'fields'] as const).map((source) => (
        <label key={source} className="gh-admin-check">
          <input
            type="radio"
            name={`${id}-source`}
            checked={draft.source === source}
            onChange={() => onChange({ ...draft, source })}
          />
          {format(SOURCES[source])}
        </label>
      ))}
      {draft.source === 'xml' && (
        <>
          <div className="gh-admin-field">
            <label htmlFor={`${id}-xml`}>{format('sso.metadata')}</label>
            <textarea
              id={`${id}-xml`}
              className="gh-input gh-admin-textarea"
              rows={4}
              required={required}
              value={draft.xml}
              aria-describedby={`${id}-hint`}
              onChange={(e) => onChange({ ...draft, xml: e.target.value })}
            />
            <p id={`${id}-hint`} className="gh-text-secondary gh-admin-hint">
              {format('sso.metadataHint')}
            </p>
          </div>
          <div className="gh-admin-field">
            <label htmlFor={`${id}-file`}>{format('sso.metadataFile')}</label>
            <input
              id={`${id}-file`}
              className="gh-input"
              type="file"
              accept=".xml,application/xml,text/xml,application/samlmetadata+xml"
              onChange={upload}
            />
          </div>
        </>
      )}
      {draft.source === 'url' && (
        <div className="gh-admin-field">
          <label htmlFor={`${id}-url`}>{format('sso.metadataUrlIdp')}</label>
          <input
            id={`${id}-url`}
            className="gh-input"
            type="url"
            required={required}
            value={draft.url}
            aria-describedby={`${id}-url-hint`}
            onChange={(e) => onChange({ ...draft, url: e.target.value })}
          />
          <p id={`${id}-url-hint`} className="gh-text-secondary gh-admin-hint">
            {format('sso.metadataUrlHint')}
          </p>
        </div>
      )}
      {draft.source === 'fields' && (
        <>
          {field('entityId', 'sso.fieldEntityId')}
          {field('ssoUrl', 'sso.fieldSsoUrl')}
          <div className="gh-admin-field">
            <label htmlFor={`${id}-cert`}>{format('sso.fieldCertificate')}</label>
            <textarea
              id={`${id}-cert`}
              className="gh-input gh-admin-textarea"
              rows={4}
              required={required}
              value={draft.certificate}
              aria-describedby={`${id}-cert-hint`}
              onChange={(e) => onChange({ ...draft, certificate: e.target.value })}
            />
            <p id={`${id}-cert-hint`} className="gh-text-secondary gh-admin-hint">
              {format('sso.fieldsHint')}
            </p>
          </div>
        </>
      )}
    </fieldset>
  );
}

/** Replaces an existing connection's IdP side from new metadata. */
export function MetadataForm({
  connectionId,
  onSaved,
}: {
  connectionId: string;
  onSaved: (message: string) => void;
}) {
  const { admin, format } = useAdmin();
  const id = useId();
  const [draft, setDraft] = useState(EMPTY_METADATA);
  const save = useAction(format, async () => {
    if (!(await saveIdpSide(admin, connectionId, draft))) return;
    setDraft(EMPTY_METADATA);
    onSaved(format('sso.metadataSaved'));
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    void save.run();
  };
  return (
    <form className="gh-admin-form" onSubmit={submit} aria-labelledby={`${id}-heading`}>
      <h4 id={`${id}-heading`} className="gh-admin-subheading">
        {format('sso.idpSide')}
      </h4>
      <MetadataFields draft={draft} onChange={setDraft} required />
      <FormError id={`${id}-error`} message={save.error} />
      <Button type="submit" variant="secondary" loading={save.busy}>
        {format('sso.saveMetadata')}
      </Button>
    </form>
  );
}
