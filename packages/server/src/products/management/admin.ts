/** The in-process administration API (`app.gatehouse`): what the CLI, the demo and tests use. */
import type {
  AuthMethod,
  CaptchaSettings,
  Environment,
  ErrorType,
  Member,
  OAuthProviderSettings,
  Organization,
  ProjectSecretSummary,
} from '@gatehouse/protocol';
import type { Context } from '../../context.js';
import { listOutbox, type OutboxMessage } from '../../delivery/outbox.js';
import { memberByEmail, memberById } from '../../tenancy/members/store.js';
import { updateMember, type MemberMfaPatch } from '../members/service.js';
import type { OrganizationPatch } from '../../tenancy/organizations/update.js';
import { organizationById, organizationBySlug } from '../../tenancy/organizations/store.js';
import { setMemberPassword } from '../passwords/service.js';
import { revokeForBackend, type RevokedSessions, type RevokeTarget } from '../sessions/service.js';
import { captchaSettings as readCaptchaSettings } from '../captcha/service.js';
import { listProviders } from '../oauth/providers.js';
import {
  manageCreateMember,
  manageCreateOrganization,
  manageUpdateOrganization,
} from './service.js';
import { createSecret, deleteSecret, listSecrets, type CreatedSecret } from './secrets.js';
import { isFailure, type Failure } from '../../result.js';
import type {
  CreatedProject,
  CreateProjectInput,
  UpdateProjectInput,
} from '../../tenancy/projects/service.js';

/** Administration of projects, organizations and members, without HTTP. */
export interface Admin {
  createProject(input: CreateProjectInput): Promise<CreatedProject>;
  getProject(projectId: string): Promise<{
    project_id: string;
    name: string;
    environment: Environment;
    public_token: string;
    /** Origins whose pages may call the SDK API (and frame the host app's pages). */
    authorized_origins: string[];
  } | null>;
  updateProject(projectId: string, patch: UpdateProjectInput): Promise<void>;
  createOrganization(
    projectId: string,
    input: {
      organization_name: string;
      organization_slug: string;
      email_jit_provisioning?: 'RESTRICTED' | 'NOT_ALLOWED';
      email_allowed_domains?: string[];
      auth_methods?: 'ALL_ALLOWED' | 'RESTRICTED';
      allowed_auth_methods?: AuthMethod[];
      mfa_policy?: 'OPTIONAL' | 'REQUIRED_FOR_ALL';
      organization_logo_url?: string;
    },
  ): Promise<Organization>;
  getOrganizationBySlug(projectId: string, slug: string): Promise<Organization | null>;
  /**
   * Creates a member, with a first password when `password` is given: all or nothing, so a
   * refused address or password stores no member.
   */
  createMember(
    projectId: string,
    organizationId: string,
    input: {
      email_address: string;
      name?: string;
      status?: 'active' | 'invited' | 'pending';
      roles?: string[];
      password?: string;
    },
  ): Promise<Member>;
  getMemberByEmail(
    projectId: string,
    organizationId: string,
    email: string,
  ): Promise<Member | null>;
  /**
   * Sets a member's password: `password` in clear (it must satisfy the project's policy) or an
   * imported `hash` (argon2, bcrypt, scrypt or pbkdf2_sha256; re-hashed with argon2id at the
   * member's next login). Clears the member's password lockout.
   */
  setMemberPassword(
    projectId: string,
    memberId: string,
    passwordOrHash: { password?: string; hash?: string },
  ): Promise<Member>;
  /**
   * Changes an organization's name, logo, e-mail JIT domains, auth or MFA policy; absent fields
   * stay. Throws for a public mail domain (gmail.com…) in `email_allowed_domains`, as creation does.
   */
  updateOrganization(
    projectId: string,
    organizationId: string,
    patch: OrganizationPatch,
  ): Promise<Organization>;
  /**
   * Changes a member's MFA settings (enrollment, phone number in any usual format, its
   * verification, default method) or name; absent fields stay.
   */
  updateMember(projectId: string, memberId: string, patch: MemberMfaPatch): Promise<Member>;
  /**
   * Revokes one live session (by `session_id` or `session_token`) or every session and IST of a
   * member (`member_id`): give exactly one. Throws for an unknown session or member.
   */
  revokeSessions(projectId: string, target: RevokeTarget): Promise<RevokedSessions>;
  /** The project's Google and Microsoft sign-in settings (never the secrets). */
  oauthProviders(projectId: string): Promise<OAuthProviderSettings[]>;
  /** The project's captcha settings (never the secret key). */
  captchaSettings(projectId: string): Promise<CaptchaSettings>;
  listOutbox(opts?: { limit?: number }): Promise<OutboxMessage[]>;
  /** Adds a secret key to the project (at most five); the answer holds it, shown this once. */
  createSecret(projectId: string): Promise<CreatedSecret>;
  /** The project's secret keys, oldest first (ids and creation times, never the keys). */
  listSecrets(projectId: string): Promise<ProjectSecretSummary[]>;
  /**
   * Deletes a secret key: it fails at once on every instance. Throws `secret_not_found` for an id
   * not of this project and `invalid_request` for the project's last key.
   */
  deleteSecret(projectId: string, secretId: string): Promise<void>;
}

