/**
 * The organization's SSO rules (docs/widget.md §15): its default connection (where sign-in by SSO
 * starts) and whether SSO sign-ins may add members (all connections, some, or none).
 */
import { useEffect, useId, useState, type FormEvent } from 'react';
import type { Organization } from '@gatehouse/protocol';
import { Button } from '../parts/button.js';
import { FormError } from '../parts/form-error.js';
import { useAdmin } from './admin-context.js';
import { useAction } from './use-action.js';

type Jit = 'ALL_ALLOWED' | 'RESTRICTED' | 'NOT_ALLOWED';
const JIT: readonly Jit[] = ['ALL_ALLOWED', 'RESTRICTED', 'NOT_ALLOWED'];

export interface SsoConnectionChoice {
  connection_id: string;
  display_name: string;
  status: string;
  sign_in_enabled: boolean;
}

export function SsoSettings({
  connections,
  onSaved,
}: {
  connections: SsoConnectionChoice[];
  onSaved: (message: string) => void;
}) {
  const { admin, format } = useAdmin();
  const id = useId();
  const [org, setOrg] = useState<Organization | null>(null);
  const [defaultId, setDefaultId] = useState('');
  const [jit, setJit] = useState<Jit>('NOT_ALLOWED');
  const [allowed, setAllowed] = useState<string[]>([]);
  const loaded = (o: Organization) => {
    setOrg(o);
    setDefaultId(o.sso_default_connection_id ?? '');
    setJit(
      JIT.includes(o.sso_jit_provisioning as Jit) ? (o.sso_jit_provisioning as Jit) : 'NOT_ALLOWED',
    );
    setAllowed(o.sso_jit_provisioning_allowed_connections);
  };
  const load = useAction(format, async () => loaded((await admin.organization.get()).organization));
  const { run } = load;
  useEffect(() => {
    void run();
  }, [run]);
  const save = useAction(format, async () => {
    if (!org) return;
    const { organization } = await admin.organization.update({
      // Refused with 409 stale_update if another admin saved since (docs/protocol.md §7.10).
      updated_at: org.updated_at,
      sso_default_connection_id: defaultId === '' ? null : defaultId,
      sso_jit_provisioning: jit,
      ...(jit === 'RESTRICTED' ? { sso_jit_provisioning_allowed_connections: allowed } : {}),
    });
    loaded(organization);
    onSaved(format('sso.settings.saved'));
  });
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    // Refused (another admin saved first): the stored values come back beside the explanation.
    if (!(await save.run())) await run();
  };
  if (!org) return <FormError id={`${id}-load`} message={load.error} />;
  // The server takes as default only a connection that is complete and on.
  const active = connections.filter((c) => c.status === 'active' && c.sign_in_enabled);
  return (
    <form className="gh-admin-form gh-admin-card" onSubmit={(e) => void submit(e)}>
      <h3 className="gh-admin-subheading">{format('sso.settings.heading')}</h3>
      <div className="gh-admin-field">
        <label htmlFor={`${id}-default`}>{format('sso.settings.default')}</label>
        <select
          id={`${id}-default`}
          className="gh-input"
          value={defaultId}
          aria-describedby={`${id}-default-hint`}
          onChange={(e) => setDefaultId(e.target.value)}
        >
          <option value="">{format('sso.settings.noDefault')}</option>
          {active.map((c) => (
            <option key={c.connection_id} value={c.connection_id}>
              {c.display_name}
            </option>
          ))}
        </select>
        <p id={`${id}-default-hint`} className="gh-text-secondary gh-admin-hint">
          {format('sso.settings.defaultHint')}
        </p>
      </div>
      <fieldset className="gh-admin-fieldset">
        <legend>{format('sso.settings.jit')}</legend>
        {JIT.map((choice) => (
          <label key={choice} className="gh-admin-check">
            <input
              type="radio"
              name={`${id}-jit`}
              checked={jit === choice}
              onChange={() => setJit(choice)}
            />
            {format(`sso.settings.jit.${choice}`)}
          </label>
        ))}
        {jit === 'RESTRICTED' && (
          <fieldset className="gh-admin-fieldset gh-admin-indent">
            <legend>{format('sso.settings.allowed')}</legend>
            {connections.map((c) => (
              <label key={c.connection_id} className="gh-admin-check">
                <input
                  type="checkbox"
                  checked={allowed.includes(c.connection_id)}
                  onChange={(e) =>
                    setAllowed(
                      e.target.checked
                        ? [...allowed, c.connection_id]
                        : allowed.filter((a) => a !== c.connection_id),
                    )
                  }
                />
                {c.display_name}
              </label>
            ))}
          </fieldset>
        )}
      </fieldset>
      <FormError id={`${id}-error`} message={save.error} />
      <Button type="submit" loading={save.busy}>
        {format('sso.settings.save')}
      </Button>
    </form>
  );
}
