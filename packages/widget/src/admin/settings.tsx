/** The settings section: the organization's name, slug, logo, sign-in methods, MFA, joining rules and session limit. */
import { useEffect, useId, useState, type FormEvent } from 'react';
import { GatehouseAPIError } from '@gatehouse/client';
import { AUTH_METHODS, type Organization } from '@gatehouse/protocol';
import { Button } from '../parts/button.js';
import { FormError } from '../parts/form-error.js';
import { Spinner } from '../parts/spinner.js';
import { useAdmin } from './admin-context.js';
import { Notice, useNotice } from './notice.js';
import { settingsPatch, toDraft, type Draft, type Patch } from './settings-draft.js';
import { EmailRolesField, MfaMethodsField } from './settings-rules.js';
import { SessionLengthField } from './settings-session.js';
import { useAction } from './use-action.js';

export function SettingsSection() {
  const { admin, format, rights } = useAdmin();
  const id = useId();
  const [org, setOrg] = useState<Organization | null>(null);
  const [draft, setDraft] = useState<Draft | null>(null);
  const notice = useNotice();
  const load = useAction(format, async () => {
    const { organization } = await admin.organization.get();
    setOrg(organization);
    setDraft(toDraft(organization));
  });
  const save = useAction(format, async (patch: Patch) => {
    const { organization } = await admin.organization.update(patch).catch(async (e: unknown) => {
      // Someone else saved first: show what is stored now, and the server's explanation.
      if (e instanceof GatehouseAPIError && e.error_type === 'stale_update') {
        const fresh = await admin.organization.get();
        setOrg(fresh.organization);
        setDraft(toDraft(fresh.organization));
      }
      throw e;
    });
    setOrg(organization);
    setDraft(toDraft(organization));
    notice.show(format('common.saved'));
  });
  const { run: runLoad } = load;
  useEffect(() => {
    void runLoad();
  }, [runLoad]);

  const readOnly = !rights.updateOrganization;
  // Each setting is changed by its own action (the provider's): the others stay read-only.
  const allowed = rights.organizationSettings;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (org && draft) void save.run(settingsPatch(org, draft));
  };
  const set = (change: Partial<Draft>) => setDraft((d) => (d ? { ...d, ...change } : d));

  return (
    <section className="gh-admin-section" aria-labelledby={`${id}-heading`}>
      <h2 id={`${id}-heading`} className="gh-admin-heading">
        {format('settings.heading')}
      </h2>
      <Notice notice={notice} />
      <FormError id={`${id}-load-error`} message={load.error} />
      {!draft || !org ? (
        !load.error && <Spinner />
      ) : (
        <form className="gh-admin-form" onSubmit={submit} aria-describedby={`${id}-error`}>
          {readOnly && <p className="gh-text-secondary">{format('settings.readOnly')}</p>}
          <fieldset className="gh-admin-plain" disabled={readOnly}>
            <div className="gh-admin-field">
              <label htmlFor={`${id}-name`}>{format('settings.name')}</label>
              <input
                id={`${id}-name`}
                className="gh-input"
                required
                disabled={!allowed.name}
                value={draft.name}
                onChange={(e) => set({ name: e.target.value })}
              />
            </div>
            <div className="gh-admin-field">
              <label htmlFor={`${id}-slug`}>{format('settings.slug')}</label>
              <input
                id={`${id}-slug`}
                className="gh-input"
                required
                disabled={!allowed.slug}
                pattern="[a-z0-9._~\-]{2,128}"
                title={format('settings.slugInvalid')}
                value={draft.slug}
                aria-describedby={`${id}-slug-hint`}
                onChange={(e) => set({ slug: e.target.value })}
              />
              <p id={`${id}-slug-hint`} className="gh-text-secondary gh-admin-hint">
                {format('settings.slugHint')}
              </p>
            </div>
            <div className="gh-admin-field">
              <label htmlFor={`${id}-logo`}>{format('settings.logo')}</label>
              <input
                id={`${id}-logo`}
                className="gh-input"
                type="url"
                disabled={!allowed.logo}
                value={draft.logo}
                onChange={(e) => set({ logo: e.target.value })}
              />
            </div>
            <fieldset className="gh-admin-fieldset" disabled={!allowed.authMethods}>
              <legend>{format('settings.authMethods')}</legend>
              <label className="gh-admin-check">
                <input
                  type="radio"
                  name={`${id}-auth`}
                  checked={draft.authMethods === 'ALL_ALLOWED'}
                  onChange={() => set({ authMethods: 'ALL_ALLOWED' })}
                />
                <span>{format('settings.allMethods')}</span>
              </label>
              <label className="gh-admin-check">
                <input
                  type="radio"
                  name={`${id}-auth`}
                  checked={draft.authMethods === 'RESTRICTED'}
                  onChange={() => set({ authMethods: 'RESTRICTED' })}
                />
                <span>{format('settings.someMethods')}</span>
              </label>
              {draft.authMethods === 'RESTRICTED' &&
                AUTH_METHODS.map((method) => (
                  <label key={method} className="gh-admin-check gh-admin-indent">
                    <input
                      type="checkbox"
                      checked={draft.allowedAuthMethods.includes(method)}
                      onChange={(e) =>
                        set({
                          allowedAuthMethods: e.target.checked
                            ? [...draft.allowedAuthMethods, method]
                            : draft.allowedAuthMethods.filter((m) => m !== method),
                        })
                      }
                    />
                    <span>{format(`settings.method.${method}`)}</span>
                  </label>
                ))}
            </fieldset>
            <fieldset className="gh-admin-fieldset" disabled={!allowed.mfaPolicy}>
              <legend>{format('settings.mfaPolicy')}</legend>
              {(['OPTIONAL', 'REQUIRED_FOR_ALL'] as const).map((policy) => (
                <label key={policy} className="gh-admin-check">
                  <input
                    type="radio"
                    name={`${id}-mfa`}
                    checked={draft.mfaPolicy === policy}
                    onChange={() => set({ mfaPolicy: policy })}
                  />
                  <span>
                    {format(
                      policy === 'OPTIONAL' ? 'settings.mfaOptional' : 'settings.mfaRequired',
                    )}
                  </span>
                </label>
              ))}
            </fieldset>
            <fieldset className="gh-admin-plain" disabled={!allowed.mfaMethods}>
              <MfaMethodsField
                policy={draft.mfaMethods}
                allowed={draft.allowedMfaMethods}
                onChange={(change) =>
                  set({
                    ...(change.policy ? { mfaMethods: change.policy } : {}),
                    ...(change.allowed ? { allowedMfaMethods: change.allowed } : {}),
                  })
                }
              />
            </fieldset>
            <fieldset className="gh-admin-fieldset" disabled={!allowed.jit}>
              <legend>{format('settings.jit')}</legend>
              {(['RESTRICTED', 'NOT_ALLOWED'] as const).map((jit) => (
                <label key={jit} className="gh-admin-check">
                  <input
                    type="radio"
                    name={`${id}-jit`}
                    checked={draft.jit === jit}
                    onChange={() => set({ jit })}
                  />
                  <span>
                    {format(
                      jit === 'RESTRICTED' ? 'settings.jitRestricted' : 'settings.jitNotAllowed',
                    )}
                  </span>
                </label>
              ))}
            </fieldset>
            <div className="gh-admin-field">
              <label htmlFor={`${id}-domains`}>{format('settings.domains')}</label>
              <textarea
                id={`${id}-domains`}
                className="gh-input gh-admin-textarea"
                rows={3}
                disabled={!allowed.domains}
                value={draft.domains}
                aria-describedby={`${id}-domains-hint`}
                onChange={(e) => set({ domains: e.target.value })}
              />
              <p id={`${id}-domains-hint`} className="gh-text-secondary gh-admin-hint">
                {format('settings.domainsHint')}
              </p>
            </div>
            <EmailRolesField
              rules={draft.emailRoles}
              editable={!readOnly && rights.updateImplicitRoles}
              onChange={(emailRoles) => set({ emailRoles })}
            />
            <fieldset className="gh-admin-plain" disabled={!allowed.sessionMax}>
              <SessionLengthField
                value={draft.sessionMax}
                onChange={(sessionMax) => set({ sessionMax })}
              />
            </fieldset>
          </fieldset>
          <FormError id={`${id}-error`} message={save.error} />
          {!readOnly && (
            <Button type="submit" loading={save.busy}>
              {format('common.save')}
            </Button>
          )}
        </form>
      )}
    </section>
  );
}
