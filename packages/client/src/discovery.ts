/** Discovery (docs/protocol.md §7.3): list, create and exchange, each carrying the IST. */
import { PATHS, type AuthResult, type DiscoveryOrganizationsResult } from '@gatehouse/protocol';
import type { ClientContext } from './context.js';
import { withIst } from './ist.js';
import type { GatehouseClient } from './types.js';
import { check } from './validate.js';

export function createDiscoveryMethods(ctx: ClientContext): GatehouseClient['discovery'] {
  return {
    organizations: {
      async list() {
        return ctx.post<DiscoveryOrganizationsResult>(
          PATHS.discoveryOrganizations,
          withIst(ctx, {}),
        );
      },
      async create(args) {
        check('discovery.organizations.create', args, {
          session_duration_minutes: 'number',
          organization_name: 'string?',
          organization_slug: 'string?',
          organization_logo_url: 'string?',
          sso_jit_provisioning: 'string?',
          email_allowed_domains: 'string[]?',
          email_invites: 'string?',
          auth_methods: 'string?',
          allowed_auth_methods: 'string[]?',
          mfa_policy: 'string?',
        });
        return ctx.applied(
          await ctx.post<AuthResult>(PATHS.discoveryOrganizationsCreate, withIst(ctx, args)),
        );
      },
    },
    intermediateSessions: {
      async exchange(args) {
        check('discovery.intermediateSessions.exchange', args, {
          organization_id: 'string',
          session_duration_minutes: 'number',
          locale: 'string?',
        });
        return ctx.applied(await ctx.post<AuthResult>(PATHS.discoveryExchange, withIst(ctx, args)));
      },
    },
  };
}
