/**
 * The import's part of the in-process admin (`app.gatehouse`, products/management/admin.ts): what
 * `gatehouse import` writes with, each object with the id it had in the source.
 */
import type {
  Member,
  OidcConnection,
  Organization,
  RbacPolicy,
  SamlConnection,
} from '@gatehouse/protocol';
import type { BodyOf, ENDPOINTS } from '@gatehouse/protocol/endpoints';
import type { Context } from '../../context.js';
import type { Failure } from '../../result.js';
import type { Project } from '../../tenancy/projects/service.js';
import { migratePassword, type MigrateResult } from '../passwords/migrate.js';
import { importOidcConnection, importSamlConnection } from './connections.js';
import { importPolicy } from './policy.js';
import {
  importMember,
  importOrganization,
  importOrganizationSso,
  type ImportOutcome,
} from './service.js';

export type { ImportOutcome };

/** Writing objects read from another system, keeping their ids; upserts, so a rerun is harmless. */
export interface ImportAdmin {
  /**
   * Makes the source's roles and resources the project's: its `stytch_member` and `stytch_admin`
   * are `member` and `admin` here, keeping what it gives them beyond their built-in permissions,
   * and the built-in `stytch.*` resources stay Gatehouse's own; permissions on what Gatehouse
   * lacks are left out, listed in the outcome's `leftOut`.
   */
  importRbacPolicy(projectId: string, policy: RbacPolicy): Promise<ImportOutcome>;
  /** Creates the organization with its id, or updates the one with that id; its SSO settings wait. */
  importOrganization(projectId: string, org: Organization): Promise<ImportOutcome>;
  /** Sets the default and JIT-allowed SSO connections of an imported organization. */
  importOrganizationSso(projectId: string, org: Organization): Promise<ImportOutcome>;
  /** Creates the member with its id, or updates the one with that id. */
  importMember(projectId: string, member: Member): Promise<ImportOutcome>;
  /** Creates the SSO connection with its id, or updates the one with that id. */
  importSsoConnection(
    projectId: string,
    connection: SamlConnection | OidcConnection,
  ): Promise<ImportOutcome>;
  /**
   * Stores another system's password hash for a member, as `POST /v1/b2b/passwords/migrate` does
   * (a member with the address is created when the organization has none).
   */
  migratePassword(
    projectId: string,
    input: BodyOf<typeof ENDPOINTS.migratePassword>,
  ): Promise<MigrateResult>;
}

/**
 * The import's operations over the admin's project lookup and failure handling.
 *
 * @example
 * const admin = { ...createImportAdmin(ctx, { requireProject, orThrow }) };
 */
export function createImportAdmin(
  ctx: Context,
  helpers: {
    requireProject: (projectId: string) => Promise<Project>;
    orThrow: <T>(result: T | Failure) => T;
  },
): ImportAdmin {
  const { requireProject, orThrow } = helpers;
  return {
    importRbacPolicy: async (projectId, policy) =>
      importPolicy(ctx, await requireProject(projectId), policy),
    importOrganization: async (projectId, org) =>
      importOrganization(ctx, await requireProject(projectId), org),
    importOrganizationSso: async (projectId, org) =>
      importOrganizationSso(ctx, await requireProject(projectId), org),
    importMember: async (projectId, member) =>
      importMember(ctx, await requireProject(projectId), member),
    async importSsoConnection(projectId, connection) {
      const project = await requireProject(projectId);
      return 'acs_url' in connection
        ? importSamlConnection(ctx, project, connection)
        : importOidcConnection(ctx, project, connection);
    },
    migratePassword: async (projectId, input) =>
      orThrow(await migratePassword(ctx, await requireProject(projectId), input)),
  };
}
