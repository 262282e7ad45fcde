/** The management API under `/v1/b2b`, for host backends with the project's secret key. */
import { z } from 'zod';
import type {
  BackendSessionResult,
  InviteResult,
  MemberResult,
  OrganizationResult,
  ProjectResult,
  ProjectSecretCreateResult,
  ProjectSecretDeleteResult,
  ProjectSecretsResult,
  RevokeSessionsResult,
  SigningKeyRotateResult,
  SigningKeysResult,
} from '../api.js';
import { endpoint } from './endpoint.js';
import * as f from './fields.js';
import { emailRoleAssignments } from './rbac.js';

const organizationSettings = {
  organization_logo_url: f.url.optional(),
  email_jit_provisioning: f.jitChoice.optional(),
  email_allowed_domains: f.domains.optional(),
  auth_methods: f.methodsChoice.optional(),
  allowed_auth_methods: f.authMethods.optional(),
  mfa_policy: f.mfaPolicy.optional(),
  sso_jit_provisioning: f.ssoJitChoice.optional(),
  sso_jit_provisioning_allowed_connections: z.array(f.id).max(100).optional(),
  sso_default_connection_id: f.id.nullable().optional(),
  rbac_email_implicit_role_assignments: emailRoleAssignments.optional(),
  oauth_tenant_jit_provisioning: f.jitChoice.optional(),
  allowed_oauth_tenants: f.allowedOAuthTenants.optional(),
};

const ORGANIZATION = '/v1/b2b/organizations/:organization_id';
const MEMBER = `${ORGANIZATION}/members/:member_id` as const;

/** At most this many URLs per list: an allow-list, not a database. */
const urlList = z.array(f.url).max(100);

/** The project settings `PUT /v1/b2b/project` changes; fields left out keep their value. */
export const projectSettingsFields = z
  .object({
    slug_pattern: f.url.nullable().optional(),
    pkce_required_for_email_magic_links: z.boolean().optional(),
    pkce_required_for_password_resets: z.boolean().optional(),
    pkce_required_for_oauth: z.boolean().optional(),
    pkce_required_for_sso: z.boolean().optional(),
    authorized_origins: urlList.optional(),
    redirect_urls: z
      .object({
        login: urlList.optional(),
        signup: urlList.optional(),
        discovery: urlList.optional(),
        reset_password: urlList.optional(),
      })
      .strict()
      .optional(),
    create_organization_enabled: z.boolean().optional(),
    password_policy: z
      .object({
        strength_policy: z.enum(['none', 'zxcvbn', 'luds']),
        luds_complexity: z
          .number()
          .int('must be an integer')
          .min(1, 'must be at least 1')
          .max(4, 'must be at most 4')
          .optional(),
        luds_minimum_count: z
          .number()
          .int('must be an integer')
          .min(1, 'must be at least 1')
          .max(256, 'must be at most 256')
          .optional(),
      })
      .strict()
      .optional(),
    session_max_lifetime_minutes: z
      .number()
      .int('must be an integer')
      .min(5, 'must be at least 5')
      .max(525_600, 'must be at most 525600 (a year)')
      .nullable()
      .optional(),
    display_watermark: z.boolean().optional(),
  })
  .strict();

