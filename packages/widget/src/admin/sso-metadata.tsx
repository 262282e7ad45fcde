/** IdP metadata for a SAML connection: pasted XML, or a URL the server fetches (docs/widget.md §15). */
import { useId, useState, type FormEvent } from 'react';
import { Button } from '../parts/button.js';
import { FormError } from '../parts/form-error.js';
import { useAdmin } from './admin-context.js';
import { useAction } from './use-action.js';

/** Where the metadata comes from, as the admin chose it. */
export interface MetadataDraft {
  source: 'xml' | 'url';
  xml: string;
  url: string;
}

export const EMPTY_METADATA: MetadataDraft = { source: 'xml', xml: '', url: '' };

/** The body `updateConnectionByMetadata` takes, or null when nothing was given. */
export function metadataBody(
  draft: MetadataDraft,
): { metadata_xml: string } | { metadata_url: string } | null {
  if (draft.source === 'url') {
    return draft.url.trim() === '' ? null : { metadata_url: draft.url.trim() };
  }
  return draft.xml.trim() === '' ? null : { metadata_xml: draft.xml.trim() };
}

/** The choice between XML and URL, and the one field it shows. */
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
  return (
    <fieldset className="gh-admin-fieldset">
      <legend>{format('sso.metadataSource')}</legend>
      {(['xml', 'url'] as const).map((source) => (
        <label key={source} className="gh-admin-check">
          <input
            type="radio"
            name={`${id}-source`}
            checked={draft.source === source}
            onChange={() => onChange({ ...draft, source })}
          />
          {format(source === 'xml' ? 'sso.metadataPaste' : 'sso.metadataByUrl')}
        </label>
      ))}
      {draft.source === 'xml' ? (
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
      ) : (
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
    const body = metadataBody(draft);
    if (!body) return;
    await admin.sso.saml.updateConnectionByMetadata({ connection_id: connectionId, ...body });
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
