/**
 * The roles a SAML connection gives everyone who signs in through it: one checkbox per role the
 * admin holds (the server refuses others), and a saved role they do not hold shown as it is.
 */
import type { RbacRole } from '@gatehouse/protocol';
import type { AdminFormat } from './admin-messages.js';

export function ConnectionRoles({
  offered,
  chosen,
  format,
  onChange,
}: {
  /** The project's roles the admin holds. */
  offered: readonly RbacRole[];
  chosen: readonly string[];
  format: AdminFormat;
  onChange: (chosen: string[]) => void;
}) {
  const notHeld = chosen.filter((r) => !offered.some((o) => o.role_id === r));
  return (
    <fieldset className="gh-admin-fieldset">
      <legend>{format('sso.mapping.connectionRoles')}</legend>
      {offered.map((role) => (
        <label key={role.role_id} className="gh-admin-check">
          <input
            type="checkbox"
            checked={chosen.includes(role.role_id)}
            onChange={(e) =>
              onChange(
                e.target.checked
                  ? [...chosen, role.role_id]
                  : chosen.filter((r) => r !== role.role_id),
              )
            }
          />
          <span>{role.role_id}</span>
        </label>
      ))}
      {notHeld.map((roleId) => (
        <label key={roleId} className="gh-admin-check">
          <input type="checkbox" checked disabled />
          <span>{roleId}</span>
        </label>
      ))}
    </fieldset>
  );
}
