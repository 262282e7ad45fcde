/**
 * A SAML connection's attribute mapping and its IdP-group-to-role rules (docs/widget.md §15),
 * checked here first so that each mistake is named beside its field.
 */
import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import type {
  GroupRoleAssignment,
  SamlAttributeMapping,
  SamlConnection,
} from '@gatehouse/protocol';
import { Button } from '../parts/button.js';
import { FormError } from '../parts/form-error.js';
import { useAdmin } from './admin-context.js';
import type { AdminFormat, AdminMessageKey } from './admin-messages.js';
import { useAction } from './use-action.js';

const FIELDS = ['email', 'first_name', 'last_name', 'groups'] as const;

/** What is wrong with a draft: the mapping's fields, each rule's group and role, by position. */
export interface MappingProblems {
  fields: Partial<Record<(typeof FIELDS)[number], AdminMessageKey>>;
  rules: { group?: AdminMessageKey; role?: AdminMessageKey }[];
}

/** The draft's problems, or null when it may be sent. */
export function mappingProblems(
  mapping: SamlAttributeMapping,
  rules: readonly GroupRoleAssignment[],
): MappingProblems | null {
  const fields: MappingProblems['fields'] = {};
  if (mapping.email.trim() === '') fields.email = 'sso.mapping.emailRequired';
  for (const field of FIELDS) {
    if (mapping[field].length > 256) fields[field] = 'sso.mapping.tooLong';
  }
  if (rules.length > 0 && mapping.groups.trim() === '') fields.groups = 'sso.mapping.groupsNeeded';
  const seen = new Set<string>();
  const problems = rules.map((rule) => {
    const found: MappingProblems['rules'][number] = {};
    const key = `${rule.group.trim()}\n${rule.role_id}`;
    if (rule.group.trim() === '') found.group = 'sso.mapping.groupRequired';
    else if (seen.has(key)) found.group = 'sso.mapping.duplicate';
    if (rule.role_id === '') found.role = 'sso.mapping.roleRequired';
    seen.add(key);
    return found;
  });
  const bad = Object.keys(fields).length > 0 || problems.some((p) => p.group || p.role);
  return bad ? { fields, rules: problems } : null;
}

export function SsoMapping({
  connection,
  onSaved,
}: {
  connection: SamlConnection;
  onSaved: (message: string) => void;
}) {
  const { admin, format, roles, ownRoles } = useAdmin();
  const id = useId();
  const [mapping, setMapping] = useState(connection.attribute_mapping);
  const [rules, setRules] = useState(connection.saml_group_implicit_role_assignments);
  const [problems, setProblems] = useState<MappingProblems | null>(null);
  const save = useAction(format, async () => {
    const trimmed = {
      email: mapping.email.trim(),
      first_name: mapping.first_name.trim(),
      last_name: mapping.last_name.trim(),
      groups: mapping.groups.trim(),
    };
    await admin.sso.saml.updateConnection({
      connection_id: connection.connection_id,
      attribute_mapping: trimmed,
      saml_group_implicit_role_assignments: rules.map((r) => ({ ...r, group: r.group.trim() })),
    });
    onSaved(format('sso.mapping.saved'));
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const found = mappingProblems(mapping, rules);
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
      <p className="gh-text-secondary gh-admin-hint">{format('sso.mapping.intro')}</p>
      {FIELDS.map((field) => (
        <Field
          key={field}
          id={`${id}-${field}`}
          label={format(`sso.mapping.${field}`)}
          value={mapping[field]}
          problem={problems?.fields[field]}
          format={format}
          onChange={(value) => setMapping({ ...mapping, [field]: value })}
        />
      ))}
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

function Field({
  id,
  label,
  value,
  problem,
  format,
  onChange,
}: {
  id: string;
  label: string;
  value: string;
  problem: AdminMessageKey | undefined;
  format: AdminFormat;
  onChange: (value: string) => void;
}) {
  return (
    <div className="gh-admin-field">
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        className="gh-input"
        value={value}
        autoComplete="off"
        aria-invalid={problem ? true : undefined}
        aria-describedby={problem ? `${id}-error` : undefined}
        onChange={(e) => onChange(e.target.value)}
      />
      {problem && (
        <p id={`${id}-error`} className="gh-error-text">
          {format(problem)}
        </p>
      )}
    </div>
  );
}
