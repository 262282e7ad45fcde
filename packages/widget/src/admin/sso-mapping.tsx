/**
 * A SAML or OIDC connection's attribute (claim) mapping, its IdP-group-to-role rules and a SAML
 * connection's roles for everyone who signs in through it (docs/widget.md §15), checked here first (sso-mapping-check.ts) so that each mistake is named
 * beside its field. An OIDC connection also has its scopes, which a provider may need before it
 * sends a groups claim.
 */
import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import type {
  GroupRoleAssignment,
  OidcConnection,
  SamlAttributeMapping,
  SamlConnection,
} from '@gatehouse/protocol';
import { Button } from '../parts/button.js';
import { FormError } from '../parts/form-error.js';
import { useAdmin } from './admin-context.js';
import { ConnectionRoles } from './sso-connection-roles.js';
import { FIELDS, mappingProblems, type MappingProblems } from './sso-mapping-check.js';
import { Field } from './sso-mapping-field.js';
import { useAction } from './use-action.js';

/** The connection whose mapping is edited, with its kind (SAML reads attributes, OIDC claims). */
type MappedConnection =
  { kind: 'saml'; connection: SamlConnection } | { kind: 'oidc'; connection: OidcConnection };

export function SsoMapping({
  target,
  onSaved,
}: {
  target: MappedConnection;
  onSaved: (message: string) => void;
}) {
  const { admin, format, roles, ownRoles } = useAdmin();
  const id = useId();
  const { connection } = target;
  const oidc = target.kind === 'oidc';
  const [mapping, setMapping] = useState<SamlAttributeMapping>(connection.attribute_mapping);
  const [rules, setRules] = useState(
    target.kind === 'saml'
      ? target.connection.saml_group_implicit_role_assignments
      : target.connection.oidc_group_implicit_role_assignments,
  );
  const [everyone, setEveryone] = useState(() =>
    target.kind === 'saml'
      ? target.connection.saml_connection_implicit_role_assignments.map((a) => a.role_id)
      : [],
  );
  const [scopes, setScopes] = useState(
    target.kind === 'oidc' ? target.connection.custom_scopes : '',
  );
  const [problems, setProblems] = useState<MappingProblems | null>(null);
  const save = useAction(format, async () => {
    const attribute_mapping = {
      email: mapping.email.trim(),
      first_name: mapping.first_name.trim(),
      last_name: mapping.last_name.trim(),
      groups: mapping.groups.trim(),
    };
    const groupRules = rules.map((r) => ({ ...r, group: r.group.trim() }));
    const connection_id = connection.connection_id;
    if (target.kind === 'saml') {
      await admin.sso.saml.updateConnection({
        connection_id,
        // Made only while nobody else has changed the connection since it was loaded (409).
        updated_at: connection.updated_at,
        attribute_mapping,
        saml_group_implicit_role_assignments: groupRules,
        saml_connection_implicit_role_assignments: everyone.map((role_id) => ({ role_id })),
      });
    } else {
      await admin.sso.oidc.updateConnection({
        connection_id,
        updated_at: connection.updated_at,
        custom_scopes: scopes.trim(),
        attribute_mapping,
        oidc_group_implicit_role_assignments: groupRules,
      });
    }
    onSaved(format('sso.mapping.saved'));
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const found = mappingProblems(mapping, rules, oidc ? { scopes } : undefined);
    setProblems(found);
    if (!found) void save.run();
  };
  const form = useRef<HTMLFormElement>(null);
  // The first field in error takes the focus; its message is tied to it (aria-describedby).
  useEffect(() => {
    if (problems) form.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
  }, [problems]);
  const setRule = (index: number, rule: GroupRoleAssignment) =>
    setRules(rules.map((r, i) => (i === index ? rule : r)));
  // A member may give only roles they hold (the server refuses others).
  const offered = roles.filter((r) => ownRoles.includes(r.role_id));

  return (
    <form
      ref={form}
      className="gh-admin-form"
      noValidate
      onSubmit={submit}
      aria-labelledby={`${id}-heading`}
    >
      <h4 id={`${id}-heading`} className="gh-admin-subheading">
        {format('sso.mapping.heading')}
      </h4>
      <p className="gh-text-secondary gh-admin-hint">
        {format(oidc ? 'sso.mapping.introOidc' : 'sso.mapping.intro')}
      </p>
      {oidc && (
        <Field
          id={`${id}-scopes`}
          label={format('sso.mapping.scopes')}
          hint={format('sso.mapping.scopesHint')}
          value={scopes}
          problem={problems?.fields.scopes}
          format={format}
          onChange={setScopes}
        />
      )}
      {FIELDS.map((field) => (
        <Field
          key={field}
          id={`${id}-${field}`}
          label={format(oidc ? `sso.mapping.claim.${field}` : `sso.mapping.${field}`)}
          value={mapping[field]}
          problem={problems?.fields[field]}
          format={format}
          onChange={(value) => setMapping({ ...mapping, [field]: value })}
        />
      ))}
      {!oidc && (
        <ConnectionRoles
          offered={offered}
          chosen={everyone}
          format={format}
          onChange={setEveryone}
        />
      )}
      <fieldset className="gh-admin-fieldset">
        <legend>{format('sso.mapping.groupRoles')}</legend>
        {rules.length === 0 && (
          <p className="gh-text-secondary gh-admin-hint">{format('sso.mapping.noRules')}</p>
        )}
        {rules.map((rule, index) => {
          const problem = problems?.rules[index];
          const n = String(index + 1);
          return (
            <div
              key={index}
              className="gh-admin-filters"
              role="group"
              aria-label={format('sso.mapping.rule', { n })}
            >
              <Field
                id={`${id}-group-${n}`}
                label={format('sso.mapping.group', { n })}
                value={rule.group}
                problem={problem?.group}
                format={format}
                onChange={(group) => setRule(index, { ...rule, group })}
              />
              <div className="gh-admin-field">
                <label htmlFor={`${id}-role-${n}`}>{format('sso.mapping.role', { n })}</label>
                <select
                  id={`${id}-role-${n}`}
                  className="gh-input"
                  value={rule.role_id}
                  aria-invalid={problem?.role ? true : undefined}
                  aria-describedby={problem?.role ? `${id}-role-${n}-error` : undefined}
                  onChange={(e) => setRule(index, { ...rule, role_id: e.target.value })}
                >
                  <option value="">{format('sso.mapping.chooseRole')}</option>
                  {offered.map((r) => (
                    <option key={r.role_id} value={r.role_id}>
                      {r.role_id}
                    </option>
                  ))}
                  {/* A saved rule for a role the member does not hold reads as it is, unchosen. */}
                  {rule.role_id !== '' && !offered.some((r) => r.role_id === rule.role_id) && (
                    <option value={rule.role_id} disabled>
                      {rule.role_id}
                    </option>
                  )}
                </select>
                {problem?.role && (
                  <p id={`${id}-role-${n}-error`} className="gh-error-text">
                    {format(problem.role)}
                  </p>
                )}
              </div>
              <Button
                variant="text"
                onClick={() => setRules(rules.filter((_, i) => i !== index))}
                aria-label={format('sso.mapping.removeRule', { n })}
              >
                {format('sso.mapping.remove')}
              </Button>
            </div>
          );
        })}
        <Button
          variant="secondary"
          onClick={() => setRules([...rules, { group: '', role_id: '' }])}
        >
          {format('sso.mapping.addRule')}
        </Button>
      </fieldset>
      <FormError id={`${id}-problems`} message={problems ? format('sso.mapping.fix') : null} />
      <FormError id={`${id}-error`} message={save.error} />
      <Button type="submit" loading={save.busy}>
        {format('sso.mapping.save')}
      </Button>
    </form>
  );
}
