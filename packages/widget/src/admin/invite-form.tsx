/** Inviting someone by e-mail, with the roles the viewer may give. */
import { useId, useState, type FormEvent } from 'react';
import { isValidEmail } from '@gatehouse/protocol';
import type { Member } from '@gatehouse/protocol';
import { Button } from '../parts/button.js';
import { FormError } from '../parts/form-error.js';
import { useAdmin } from './admin-context.js';
import { useAction } from './use-action.js';

export function InviteForm({ onInvited }: { onInvited: (member: Member) => void }) {
  const { admin, format, roles, ownRoles } = useAdmin();
  const id = useId();
  const [email, setEmail] = useState('');
  const [name, setName] = useState('');
  const [chosen, setChosen] = useState<string[]>([]);
  const [invalid, setInvalid] = useState(false);
  const invite = useAction(format, async () => {
    const answer = await admin.magicLinks.email.invite({
      email_address: email.trim(),
      ...(name.trim() ? { name: name.trim() } : {}),
      ...(chosen.length ? { roles: chosen } : {}),
    });
    setEmail('');
    setName('');
    setChosen([]);
    onInvited(answer.member);
  });
  // Only roles the viewer holds may be given (the server's rule); `member` every member has.
  const givable = roles.filter((r) => ownRoles.includes(r.role_id));

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const bad = !isValidEmail(email.trim());
    setInvalid(bad);
    if (!bad) void invite.run();
  };
  const error = invalid ? format('invite.invalidEmail') : invite.error;

  return (
    <form className="gh-admin-form gh-admin-card" onSubmit={submit} noValidate>
      <h3 className="gh-admin-subheading">{format('invite.heading')}</h3>
      <div className="gh-admin-field">
        <label htmlFor={`${id}-email`}>{format('invite.email')}</label>
        <input
          id={`${id}-email`}
          className="gh-input"
          type="email"
          autoComplete="off"
          required
          value={email}
          aria-invalid={invalid || undefined}
          aria-describedby={error ? `${id}-error` : undefined}
          onChange={(e) => setEmail(e.target.value)}
        />
      </div>
      <div className="gh-admin-field">
        <label htmlFor={`${id}-name`}>{format('invite.name')}</label>
        <input
          id={`${id}-name`}
          className="gh-input"
          type="text"
          autoComplete="off"
          value={name}
          onChange={(e) => setName(e.target.value)}
        />
      </div>
      {givable.length > 0 && (
        <fieldset className="gh-admin-fieldset">
          <legend>{format('invite.roles')}</legend>
          {givable.map((role) => (
            <label key={role.role_id} className="gh-admin-check">
              <input
                type="checkbox"
                checked={chosen.includes(role.role_id)}
                onChange={(e) =>
                  setChosen((now) =>
                    e.target.checked
                      ? [...now, role.role_id]
                      : now.filter((r) => r !== role.role_id),
                  )
                }
              />
              <span>{role.role_id}</span>
            </label>
          ))}
        </fieldset>
      )}
      <FormError id={`${id}-error`} message={error} />
      <Button type="submit" loading={invite.busy}>
        {format('invite.submit')}
      </Button>
    </form>
  );
}
