/** What every section of the admin portal reads: the clients, the words and what the member may do. */
import { createContext, useContext } from 'react';
import type { AdminClient, GatehouseClient, SessionState } from '@gatehouse/client';
import type { RbacRole } from '@gatehouse/protocol';
import type { AdminFormat } from './admin-messages.js';

/**
 * The organization's settings on the settings screen, and the action on `stytch.organization`
 * each is changed with (the provider's names); the session length has none of its own: it needs
 * every action on the organization.
 */
const ORGANIZATION_SETTING_ACTIONS = {
  name: 'update.info.name',
  slug: 'update.info.slug',
  logo: 'update.info.logo-url',
  authMethods: 'update.settings.allowed-auth-methods',
  mfaPolicy: 'update.settings.mfa-policy',
  mfaMethods: 'update.settings.allowed-mfa-methods',
  jit: 'update.settings.email-jit-provisioning',
  domains: 'update.settings.allowed-domains',
  sessionMax: '*',
} as const;

type OrganizationSetting = keyof typeof ORGANIZATION_SETTING_ACTIONS;

/** The RBAC actions the portal asks about, by what they let the member do. */
export interface AdminRights {
  searchMembers: boolean;
  inviteMembers: boolean;
  /** Give and take away members' roles (`stytch.member` `update.settings.roles`). */
  updateMemberRoles: boolean;
  /** Remove members' second factors (`update.info.delete.mfa-phone` and `…mfa-totp`). */
  resetMemberMfa: boolean;
  /** Remove members' passwords (`stytch.member` `update.info.delete.password`). */
  removeMemberPasswords: boolean;
  deactivateMembers: boolean;
  reactivateMembers: boolean;
  /** Change at least one of the organization's settings; each one by its own action. */
  updateOrganization: boolean;
  /** Which of the settings screen's settings the member may change. */
  organizationSettings: Readonly<Record<OrganizationSetting, boolean>>;
  /** Change SSO sign-up and the default connection (both their `update.settings.*` actions). */
  updateSsoSettings: boolean;
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
  /** The language the portal speaks: `es`, or `en` (also when the Spanish tables cannot load). */
  language: 'en' | 'es';
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
  const organization = Object.values(permissions['stytch.organization'] ?? {});
  const named = Object.values(ORGANIZATION_SETTING_ACTIONS).filter((a) => a !== '*');
  // `*`: every action on the organization, the settings screen's among them.
  const setting = (action: string) =>
    action === '*'
      ? organization.every(Boolean) && named.every((a) => can('stytch.organization', a))
      : can('stytch.organization', action);
  const organizationSettings = Object.fromEntries(
    Object.entries(ORGANIZATION_SETTING_ACTIONS).map(([key, action]) => [key, setting(action)]),
  ) as Record<OrganizationSetting, boolean>;
  return {
    searchMembers: can('stytch.member', 'search'),
    inviteMembers: can('stytch.member', 'create'),
    updateMemberRoles: can('stytch.member', 'update.settings.roles'),
    resetMemberMfa:
      can('stytch.member', 'update.info.delete.mfa-phone') &&
      can('stytch.member', 'update.info.delete.mfa-totp'),
    removeMemberPasswords: can('stytch.member', 'update.info.delete.password'),
    deactivateMembers: can('stytch.member', 'delete'),
    reactivateMembers: can('stytch.member', 'create'),
    updateOrganization: Object.values(organizationSettings).some(Boolean),
    organizationSettings,
    // The SSO settings form saves both together.
    updateSsoSettings:
      can('stytch.organization', 'update.settings.sso-jit-provisioning') &&
      can('stytch.organization', 'update.settings.default-sso-connection'),
    updateImplicitRoles: can('stytch.organization', 'update.settings.implicit-roles'),
    viewSso: can('stytch.sso', 'get'),
    createSso: can('stytch.sso', 'create'),
    updateSso: can('stytch.sso', 'update'),
    revokeSessions: can('stytch.member', 'revoke-sessions'),
  };
}
