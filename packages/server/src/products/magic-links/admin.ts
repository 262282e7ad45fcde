/** The admin interface's invitation (`gatehouse member invite`): the host invites, as over HTTP. */
import type { Context } from '../../context.js';
import type { Failure } from '../../result.js';
import type { Project } from '../../tenancy/projects/service.js';
import { inviteMember, type InviteInput, type Invited } from './invite.js';

/** The admin operations of invitations. */
export interface InviteAdmin {
  /**
   * Invites an address into an organization: a member with status `invited` (an invited or
   * pending one is invited again) and an e-mailed link that signs them in once. Throws
   * `member_already_active` for an active member, and what the management API would refuse.
   */
  inviteMember(projectId: string, organizationId: string, input: InviteInput): Promise<Invited>;
}

/**
 * The invitation operations over the service, with the admin's project lookup and its way of
 * throwing failures.
 *
 * @example
 * const admin = { ...createInviteAdmin(ctx, { requireProject, orThrow }) };
 * await admin.inviteMember(projectId, orgId, { email_address: 'ada@acme.test' });
 */
export function createInviteAdmin(
  ctx: Context,
  helpers: {
    requireProject(projectId: string): Promise<Project>;
    orThrow<T>(result: T | Failure): T;
  },
): InviteAdmin {
  return {
    async inviteMember(projectId, organizationId, input) {
      const project = await helpers.requireProject(projectId);
      return helpers.orThrow(await inviteMember(ctx, project, organizationId, input, 'host'));
    },
  };
}
