/** What every section of the admin portal reads: the clients, the words and what the member may do. */
import { createContext, useContext } from 'react';
import type { AdminClient, GatehouseClient, SessionState } from '@gatehouse/client';
import type { RbacRole } from '@gatehouse/protocol';
import type { AdminFormat } from './admin-messages.js';

/** The RBAC actions the portal asks about, by what they let the member do. */
export interface AdminRights {
  searchMembers: boolean;
  inviteMembers: boolean;
  updateMembers: boolean;
  deactivateMembers: boolean;
  reactivateMembers: boolean;
  updateOrganization: boolean;
  /** Change the roles given by e-mail domain (`stytch.organization` `update.settings.implicit-roles`). */
  updateImplicitRoles: boolean;
  viewSso: boolean;
  createSso: boolean;
  /** Change a connection: its metadata, mapping and certificates, and test sign-ins. */
  updateSso: boolean;
  /** List and end the organization's sessions; without it, a member sees only their own. */
  revokeSessions: boolean;
}

export interface AdminContextValue {
  client: GatehouseClient;
  admin: AdminClient;
  format: AdminFormat;
  session: SessionState;
  rights: AdminRights;
  /** The project's roles (from bootstrap's policy), `member` excluded: every member has it. */
  roles: RbacRole[];
  /** The signed-in member's role ids: the only roles they may give or take away. */
  ownRoles: readonly string[];
}

const AdminContext = createContext<AdminContextValue | null>(null);

export const AdminProvider = AdminContext.Provider;

/** The admin portal's context; only valid inside a portal or a section. */
export function useAdmin(): AdminContextValue {
  const value = useContext(AdminContext);
  if (!value) throw new Error('useAdmin must be used inside the Gatehouse admin portal');
  return value;
}

/** The rights a permission map grants (resource → action → granted, as the client answers). */
export function rightsFrom(permissions: Record<string, Record<string, boolean>>): AdminRights {
  const can = (resource: string, action: string) => permissions[resource]?.[action] === true;
  return {
    searchMembers: can('stytch.member', 'search'),
    inviteMembers: can('stytch.member', 'create'),
    updateMembers: can('stytch.member', 'update'),
    deactivateMembers: can('stytch.member', 'delete'),
    reactivateMembers: can('stytch.member', 'create'),
    updateOrganization: can('stytch.organization', 'update'),
    updateImplicitRoles: can('stytch.organization', 'update.settings.implicit-roles'),
    viewSso: can('stytch.sso', 'get'),
    createSso: can('stytch.sso', 'create'),
    updateSso: can('stytch.sso', 'update'),
    revokeSessions: can('stytch.member', 'revoke-sessions'),
  };
}