/**
 * What the admin API throws where the management API would answer an error: the same
 * `error_type` for the same input, since both run the same checks.
 */
export class AdminError extends Error {
  constructor(
    readonly errorType: ErrorType,
    message: string,
  ) {
    super(message);
    this.name = 'AdminError';
  }
}

/** The value of a service result, or the {@link AdminError} its failure names. */
function orThrow<T>(result: T | Failure): T {
  if (isFailure(result)) throw new AdminError(result.failure, result.message);
  return result;
}

/**
 * Builds the admin API over the services. An unknown project throws a `TypeError`; input the
 * management API would refuse (a bad slug or address, a weak password, a taken slug) throws an
 * {@link AdminError} with the same `error_type`, before anything is stored.
 */
export function createAdmin(ctx: Context): Admin {
  const requireProject = async (projectId: string) => {
    const project = await ctx.projects.byId(projectId);
    if (!project) throw new TypeError(`Unknown project: ${projectId}`);
    return project;
  };
  return {
    createProject: (input) => ctx.projects.create(input),
    async getProject(projectId) {
      const p = await ctx.projects.byId(projectId);
      return p
        ? {
            project_id: p.id,
            name: p.name,
            environment: p.environment,
            public_token: p.publicToken,
            authorized_origins: p.authorizedOrigins,
          }
        : null;
    },
    async updateProject(projectId, patch) {
      if (!(await ctx.projects.update(projectId, patch)))
        throw new TypeError(`Unknown project: ${projectId}`);
    },
    async createOrganization(projectId, input) {
      const project = await requireProject(projectId);
      return orThrow(await manageCreateOrganization(ctx, project, input));
    },
    async getOrganizationBySlug(projectId, slug) {
      return organizationBySlug(ctx.db, projectId, slug);
    },
    async createMember(projectId, organizationId, input) {
      const project = await requireProject(projectId);
      return orThrow(await manageCreateMember(ctx, project, organizationId, input)).member;
    },
    async getMemberByEmail(projectId, organizationId, email) {
      const org = await organizationById(ctx.db, projectId, organizationId);
      return org ? memberByEmail(ctx.db, org.organization_id, email) : null;
    },
    async setMemberPassword(projectId, memberId, passwordOrHash) {
      const project = await requireProject(projectId);
      const member = await memberById(ctx.db, project.id, memberId);
      if (!member) throw new TypeError(`Unknown member: ${memberId}`);
      const updated = await setMemberPassword(ctx, project, member, passwordOrHash);
      return orThrow(updated);
    },
    async updateOrganization(projectId, organizationId, patch) {
      const project = await requireProject(projectId);
      return orThrow(await manageUpdateOrganization(ctx, project, organizationId, patch));
    },
    async updateMember(projectId, memberId, patch) {
      const project = await requireProject(projectId);
      const member = await updateMember(ctx.db, project.id, memberId, patch, ctx.now());
      return orThrow(member);
    },
    async oauthProviders(projectId) {
      return listProviders(ctx, await requireProject(projectId));
    },
    async captchaSettings(projectId) {
      return readCaptchaSettings(ctx, await requireProject(projectId));
    },
    async revokeSessions(projectId, target) {
      const project = await requireProject(projectId);
      const given = [target.session_id, target.session_token, target.member_id];
      if (given.filter((v) => v !== undefined).length !== 1) {
        throw new TypeError('Give exactly one of session_id, session_token and member_id');
      }
      const revoked = await revokeForBackend(ctx, project, target);
      return orThrow(revoked);
    },
    listOutbox: (opts) => listOutbox(ctx.db, opts),
    async createSecret(projectId) {
      return orThrow(await createSecret(ctx, await requireProject(projectId)));
    },
    async listSecrets(projectId) {
      return listSecrets(ctx.db, await requireProject(projectId), null);
    },
    async deleteSecret(projectId, secretId) {
      const project = await requireProject(projectId);
      orThrow(await deleteSecret(ctx, project, secretId, null));
    },
  };
}
