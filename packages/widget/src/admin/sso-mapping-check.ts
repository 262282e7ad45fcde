/**
 * The checks of an SSO connection's mapping draft (docs/widget.md §15), made before anything is
 * sent so that each mistake is named beside its field.
 */
import type { GroupRoleAssignment, SamlAttributeMapping } from '@gatehouse/protocol';
import type { AdminMessageKey } from './admin-messages.js';

/** The member fields a mapping names, in the order the form shows them. */
export const FIELDS = ['email', 'first_name', 'last_name', 'groups'] as const;

/** What is wrong with a draft: the mapping's fields, each rule's group and role, by position. */
export interface MappingProblems {
  fields: Partial<Record<(typeof FIELDS)[number] | 'scopes', AdminMessageKey>>;
  rules: { group?: AdminMessageKey; role?: AdminMessageKey }[];
}

/** Space-separated scopes of RFC 6749 §3.3 characters, as the server takes them. */
const SCOPES = /^[\x20\x21\x23-\x5B\x5D-\x7E]*$/;

/**
 * The draft's problems, or null when it may be sent; an OIDC draft's words name claims, and its
 * `scopes` are checked too.
 */
export function mappingProblems(
  mapping: SamlAttributeMapping,
  rules: readonly GroupRoleAssignment[],
  oidc?: { scopes: string },
): MappingProblems | null {
  const fields: MappingProblems['fields'] = {};
  if (mapping.email.trim() === '') {
    fields.email = oidc ? 'sso.mapping.emailClaimRequired' : 'sso.mapping.emailRequired';
  }
  for (const field of FIELDS) {
    if (mapping[field].length > 256) fields[field] = 'sso.mapping.tooLong';
  }
  if (rules.length > 0 && mapping.groups.trim() === '') {
    fields.groups = oidc ? 'sso.mapping.groupsClaimNeeded' : 'sso.mapping.groupsNeeded';
  }
  if (oidc && (oidc.scopes.length > 1024 || !SCOPES.test(oidc.scopes))) {
    fields.scopes = 'sso.mapping.scopesInvalid';
  }
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
