/**
 * The in-process administration API (`app.gatehouse`): what the CLI, the demo and tests use. Each
 * operation calls the very function the management API's route calls, so a refusal carries the
 * same `error_type` on every path (products/management/admin-parity.test.ts).
 */
import type {
  AuthMethod,
  CaptchaSettings,
  Environment,
  ErrorType,
  Member,
  OAuthProviderSettings,
  OidcConnection,
  Organization,
  ProjectSecretSummary,
  ProjectSettings,
  RbacPolicy,
  SamlConnection,
  SigningKeySummary,
} from '@gatehouse/protocol';
import type { Context } from '../../context.js';
import type { DeliveryPass } from '../../delivery/email.js';
import { listMail, type MailStatus, type QueuedMail } from '../../delivery/mail-queue.js';
import { listOutbox, type OutboxMessage } from '../../delivery/outbox.js';
import { memberByEmail, memberById } from '../../tenancy/members/store.js';
import { memberNotFound } from '../../tenancy/members/errors.js';
import type { MemberMfaPatch } from '../members/service.js';
import type { OrganizationPatch } from '../../tenancy/organizations/update.js';
import { organizationById, organizationBySlug } from '../../tenancy/organizations/store.js';
import { revokeForBackend, type RevokedSessions, type RevokeTarget } from '../sessions/service.js';
import {
  captchaSettings as readCaptchaSettings,
  setCaptchaSettings,
  type CaptchaSettingsChange,
} from '../captcha/service.js';
import { listProviders, setProvider, type OAuthProviderChange } from '../oauth/providers.js';
import { projectPolicy, setPolicy, type PolicyInput } from '../../tenancy/rbac/service.js';
import {
  createOidcConnection,
  createSamlConnection,
  deleteConnection,
  deleteSamlCertificate,
  getConnection,
  listConnections,
  updateOidcConnection,
  updateSamlConnection,
  updateSamlFromMetadata,
  type OidcInput,
  type SamlInput,
  type SamlMetadataInput,
} from '../sso/service.js';
import {
  manageCreateMember,
  manageCreateOrganization,
  manageSetMemberPassword,
  manageUpdateMember,
  manageUpdateOrganization,
} from './service.js';
import { createInviteAdmin, type InviteAdmin } from '../magic-links/admin.js';
import { createImportAdmin, type ImportAdmin } from '../import/admin.js';
import { createDirectoryAdmin, type DirectoryAdmin } from '../directory/admin.js';
import { rotateSigningKey } from './keys.js';
import { createSecret, deleteSecret, listSecrets, type CreatedSecret } from './secrets.js';
import { isFailure, type Failure } from '../../result.js';
import type {
  CreatedProject,
  CreateProjectInput,
  UpdateProjectInput,
} from '../../tenancy/projects/service.js';
import {
  changeProject,
  createProject,
  projectSettings,
  updateProjectSettings,
  type ProjectSettingsPatch,
} from '../../tenancy/projects/settings.js';

/** The inputs of the operations below, for callers that build them (the CLI). */
export type {
  CaptchaSettingsChange,
  OAuthProviderChange,
  OidcInput,
  PolicyInput,
  ProjectSettingsPatch,
  SamlInput,
  SamlMetadataInput,
};

/**
 * Administration of projects, organizations and members, without HTTP; searching and deleting
 * organizations and members is the directory's part.
 */
