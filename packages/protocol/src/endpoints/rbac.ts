/**
 * Role-based access control: the project's policy through the management API (secret key), and
 * the member-session endpoints of docs/protocol.md §7.10 that the policy guards.
 */
import { z } from 'zod';
import type {
  Ack,
  MemberDeleteResult,
  MemberSelfResult,
  OrganizationMembersSearchResult,
  OrganizationResult,
  RbacPolicyResult,
} from '../api.js';
import type { RbacRole } from '../entities.js';
import { endpoint } from './endpoint.js';
import * as f from './fields.js';

/** `rbac.organizations.getOrgPolicy` and `setOrgPolicy`: an organization's own roles (none). */
export interface RbacOrgPolicyResult extends Ack {
  org_policy: { roles: RbacRole[] };
}

/** Role and resource ids: a letter or digit, then letters, digits, `_`, `-`, `.` or `:`. */
export const RBAC_ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_.:-]{0,63}$/;
/** An action: the same characters, or `*` for every action of the resource. */
export const RBAC_ACTION_PATTERN = /^(\*|[A-Za-z0-9][A-Za-z0-9_.:-]{0,63})$/;

const rbacId = z
  .string()
  .regex(RBAC_ID_PATTERN, 'must be 1 to 64 letters, digits, _ - . or :, starting alphanumeric');
const action = z.string().regex(RBAC_ACTION_PATTERN, 'must be * or an action id');
const description = z.string().max(1000);

const permission = z
  .object({ resource_id: rbacId, actions: z.array(action).min(1).max(50) })
  .strict();

/** One role: what it may do, resource by resource. */
export const rbacRoleFields = z
  .object({
    description: description.optional(),
    permissions: z.array(permission).max(100),
  })
  .strict();

/** One resource and the actions it knows. */
export const rbacResourceFields = z
  .object({
    description: description.optional(),
    actions: z
      .array(action.refine((a) => a !== '*', 'is not an action name'))
      .min(1)
      .max(50),
  })
  .strict();

/**
 * The whole policy, as `GET` shows it; built-in roles and resources may be listed or left out.
 * `scopes`, which `GET` shows empty, may only be empty.
 */
export const rbacPolicyFields = z
  .object({
    roles: z.array(rbacRoleFields.extend({ role_id: rbacId })).max(100),
    resources: z.array(rbacResourceFields.extend({ resource_id: rbacId })).max(100),
    scopes: z.array(z.unknown()).max(0, 'must be empty: scopes are not offered').optional(),
  })
  .strict();

/** An organization's e-mail domain → role rules. */
export const emailRoleAssignments = z
  .array(z.object({ domain: z.string().min(1).max(253), role_id: rbacId }).strict())
  .max(100);

const POLICY = '/v1/b2b/rbac/policy';
const ORG_POLICY = '/v1/b2b/rbac/organizations/:organization_id';
const ROLE = '/v1/b2b/rbac/roles/:role_id';
const RESOURCE = '/v1/b2b/rbac/resources/:resource_id';

/**
 * The `updated_at` the caller's screen loaded: the change is made only while the stored one is
 * still the same, and refused with 409 `stale_update` otherwise (docs/protocol.md §7.10).
 */
const updatedAtPrecondition = z.string().min(1).max(64);

const list = <T extends z.ZodType>(item: T, max: number) => z.array(item).min(1).max(max);
const memberSearchOperand = z.discriminatedUnion('filter_name', [
  z.object({ filter_name: z.literal('member_ids'), filter_value: list(f.id, 1000) }),
  z.object({ filter_name: z.literal('member_emails'), filter_value: list(f.email, 1000) }),
  z.object({
    filter_name: z.literal('statuses'),
    filter_value: list(z.enum(['active', 'invited', 'pending', 'deleted']), 4),
  }),
  z.object({ filter_name: z.literal('member_roles'), filter_value: list(rbacId, 100) }),
  // Part of an address or a name, any case: what an admin types into a search box.
  z.object({
    filter_name: z.literal('member_email_fuzzy'),
    filter_value: z.string().min(1).max(254),
  }),
  z.object({
    filter_name: z.literal('member_name_fuzzy'),
    filter_value: z.string().min(1).max(256),
  }),
]);

