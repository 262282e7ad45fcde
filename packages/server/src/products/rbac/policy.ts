/** The role-based access policy published in bootstrap: the `member` and `admin` roles (§14). */
import type { RbacPolicy } from '@gatehouse/protocol';
import { ADMIN_ROLE, MEMBER_ROLE } from '../members/store.js';

/** The policy every project has until custom roles exist. */
export const DEFAULT_RBAC_POLICY: RbacPolicy = {
  roles: [
    {
      role_id: MEMBER_ROLE,
      description: 'Granted to every member of an organization.',
      permissions: [
        { resource_id: 'stytch.self', actions: ['*'] },
        { resource_id: 'stytch.member', actions: ['search'] },
      ],
    },
    {
      role_id: ADMIN_ROLE,
      description: 'Granted to the creator of an organization; may manage it and its members.',
      permissions: [
        { resource_id: 'stytch.organization', actions: ['*'] },
        { resource_id: 'stytch.member', actions: ['*'] },
        { resource_id: 'stytch.sso', actions: ['*'] },
        { resource_id: 'stytch.self', actions: ['*'] },
      ],
    },
  ],
  resources: [
    {
      resource_id: 'stytch.organization',
      description: 'The organization itself.',
      actions: ['update', 'delete'],
    },
    {
      resource_id: 'stytch.member',
      description: 'Members of the organization.',
      actions: ['create', 'update', 'delete', 'search'],
    },
    {
      resource_id: 'stytch.sso',
      description: 'SSO connections of the organization.',
      actions: ['create', 'update', 'delete', 'get'],
    },
    {
      resource_id: 'stytch.self',
      description: 'The signed-in member.',
      actions: ['update', 'delete'],
    },
  ],
};
