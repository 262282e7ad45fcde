/** Changing a member's directly assigned roles: one checkbox per role of the project. */
import { useId, useState, type FormEvent } from 'react';
import type { Member } from '@gatehouse/protocol';
import { Button } from '../parts/button.js';
import { focusOnMount } from '../parts/focus-on-mount.js';
import { FormError } from '../parts/form-error.js';
import { useAdmin } from './admin-context.js';
import { directRoles } from './members-query.js';
import { useAction } from './use-action.js';

export function RolesEditor({
  member,
  onDone,
}: {
  member: Member;
  /** The member as saved, or null when cancelled. */
  onDone: (updated: Member | null) => void;
}) {
  const { admin, format, roles, ownRoles } = useAdmin();
  const id = useId();
  const [chosen, setChosen] = useState<string[]>(() => directRoles(member));
  const save = useAction(format, async () => {
    const answer = await admin.organization.members.update({
      member_id: member.member_id,
      roles: chosen,
      // Refused with 409 stale_update if the member changed since the list was loaded.
      updated_at: member.updated_at,
    });
    onDone(answer.member);
  });
  const toggle = (roleId: string, on: boolean) =>
    setChosen((now) => (on ? [...now, roleId] : now.filter((r) => r !== roleId)));
  const submit = (event: FormEvent) => {
    event.preventDefault();
    void save.run();
  };

  return (
    <form className="gh-admin-form" onSubmit={submit} aria-describedby={`${id}-error`}>
      <fieldset className="gh-admin-fieldset">
        <legend>{format('members.rolesFor', { email: member.email_address })}</legend>
        {roles.map((role, index) => {
          // Roles the viewer does not hold are shown but cannot be given or taken (the server
          // refuses them with 403 anyway).
          const held = ownRoles.includes(role.role_id);
          return (
            <label key={role.role_id} className="gh-admin-check">
              <input
                type="checkbox"
                ref={index === 0 ? focusOnMount : undefined}
                checked={chosen.includes(role.role_id)}
                disabled={!held}
                aria-describedby={held ? undefined : `${id}-not-held`}
                onChange={(e) => toggle(role.role_id, e.target.checked)}
              />
              <span>{role.role_id}</span>
              {role.description && <span className="gh-text-secondary">{role.description}</span>}
            </label>
          );
        })}
        <p id={`${id}-not-held`} className="gh-text-secondary gh-admin-hint">
          {format('members.roleNotHeld')}
        </p>
      </fieldset>
      <FormError id={`${id}-error`} message={save.error} />
      <div className="gh-admin-actions">
        <Button type="submit" loading={save.busy}>
          {format('common.save')}
        </Button>
        <Button variant="secondary" onClick={() => onDone(null)}>
          {format('common.cancel')}
        </Button>
      </div>
    </form>
  );
}
