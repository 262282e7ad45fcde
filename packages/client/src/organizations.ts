/** Anonymous lookups (docs/protocol.md §7.4): an organization by slug, a member by e-mail. */
import { PATHS, type MemberSearchResult, type OrganizationSearchResult } from '@gatehouse/protocol';
import type { ClientContext } from './context.js';
import type { GatehouseClient } from './types.js';
import { check } from './validate.js';

export function createOrganizationMethods(ctx: ClientContext): GatehouseClient['organization'] {
  return {
    async getBySlug(args) {
      check('organization.getBySlug', args, { organization_slug: 'string' });
      return ctx.post<OrganizationSearchResult>(PATHS.organizationsSearch, args);
    },
    members: {
      async search(args) {
        check('organization.members.search', args, {
          email_address: 'string',
          organization_id: 'string',
        });
        return ctx.post<MemberSearchResult>(PATHS.membersSearch, args);
      },
    },
  };
}
