/** The settings section's rule fields: the second factors members may use, and roles given by e-mail domain. */
import { useId, useState } from 'react';
import {
  MFA_METHODS,
  type EmailRoleAssignment,
  type MfaMethod,
  type MfaMethodsPolicy,
} from '@gatehouse/protocol';
import { Button } from '../parts/button.js';
import { useAdmin } from './admin-context.js';

export interface MfaMethodsFieldProps {
  policy: MfaMethodsPolicy;
  allowed: MfaMethod[];
  onChange: (change: { policy?: MfaMethodsPolicy; allowed?: MfaMethod[] }) => void;
}

/** 'Any second factor' or only the ones checked. */
export function MfaMethodsField({ policy, allowed, onChange }: MfaMethodsFieldProps) {
  const { format } = useAdmin();
  const id = useId();
  return (
    <fieldset className="gh-admin-fieldset">
      <legend>{format('settings.mfaMethods')}</legend>
      <label className="gh-admin-check">
        <input
          type="radio"
          name={`${id}-mfa-methods`}
          checked={policy === 'ALL_ALLOWED'}
          onChange={() => onChange({ policy: 'ALL_ALLOWED' })}
        />
        <span>{format('settings.allMfaMethods')}</span>
      </label>
      <label className="gh-admin-check">
        <input
          type="radio"
          name={`${id}-mfa-methods`}
          checked={policy === 'RESTRICTED'}
          onChange={() => onChange({ policy: 'RESTRICTED' })}
        />
        <span>{format('settings.someMfaMethods')}</span>
      </label>
      {policy === 'RESTRICTED' &&
        MFA_METHODS.map((method) => (
          <label key={method} className="gh-admin-check gh-admin-indent">
            <input
              type="checkbox"
              checked={allowed.includes(method)}
              onChange={(e) =>
                onChange({
                  allowed: e.target.checked
                    ? [...allowed, method]
                    : allowed.filter((m) => m !== method),
                })
              }
            />
            <span>{format(`settings.mfa.${method}`)}</span>
          </label>
        ))}
    </fieldset>
  );
}

export interface EmailRolesFieldProps {
  rules: EmailRoleAssignment[];
  onChange: (rules: EmailRoleAssignment[]) => void;
  /** Whether the member may change these rules (`update.settings.implicit-roles`). */
  editable: boolean;
}

/**
 * The roles members get by the domain of their address: each rule with 'Remove', and a domain
 * and a role to add one. Only roles the member holds are offered, as the server requires.
 */
export function EmailRolesField({ rules, onChange, editable }: EmailRolesFieldProps) {
  const { format, roles, ownRoles } = useAdmin();
  const id = useId();
  const grantable = roles.filter((r) => ownRoles.includes(r.role_id));
  const [domain, setDomain] = useState('');
  const [role, setRole] = useState(grantable[0]?.role_id ?? '');
  const add = () => {
    const clean = domain.trim().toLowerCase();
    if (!clean || !role) return;
    if (!rules.some((r) => r.domain === clean && r.role_id === role)) {
      onChange([...rules, { domain: clean, role_id: role }]);
    }
    setDomain('');
  };
  return (
    <fieldset className="gh-admin-fieldset" disabled={!editable}>
      <legend>{format('settings.emailRoles')}</legend>
      <p className="gh-text-secondary gh-admin-hint">{format('settings.emailRolesHint')}</p>
      {rules.length === 0 ? (
        <p className="gh-text-secondary">{format('settings.emailRolesEmpty')}</p>
      ) : (
        <ul className="gh-admin-list" aria-label={format('settings.emailRoles')}>
          {rules.map((rule) => {
            const text = format('settings.emailRole', { domain: rule.domain, role: rule.role_id });
            return (
              <li key={`${rule.domain} ${rule.role_id}`} className="gh-admin-row">
                <span className="gh-admin-row-main">{text}</span>
                {editable && (
                  <Button
                    variant="secondary"
                    aria-label={`${format('settings.emailRoleRemove')}: ${text}`}
                    onClick={() => onChange(rules.filter((r) => r !== rule))}
                  >
                    {format('settings.emailRoleRemove')}
                  </Button>
                )}
              </li>
            );
          })}
        </ul>
      )}
      {editable && grantable.length > 0 && (
        <div className="gh-admin-filters">
          <div className="gh-admin-field gh-admin-grow">
            <label htmlFor={`${id}-domain`}>{format('settings.emailRoleDomain')}</label>
            <input
              id={`${id}-domain`}
              className="gh-input"
              value={domain}
              onChange={(e) => setDomain(e.target.value)}
              onKeyDown={(e) => {
                // Enter adds the rule here rather than saving the whole form.
                if (e.key === 'Enter') {
                  e.preventDefault();
                  add();
                }
              }}
            />
          </div>
          <div className="gh-admin-field">
            <label htmlFor={`${id}-role`}>{format('settings.emailRoleRole')}</label>
            <select
              id={`${id}-role`}
              className="gh-input"
              value={role}
              onChange={(e) => setRole(e.target.value)}
            >
              {grantable.map((r) => (
                <option key={r.role_id} value={r.role_id}>
                  {r.role_id}
                </option>
              ))}
            </select>
          </div>
          <Button variant="secondary" onClick={add}>
            {format('settings.emailRoleAdd')}
          </Button>
        </div>
      )}
    </fieldset>
  );
}