export const RBAC_ENDPOINTS = {
  rbacPolicyGet: endpoint<RbacPolicyResult>()({
    method: 'GET',
    path: POLICY,
    credential: 'secret',
    summary: "The project's RBAC policy: the built-in roles and resources and its own.",
    body: null,
  }),
  rbacPolicySet: endpoint<RbacPolicyResult>()({
    method: 'PUT',
    path: POLICY,
    credential: 'secret',
    summary:
      "Replaces the project's own roles and resources, all or none; `member` and `admin` stay, " +
      'with at least their built-in permissions.',
    body: rbacPolicyFields,
  }),
  rbacOrgPolicyGet: endpoint<RbacOrgPolicyResult>()({
    method: 'GET',
    path: ORG_POLICY,
    credential: 'secret',
    summary:
      "An organization's own roles, always none: custom roles are the project's (the provider's `rbac.organizations.getOrgPolicy`).",
    body: null,
  }),
  rbacOrgPolicySet: endpoint<RbacOrgPolicyResult>()({
    method: 'PUT',
    path: ORG_POLICY,
    credential: 'secret',
    summary:
      "Takes an organization's own roles only when there are none (400 otherwise): custom roles are the project's.",
    body: z.object({
      organization_id: f.id.optional(),
      org_policy: z.object({ roles: z.array(z.record(z.string().max(256), z.unknown())).max(300) }),
    }),
  }),
  rbacRoleSet: endpoint<RbacPolicyResult>()({
    method: 'PUT',
    path: ROLE,
    credential: 'secret',
    summary: 'Creates or replaces one role (a built-in role keeps its built-in permissions).',
    body: rbacRoleFields,
  }),
  rbacRoleDelete: endpoint<RbacPolicyResult>()({
    method: 'DELETE',
    path: ROLE,
    credential: 'secret',
    summary: 'Deletes a custom role and takes it from every member who holds it.',
    body: null,
  }),
  rbacResourceSet: endpoint<RbacPolicyResult>()({
    method: 'PUT',
    path: RESOURCE,
    credential: 'secret',
    summary: 'Creates or replaces one custom resource; refused if a role names an action it drops.',
    body: rbacResourceFields,
  }),
  rbacResourceDelete: endpoint<RbacPolicyResult>()({
    method: 'DELETE',
    path: RESOURCE,
    credential: 'secret',
    summary: 'Deletes a custom resource that no role refers to.',
    body: null,
  }),

  memberMe: endpoint<MemberSelfResult>()({
    method: 'GET',
    path: '/sdk/v1/b2b/organizations/members/me',
    credential: 'S',
    summary: 'The signed-in member and their organization (§7.10).',
    body: null,
  }),
  memberUpdateSelf: endpoint<MemberSelfResult>()({
    method: 'PUT',
    path: '/sdk/v1/b2b/organizations/members/update',
    credential: 'S',
    summary:
      "Changes the signed-in member's name or untrusted metadata (on `stytch.self`, each field's " +
      'action: `update.info.name`, `update.info.untrusted-metadata`).',
    body: z
      .object({
        updated_at: updatedAtPrecondition.optional(),
        name: z.string().max(256).optional(),
        untrusted_metadata: z.record(z.string().max(256), z.unknown()).optional(),
      })
      .strict(),
  }),
  memberDeleteSelfMfaPhoneNumber: endpoint<MemberSelfResult>()({
    method: 'DELETE',
    path: '/sdk/v1/b2b/organizations/members/deletePhoneNumber',
    credential: 'S',
    summary:
      "Removes the signed-in member's own MFA phone number (`stytch.self` " +
      '`update.info.delete.mfa-phone`); a member without one is answered unchanged.',
    body: null,
  }),
  memberDeleteSelfTotp: endpoint<MemberSelfResult>()({
    method: 'DELETE',
    path: '/sdk/v1/b2b/organizations/members/deleteTOTP',
    credential: 'S',
    summary:
      "Removes the signed-in member's own authenticator app and recovery codes (`stytch.self` " +
      '`update.info.delete.mfa-totp`; `totp_not_found` when there is none).',
    body: null,
  }),
  organizationMe: endpoint<OrganizationResult>()({
    method: 'GET',
    path: '/sdk/v1/b2b/organizations/me',
    credential: 'S',
    summary: "The signed-in member's organization (§7.10).",
    body: null,
  }),
  organizationUpdateMe: endpoint<OrganizationResult>()({
    method: 'PUT',
    path: '/sdk/v1/b2b/organizations/me',
    credential: 'S',
    summary:
      "Changes the signed-in member's organization (on `stytch.organization`, the action of each " +
      'field sent: `update.info.name`, `update.settings.mfa-policy`, …).',
    body: z
      .object({
        organization_name: f.organizationName.optional(),
        organization_slug: f.slug.optional(),
        organization_logo_url: f.url.optional(),
        email_jit_provisioning: f.jitChoice.optional(),
        email_allowed_domains: f.domains.optional(),
        auth_methods: f.methodsChoice.optional(),
        allowed_auth_methods: f.authMethods.optional(),
        mfa_policy: f.mfaPolicy.optional(),
        mfa_methods: f.methodsChoice.optional(),
        allowed_mfa_methods: f.mfaMethods.optional(),
        rbac_email_implicit_role_assignments: emailRoleAssignments.optional(),
        oauth_tenant_jit_provisioning: f.jitChoice.optional(),
        allowed_oauth_tenants: f.allowedOAuthTenants.optional(),
        sso_jit_provisioning: f.ssoJitChoice.optional(),
        sso_jit_provisioning_allowed_connections: z.array(f.id).max(100).optional(),
        sso_default_connection_id: f.id.nullable().optional(),
        session_max_duration_minutes: f.sessionMaxDuration.optional(),
        updated_at: updatedAtPrecondition.optional(),
      })
      .strict(),
  }),
  organizationMembersSearch: endpoint<OrganizationMembersSearchResult>()({
    method: 'POST',
    path: '/sdk/v1/b2b/organizations/me/members/search',
    credential: 'S',
    summary: "Searches the signed-in member's organization (`stytch.member` `search`).",
    body: z
      .object({
        cursor: z
          .string()
          .regex(/^[0-9]{0,9}$/, 'must be a next_cursor from an earlier page')
          .optional(),
        limit: z
          .number()
          .int('must be an integer')
          .min(1, 'must be at least 1')
          .max(1000, 'must be at most 1000')
          .optional(),
        query: z
          .object({
            operator: z.enum(['AND', 'OR']),
            operands: z.array(memberSearchOperand).max(10),
          })
          .optional(),
      })
      .strict(),
  }),
  memberUpdate: endpoint<MemberSelfResult>()({
    method: 'PUT',
    path: '/sdk/v1/b2b/organizations/members/:member_id',
    credential: 'S',
    summary:
      "Changes a member of the caller's organization (on `stytch.member`, each field's action: " +
      '`update.info.name`, `update.info.untrusted-metadata`, `update.settings.roles`; `roles` ' +
      'replaces their directly assigned roles, adding or taking away only roles the caller holds).',
    body: z
      .object({
        updated_at: updatedAtPrecondition.optional(),
        name: z.string().max(256).optional(),
        untrusted_metadata: z.record(z.string().max(256), z.unknown()).optional(),
        roles: z.array(rbacId).max(100).optional(),
      })
      .strict(),
  }),
  memberReactivate: endpoint<MemberSelfResult>()({
    method: 'PUT',
    path: '/sdk/v1/b2b/organizations/members/:member_id/reactivate',
    credential: 'S',
    summary:
      "Makes a deactivated member of the caller's organization active again (`stytch.member` " +
      '`create`); any other member is answered unchanged.',
    body: null,
  }),
  memberDelete: endpoint<MemberDeleteResult>()({
    method: 'DELETE',
    path: '/sdk/v1/b2b/organizations/members/:member_id',
    credential: 'S',
    summary:
      "Removes a member of the caller's organization and ends their sessions (`stytch.member` `delete`).",
    body: null,
  }),
  memberDeleteMfaPhoneNumber: endpoint<MemberSelfResult>()({
    method: 'DELETE',
    path: '/sdk/v1/b2b/organizations/members/mfa_phone_numbers/:member_id',
    credential: 'S',
    summary:
      "Removes the MFA phone number of a member of the caller's organization (`stytch.member` " +
      '`update.info.delete.mfa-phone`); a member without one is answered unchanged.',
    body: null,
  }),
  memberDeleteTotp: endpoint<MemberSelfResult>()({
    method: 'DELETE',
    path: '/sdk/v1/b2b/organizations/members/totp/:member_id',
    credential: 'S',
    summary:
      "Removes the authenticator app and recovery codes of a member of the caller's organization " +
      '(`stytch.member` `update.info.delete.mfa-totp`; `totp_not_found` when there is none).',
    body: null,
  }),
  memberDeletePassword: endpoint<MemberSelfResult>()({
    method: 'DELETE',
    path: '/sdk/v1/b2b/organizations/members/passwords/:member_password_id',
    credential: 'S',
    summary:
      "Removes the password of a member of the caller's organization, by its member_password_id " +
      '(`stytch.member` `update.info.delete.password`).',
    body: null,
  }),
} as const;
