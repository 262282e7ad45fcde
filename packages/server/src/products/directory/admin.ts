/**
 * The directory's part of the in-process admin (`app.gatehouse`, products/management/admin.ts):
 * each operation calls the very function the management API's route calls, so the CLI, the demo
 * and tests are refused with the same `error_type` as a host backend.
 */
import type { Member, Organization } from '@gatehouse/protocol';
import type { Context } from '../../context.js';
import type { Failure } from '../../result.js';
import type { Project } from '../../tenancy/projects/service.js';
import {
  searchMembers,
  searchOrganizations,
  type MemberSearchInput,
  type OrganizationSearchInput,
} from './search.js';
import {
  deleteMember,
  deleteMemberMfaPhoneNumber,
  deleteMemberPassword,
  deleteMemberTotp,
  deleteOrganization,
  getMember,
  reactivateMember,
  type MemberAnswer,
  type MemberRef,
} from './service.js';

/** `total` and the cursor of the next page (null on the last). */
interface ResultsMetadata {
  total: number;
  next_cursor: string | null;
}

/** Searching, reading and deleting organizations and members, without HTTP. */
export interface DirectoryAdmin {
  /** One page of the project's organizations, as `POST /v1/b2b/organizations/search` answers. */
  searchOrganizations(
    projectId: string,
    input: OrganizationSearchInput,
  ): Promise<{ organizations: Organization[]; results_metadata: ResultsMetadata }>;
  /** Deletes an organization with its members, their sessions and its SSO connections. */
  deleteOrganization(projectId: string, organizationId: string): Promise<void>;
  /** A member of the organization by `member_id` or `email_address`; deleted ones are not found. */
  getMember(projectId: string, organizationId: string, ref: MemberRef): Promise<MemberAnswer>;
  /** One page of the members of some organizations, as `POST …/members/search` answers. */
  searchMembers(
    projectId: string,
    input: MemberSearchInput,
  ): Promise<{
    members: Member[];
    results_metadata: ResultsMetadata;
    organizations: Record<string, Organization>;
  }>;
  /** Deletes a member (status `deleted`) and ends their sessions. */
  deleteMember(projectId: string, organizationId: string, memberId: string): Promise<void>;
  /** Makes a deleted member active again; any other member is returned as it is. */
  reactivateMember(projectId: string, organizationId: string, memberId: string): Promise<Member>;
  /** Removes a member's password, by its `member_password_id`. */
  deleteMemberPassword(
    projectId: string,
    organizationId: string,
    passwordId: string,
  ): Promise<Member>;
  /** Removes a member's MFA phone number. */
  deleteMemberMfaPhoneNumber(
    projectId: string,
    organizationId: string,
    memberId: string,
  ): Promise<Member>;
  /** Removes a member's authenticator app and its recovery codes. */
  deleteMemberTotp(projectId: string, organizationId: string, memberId: string): Promise<Member>;
}

/** What the admin lends the directory: its project lookup and its way of throwing failures. */
export interface AdminHelpers {
  requireProject: (projectId: string) => Promise<Project>;
  orThrow: <T>(result: T | Failure) => T;
}

/**
 * The directory's admin operations over the services.
 *
 * @example
 * const admin = { ...createDirectoryAdmin(ctx, { requireProject, orThrow }) };
 * await admin.deleteMember(projectId, orgId, memberId);
 */
export function createDirectoryAdmin(
  ctx: Context,
  { requireProject, orThrow }: AdminHelpers,
): DirectoryAdmin {
  return {
    async searchOrganizations(projectId, input) {
      return orThrow(await searchOrganizations(ctx, await requireProject(projectId), input));
    },
    async deleteOrganization(projectId, organizationId) {
      orThrow(await deleteOrganization(ctx, await requireProject(projectId), organizationId));
    },
    async getMember(projectId, organizationId, ref) {
      return orThrow(await getMember(ctx, await requireProject(projectId), organizationId, ref));
    },
    async searchMembers(projectId, input) {
      return orThrow(await searchMembers(ctx, await requireProject(projectId), input));
    },
    async deleteMember(projectId, organizationId, memberId) {
      const project = await requireProject(projectId);
      orThrow(await deleteMember(ctx, project, organizationId, memberId));
    },
    async reactivateMember(projectId, organizationId, memberId) {
      const project = await requireProject(projectId);
      return orThrow(await reactivateMember(ctx, project, organizationId, memberId)).member;
    },
    async deleteMemberPassword(projectId, organizationId, passwordId) {
      const project = await requireProject(projectId);
      return orThrow(await deleteMemberPassword(ctx, project, organizationId, passwordId)).member;
    },
    async deleteMemberMfaPhoneNumber(projectId, organizationId, memberId) {
      const project = await requireProject(projectId);
      const updated = await deleteMemberMfaPhoneNumber(ctx, project, organizationId, memberId);
      return orThrow(updated).member;
    },
    async deleteMemberTotp(projectId, organizationId, memberId) {
      const project = await requireProject(projectId);
      return orThrow(await deleteMemberTotp(ctx, project, organizationId, memberId)).member;
    },
  };
}
