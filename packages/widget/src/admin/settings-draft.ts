/** The settings form's draft: the organization's values as the member edits them, and the patch of what changed. */
import type { ArgsOf } from '@gatehouse/client';
import type { AuthMethod, EmailRoleAssignment, MfaMethod, Organization } from '@gatehouse/protocol';

export type Patch = ArgsOf<'organizationUpdateMe'>;

/** The form's fields, as the member edits them. */
export interface Draft {
  name: string;
  slug: string;
  logo: string;
  authMethods: Organization['auth_methods'];
  allowedAuthMethods: AuthMethod[];
  mfaPolicy: Organization['mfa_policy'];
  mfaMethods: Organization['mfa_methods'];
  allowedMfaMethods: MfaMethod[];
  jit: Organization['email_jit_provisioning'];
  domains: string;
  emailRoles: EmailRoleAssignment[];
  /** The session limit in minutes as typed; empty for none. */
  sessionMax: string;
}

export const toDraft = (org: Organization): Draft => ({
  name: org.organization_name,
  slug: org.organization_slug,
  logo: org.organization_logo_url,
  authMethods: org.auth_methods,
  allowedAuthMethods: org.allowed_auth_methods,
  mfaPolicy: org.mfa_policy,
  mfaMethods: org.mfa_methods,
  allowedMfaMethods: org.allowed_mfa_methods,
  jit: org.email_jit_provisioning,
  domains: org.email_allowed_domains.join('\n'),
  emailRoles: org.rbac_email_implicit_role_assignments ?? [],
  sessionMax:
    org.session_max_duration_minutes === null ? '' : String(org.session_max_duration_minutes),
});

const domainList = (text: string) =>
  text
    .split(/[\s,]+/)
    .map((d) => d.trim().toLowerCase())
    .filter(Boolean);

const sameSet = (a: readonly string[], b: readonly string[]) =>
  [...a].sort().join() === [...b].sort().join();

const ruleKeys = (rules: EmailRoleAssignment[]) => rules.map((r) => `${r.domain} ${r.role_id}`);

/**
 * Only what the member changed: a field sent back unchanged could still be refused (a domain
 * rule the member may not touch), and two admins editing different fields do not undo each other.
 */
export function settingsPatch(org: Organization, draft: Draft): Patch {
  // The precondition (docs/protocol.md §7.10): refused with 409 stale_update if someone else
  // saved since this form loaded, rather than silently undoing their change.
  const patch: Patch = { updated_at: org.updated_at };
  const before = toDraft(org);
  if (draft.name.trim() !== before.name) patch.organization_name = draft.name.trim();
  if (draft.slug.trim() !== before.slug) patch.organization_slug = draft.slug.trim();
  if (draft.logo.trim() !== before.logo) patch.organization_logo_url = draft.logo.trim();
  if (draft.authMethods !== before.authMethods) patch.auth_methods = draft.authMethods;
  if (!sameSet(draft.allowedAuthMethods, before.allowedAuthMethods)) {
    patch.allowed_auth_methods = draft.allowedAuthMethods;
  }
  if (draft.mfaPolicy !== before.mfaPolicy) patch.mfa_policy = draft.mfaPolicy;
  if (draft.mfaMethods !== before.mfaMethods) patch.mfa_methods = draft.mfaMethods;
  if (!sameSet(draft.allowedMfaMethods, before.allowedMfaMethods)) {
    patch.allowed_mfa_methods = draft.allowedMfaMethods;
  }
  if (draft.jit !== before.jit) patch.email_jit_provisioning = draft.jit;
  const domains = domainList(draft.domains);
  if (domains.join() !== org.email_allowed_domains.join()) patch.email_allowed_domains = domains;
  if (!sameSet(ruleKeys(draft.emailRoles), ruleKeys(before.emailRoles))) {
    patch.rbac_email_implicit_role_assignments = draft.emailRoles;
  }
  // The field's own checks (a whole number within bounds) hold the form back before this; the
  // server refuses with its reason anything that gets past them.
  const sessionMax = draft.sessionMax.trim() === '' ? null : Number(draft.sessionMax);
  if (sessionMax !== org.session_max_duration_minutes) {
    patch.session_max_duration_minutes = sessionMax;
  }
  return patch;
}