export interface Admin extends DirectoryAdmin, InviteAdmin, ImportAdmin {
  /**
   * Creates a project with one secret key (shown in the answer only). Throws for origins, redirect
   * URLs, a slug pattern or a password policy that `updateProjectSettings` would refuse.
   */
  createProject(input: CreateProjectInput): Promise<CreatedProject>;
  getProject(projectId: string): Promise<{
    project_id: string;
    name: string;
    environment: Environment;
    public_token: string;
    /** Origins whose pages may call the SDK API (and frame the host app's pages). */
    authorized_origins: string[];
  } | null>;
  /**
   * Changes a project's settings, in the server's own terms; absent fields stay, and
   * `redirectUrls` replaces every kind. Refuses what `updateProjectSettings` refuses.
   */
  updateProject(projectId: string, patch: UpdateProjectInput): Promise<void>;
  /** A project's settings as `GET /v1/b2b/project` answers them. */
  projectSettings(projectId: string): Promise<ProjectSettings>;
  /**
   * Changes a project's settings as `PUT /v1/b2b/project` takes them, all or nothing: absent fields
   * stay, and each redirect URL kind given replaces that kind's list. Answers the settings.
   */
  updateProjectSettings(projectId: string, patch: ProjectSettingsPatch): Promise<ProjectSettings>;
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
  /**
   * Changes one provider's settings (`google` or `microsoft`); absent fields stay. Turning it on
   * needs a client ID and secret, and the issuer's discovery document must be readable.
   */
  setOAuthProvider(
    projectId: string,
    provider: string,
    change: OAuthProviderChange,
  ): Promise<OAuthProviderSettings>;
  /** The project's captcha settings (never the secret key). */
  captchaSettings(projectId: string): Promise<CaptchaSettings>;
  /** Changes the captcha settings; absent fields stay. Turning captcha on needs both keys. */
  setCaptchaSettings(projectId: string, change: CaptchaSettingsChange): Promise<CaptchaSettings>;
  /** The project's RBAC policy: the built-in roles and resources, then its own. */
  rbacPolicy(projectId: string): Promise<RbacPolicy>;
  /**
   * Replaces the project's own roles and resources, all or nothing (as `rbacPolicy` shows them,
   * built-in ones unchanged or left out). Roles left out are taken from members.
   */
  setRbacPolicy(projectId: string, policy: PolicyInput): Promise<RbacPolicy>;
  /** Makes a new key sign session JWTs; the retired one verifies until its JWTs expire. */
  rotateSigningKey(): Promise<SigningKeySummary>;
  /** An organization's SSO connections, SAML and OIDC apart. */
  listSsoConnections(
    projectId: string,
    organizationId: string,
  ): Promise<{ saml_connections: SamlConnection[]; oidc_connections: OidcConnection[] }>;
  /** One SSO connection of the organization. */
  getSsoConnection(
    projectId: string,
    organizationId: string,
    connectionId: string,
  ): Promise<SamlConnection | OidcConnection>;
  /** Creates a SAML connection; with the IdP side given, it is active at once. */
  createSamlConnection(
    projectId: string,
    organizationId: string,
    input: SamlInput,
  ): Promise<SamlConnection>;
  /** Changes a SAML connection; `x509_certificate` adds a certificate beside its others. */
  updateSamlConnection(
    projectId: string,
    organizationId: string,
    connectionId: string,
    input: SamlInput,
  ): Promise<SamlConnection>;
  /** Sets a SAML connection's IdP side from the IdP's metadata: `metadata_url` or `metadata_xml`. */
  updateSamlFromMetadata(
    projectId: string,
    organizationId: string,
    connectionId: string,
    input: SamlMetadataInput,
  ): Promise<SamlConnection>;
  /** Removes one of a SAML connection's verification certificates. */
  deleteSamlCertificate(
    projectId: string,
    organizationId: string,
    connectionId: string,
    certificateId: string,
  ): Promise<SamlConnection>;
  /** Creates an OIDC connection; the provider's discovery document must be readable. */
  createOidcConnection(
    projectId: string,
    organizationId: string,
    input: OidcInput,
  ): Promise<OidcConnection>;
  /** Changes an OIDC connection; absent fields stay. */
  updateOidcConnection(
    projectId: string,
    organizationId: string,
    connectionId: string,
    input: OidcInput,
  ): Promise<OidcConnection>;
  /** Deletes an SSO connection of either kind. */
  deleteSsoConnection(
    projectId: string,
    organizationId: string,
    connectionId: string,
  ): Promise<void>;
  listOutbox(opts?: { limit?: number }): Promise<OutboxMessage[]>;
  /** The mail queue, newest first: recipients, subjects, status, attempts and errors, no bodies. */
  listMail(opts?: { status?: MailStatus; limit?: number }): Promise<QueuedMail[]>;
  /** Attempts the queued e-mail due now (up to a hundred), as the background worker would. */
  deliverMail(): Promise<DeliveryPass>;
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
  /** The member, in any organization of the project; an unknown one throws a `TypeError`. */
  const requireMember = async (projectId: string, memberId: string) => {
    const member = await memberById(ctx.db, projectId, memberId);
    if (!member) throw new TypeError(`Unknown member: ${memberId}`);
    return member;
  };
  return {
    ...createDirectoryAdmin(ctx, { requireProject, orThrow }),
    ...createInviteAdmin(ctx, { requireProject, orThrow }),
    ...createImportAdmin(ctx, { requireProject, orThrow }),
    createProject: async (input) => orThrow(await createProject(ctx, input)),
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
      orThrow(await changeProject(ctx, await requireProject(projectId), patch));
    },
    async projectSettings(projectId) {
      return projectSettings(await requireProject(projectId));
    },
    async updateProjectSettings(projectId, patch) {
      return orThrow(await updateProjectSettings(ctx, await requireProject(projectId), patch));
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
      const member = await requireMember(project.id, memberId);
      const updated = await manageSetMemberPassword(
        ctx,
        project,
        member.organization_id,
        memberId,
        {
          password: passwordOrHash.password,
          password_hash: passwordOrHash.hash,
        },
      );
      return orThrow(updated).member;
    },
    async updateOrganization(projectId, organizationId, patch) {
      const project = await requireProject(projectId);
      return orThrow(await manageUpdateOrganization(ctx, project, organizationId, patch));
    },
    async updateMember(projectId, memberId, patch) {
      const project = await requireProject(projectId);
      // An unknown member is the API's member_not_found here, as it always was.
      const member = orThrow((await memberById(ctx.db, project.id, memberId)) ?? memberNotFound());
      const updated = await manageUpdateMember(
        ctx,
        project,
        member.organization_id,
        memberId,
        patch,
      );
      return orThrow(updated).member;
    },
    async oauthProviders(projectId) {
      return listProviders(ctx, await requireProject(projectId));
    },
    async setOAuthProvider(projectId, provider, change) {
      return orThrow(await setProvider(ctx, await requireProject(projectId), provider, change));
    },
    async captchaSettings(projectId) {
      return readCaptchaSettings(ctx, await requireProject(projectId));
    },
    async setCaptchaSettings(projectId, change) {
      return orThrow(await setCaptchaSettings(ctx, await requireProject(projectId), change));
    },
    async rbacPolicy(projectId) {
      return projectPolicy(ctx.db, (await requireProject(projectId)).id);
    },
    async setRbacPolicy(projectId, policy) {
      return orThrow(await setPolicy(ctx, await requireProject(projectId), policy));
    },
    async rotateSigningKey() {
      return orThrow(await rotateSigningKey(ctx));
    },
    async listSsoConnections(projectId, organizationId) {
      const project = await requireProject(projectId);
      return orThrow(await listConnections(ctx, project, organizationId));
    },
    async getSsoConnection(projectId, organizationId, connectionId) {
      const project = await requireProject(projectId);
      return orThrow(await getConnection(ctx, project, organizationId, connectionId)).connection;
    },
    async createSamlConnection(projectId, organizationId, input) {
      const project = await requireProject(projectId);
      return orThrow(await createSamlConnection(ctx, project, organizationId, input)).connection;
    },
    async updateSamlConnection(projectId, organizationId, connectionId, input) {
      const project = await requireProject(projectId);
      const updated = await updateSamlConnection(ctx, project, organizationId, connectionId, input);
      return orThrow(updated).connection;
    },
    async updateSamlFromMetadata(projectId, organizationId, connectionId, input) {
      const project = await requireProject(projectId);
      const updated = await updateSamlFromMetadata(
        ctx,
        project,
        organizationId,
        connectionId,
        input,
      );
      return orThrow(updated).connection;
    },
    async deleteSamlCertificate(projectId, organizationId, connectionId, certificateId) {
      const project = await requireProject(projectId);
      const updated = await deleteSamlCertificate(
        ctx,
        project,
        organizationId,
        connectionId,
        certificateId,
      );
      return orThrow(updated).connection;
    },
    async createOidcConnection(projectId, organizationId, input) {
      const project = await requireProject(projectId);
      return orThrow(await createOidcConnection(ctx, project, organizationId, input)).connection;
    },
    async updateOidcConnection(projectId, organizationId, connectionId, input) {
      const project = await requireProject(projectId);
      const updated = await updateOidcConnection(ctx, project, organizationId, connectionId, input);
      return orThrow(updated).connection;
    },
    async deleteSsoConnection(projectId, organizationId, connectionId) {
      const project = await requireProject(projectId);
      orThrow(await deleteConnection(ctx, project, organizationId, connectionId));
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
    listMail: (opts) => listMail(ctx.db, opts),
    deliverMail: () => ctx.mailer.deliverDue(),
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
