/** The in-process administration API (`app.gatehouse`): what the CLI, the demo and tests use. */
import type {
  AuthMethod,
  CaptchaSettings,
  Environment,
  Member,
  OAuthProviderSettings,
  Organization,
} from '@gatehouse/protocol';
import type { Context } from '../../context.js';
import { listOutbox, type OutboxMessage } from '../../delivery/outbox.js';
import { createMember, memberByEmail, memberById } from '../members/store.js';
import { updateMember, type MemberMfaPatch } from '../members/service.js';
import { refusePublicDomains } from '../organizations/jit-domains.js';
import { updateOrganization, type OrganizationPatch } from '../organizations/update.js';
import { createOrganization } from '../organizations/service.js';
import { organizationById, organizationBySlug } from '../organizations/store.js';
import { setMemberPassword } from '../passwords/service.js';
import { revokeForBackend, type RevokedSessions, type RevokeTarget } from '../sessions/service.js';
import { captchaSettings as readCaptchaSettings } from '../captcha/service.js';
import { listProviders } from '../oauth/service.js';
import { checkRoleIds } from '../rbac/service.js';
import type { CreatedProject, CreateProjectInput, UpdateProjectInput } from './service.js';

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
  createMember(
    projectId: string,
    organizationId: string,
    input: {
      email_address: string;
      name?: string;
      status?: 'active' | 'invited' | 'pending';
      roles?: string[];
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
}

/**
 * Builds the admin API over the services. Misuse (unknown project, taken slug) throws a
 * `TypeError` or `Error`: these are operator mistakes, not user input.
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
      const publicDomain = refusePublicDomains(input.email_allowed_domains ?? []);
      if (publicDomain) throw new Error(publicDomain.message);
      const org = await ctx.db
        .transaction()
        .execute((trx) =>
          createOrganization(trx, project.id, project.environment, input, ctx.now()),
        );
      if (org === 'slug_taken')
        throw new Error(`The slug ${input.organization_slug} is already taken`);
      return org;
    },
    async getOrganizationBySlug(projectId, slug) {
      return organizationBySlug(ctx.db, projectId, slug);
    },
    async createMember(projectId, organizationId, input) {
      const project = await requireProject(projectId);
      if (!(await organizationById(ctx.db, project.id, organizationId))) {
        throw new TypeError(`Unknown organization: ${organizationId}`);
      }
      const unknownRole = await checkRoleIds(ctx.db, project.id, input.roles ?? []);
      if (unknownRole) throw new TypeError(unknownRole.message);
      const member = await ctx.db
        .transaction()
        .execute((trx) =>
          createMember(trx, project.id, project.environment, organizationId, input, ctx.now()),
        );
      if (member === 'email_taken') throw new Error(`${input.email_address} is already a member`);
      return member;
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
      if ('failure' in updated) throw new Error(updated.message);
      return updated;
    },
    async updateOrganization(projectId, organizationId, patch) {
      const project = await requireProject(projectId);
      const publicDomain = refusePublicDomains(patch.email_allowed_domains ?? []);
      if (publicDomain) throw new Error(publicDomain.message);
      const org = await ctx.db
        .transaction()
        .execute((trx) => updateOrganization(trx, project.id, organizationId, patch, ctx.now()));
      if (!org) throw new TypeError(`Unknown organization: ${organizationId}`);
      return org;
    },
    async updateMember(projectId, memberId, patch) {
      const project = await requireProject(projectId);
      const member = await updateMember(ctx.db, project.id, memberId, patch, ctx.now());
      if ('failure' in member) throw new Error(member.message);
      return member;
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
      if ('failure' in revoked) throw new Error(revoked.message);
      return revoked;
    },
    listOutbox: (opts) => listOutbox(ctx.db, opts),
  };
}