export const MANAGEMENT_ENDPOINTS = {
  getProject: endpoint<ProjectResult>()({
    method: 'GET',
    path: '/v1/b2b/project',
    credential: 'secret',
    summary: "The calling project's settings: origins, redirect URLs, PKCE, passwords and more.",
    body: null,
  }),
  updateProject: endpoint<ProjectResult>()({
    method: 'PUT',
    path: '/v1/b2b/project',
    credential: 'secret',
    summary:
      "Changes the calling project's settings, all or none: fields left out keep their value.",
    body: projectSettingsFields,
  }),
  createOrganization: endpoint<OrganizationResult>()({
    method: 'POST',
    path: '/v1/b2b/organizations',
    credential: 'secret',
    summary: 'Creates an organization.',
    body: z.object({
      organization_name: f.organizationName,
      organization_slug: f.slug,
      ...organizationSettings,
    }),
  }),
  getOrganization: endpoint<OrganizationResult>()({
    method: 'GET',
    path: ORGANIZATION,
    credential: 'secret',
    summary: 'Reads an organization.',
    body: null,
  }),
  updateOrganization: endpoint<OrganizationResult>()({
    method: 'PUT',
    path: ORGANIZATION,
    credential: 'secret',
    summary: "Changes an organization's name, slug and sign-in settings.",
    body: z.object({
      organization_name: f.organizationName.optional(),
      organization_slug: f.slug.optional(),
      ...organizationSettings,
      mfa_methods: f.methodsChoice.optional(),
      allowed_mfa_methods: f.mfaMethods.optional(),
      session_max_duration_minutes: f.sessionMaxDuration.optional(),
    }),
  }),
  createMember: endpoint<MemberResult>()({
    method: 'POST',
    path: `${ORGANIZATION}/members`,
    credential: 'secret',
    summary: 'Adds a member to an organization, with a first password if given (all or nothing).',
    body: z.object({
      email_address: f.email,
      name: z.string().max(256).optional(),
      status: z.enum(['active', 'invited', 'pending']).optional(),
      /** The provider's backend SDK's way to ask for `status: 'pending'`. */
      create_member_as_pending: z.boolean().optional(),
      roles: z.array(z.string().min(1).max(64)).max(50).optional(),
      password: f.password.optional(),
    }),
  }),
  getMember: endpoint<MemberResult>()({
    method: 'GET',
    path: MEMBER,
    credential: 'secret',
    summary: 'Reads a member.',
    body: null,
  }),
  updateMember: endpoint<MemberResult>()({
    method: 'PUT',
    path: MEMBER,
    credential: 'secret',
    summary: "Changes a member's name, MFA settings and directly assigned roles.",
    body: z.object({
      name: z.string().max(256).optional(),
      roles: z.array(z.string().min(1).max(64)).max(50).optional(),
      mfa_enrolled: z.boolean().optional(),
      mfa_phone_number: z.string().max(64).optional(),
      mfa_phone_number_verified: z.boolean().optional(),
      default_mfa_method: z.enum(['', 'sms_otp', 'totp']).optional(),
    }),
  }),
  setMemberPassword: endpoint<MemberResult>()({
    method: 'PUT',
    path: `${MEMBER}/password`,
    credential: 'secret',
    summary:
      "Sets a member's password, in clear or as an imported hash; ends their other sessions.",
    body: z
      .object({
        password: f.password.optional(),
        password_hash: f.text.max(1024).optional(),
      })
      .refine((b) => (b.password === undefined) !== (b.password_hash === undefined), {
        message: 'exactly one of password and password_hash is required',
        path: ['password'],
      }),
  }),
  unlockMemberMfa: endpoint<MemberResult>()({
    method: 'POST',
    path: `${MEMBER}/mfa/unlock`,
    credential: 'secret',
    summary: "Unlocks a member's second factors after too many wrong codes.",
    body: null,
  }),
  backendMagicLinksInvite: endpoint<InviteResult>()({
    method: 'POST',
    path: '/v1/b2b/magic_links/email/invite',
    credential: 'secret',
    summary:
      'Invites someone into an organization by e-mail: a member with status invited and a link that signs them in once.',
    body: z.object({
      ...f.inviteFields,
      organization_id: f.id,
      invited_by_member_id: f.id.optional(),
      trusted_metadata: z.record(z.string().max(256), z.unknown()).optional(),
      untrusted_metadata: z.record(z.string().max(256), z.unknown()).optional(),
      locale: f.locale.optional(),
    }),
  }),
  authenticateSession: endpoint<BackendSessionResult>()({
    method: 'POST',
    path: '/v1/b2b/sessions/authenticate',
    credential: 'secret',
    summary:
      "Verifies a browser's session by opaque token or JWT, and with `authorization_check` that its member may do an action (403 `session_authorization_error` otherwise, `session_authorization_tenancy_error` for another organization).",
    body: z
      .object({
        session_token: f.id.optional(),
        session_jwt: f.text.max(8192).optional(),
        authorization_check: z
          .object({
            organization_id: f.id,
            resource_id: z.string().min(1).max(128),
            action: z.string().min(1).max(128),
          })
          .optional(),
      })
      .refine((b) => b.session_token !== undefined || b.session_jwt !== undefined, {
        message: 'session_token or session_jwt is required',
        path: ['session_token'],
      }),
  }),
  revokeSessions: endpoint<RevokeSessionsResult>()({
    method: 'POST',
    path: '/v1/b2b/sessions/revoke',
    credential: 'secret',
    summary: 'Ends one session (by member_session_id, token or JWT) or every session of a member.',
    body: z
      .object({
        member_session_id: f.id.optional(),
        session_id: f.id.optional(),
        session_token: f.id.optional(),
        session_jwt: f.text.max(8192).optional(),
        member_id: f.id.optional(),
      })
      .refine(
        (b) =>
          [b.member_session_id, b.session_id, b.session_token, b.session_jwt, b.member_id].filter(
            (v) => v !== undefined,
          ).length === 1,
        {
          message:
            'exactly one of member_session_id, session_token, session_jwt and member_id is required',
          path: ['member_session_id'],
        },
      ),
  }),
  signingKeys: endpoint<SigningKeysResult>()({
    method: 'GET',
    path: '/v1/b2b/signing_keys',
    credential: 'secret',
    summary: "The server's JWT signing keys: which signs, which are retired and when.",
    body: null,
  }),
  rotateSigningKey: endpoint<SigningKeyRotateResult>()({
    method: 'POST',
    path: '/v1/b2b/signing_keys/rotate',
    credential: 'secret',
    summary:
      'Makes a new key sign session JWTs; the old ones stay in the JWKS until their JWTs expire.',
    body: z.object({}).strict(),
  }),
  listSecrets: endpoint<ProjectSecretsResult>()({
    method: 'GET',
    path: '/v1/b2b/project/secrets',
    credential: 'secret',
    summary: "The calling project's secret keys: ids and creation times, never the keys.",
    body: null,
  }),
  createSecret: endpoint<ProjectSecretCreateResult>()({
    method: 'POST',
    path: '/v1/b2b/project/secrets',
    credential: 'secret',
    summary: 'Adds a secret key (at most five at a time); the answer shows it this once.',
    body: z.object({}).strict(),
  }),
  deleteSecret: endpoint<ProjectSecretDeleteResult>()({
    method: 'DELETE',
    path: '/v1/b2b/project/secrets/:secret_id',
    credential: 'secret',
    summary:
      'Deletes a secret key at once on every instance; never the last one, nor the one calling.',
    body: null,
  }),
} as const;
