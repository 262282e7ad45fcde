/** Renders an admin view against the fake client and fake admin client, signed in as Ada. */
import { render, type RenderResult } from '@testing-library/react';
import type { ReactElement } from 'react';
import type { SessionState } from '@gatehouse/client';
import type { Member, RbacPolicy } from '@gatehouse/protocol';
import {
  createFakeAdminClient,
  createFakeClient,
  member,
  memberSession,
  organization,
  type FakeAdminClient,
  type FakeClient,
} from '@gatehouse/testing';
import type { AdminViewProps } from '../admin/admin-frame.js';

/** What an admin's roles grant, as the client's `allPermissions` answers. */
export const ADMIN_PERMISSIONS = {
  'stytch.member': {
    create: true,
    delete: true,
    search: true,
    'update.info.name': true,
    'update.info.delete.password': true,
    'update.info.delete.mfa-phone': true,
    'update.info.delete.mfa-totp': true,
    'update.settings.roles': true,
  },
  'stytch.organization': {
    'update.info.name': true,
    'update.info.slug': true,
    'update.info.logo-url': true,
    'update.settings.allowed-auth-methods': true,
    'update.settings.allowed-mfa-methods': true,
    'update.settings.mfa-policy': true,
    'update.settings.email-jit-provisioning': true,
    'update.settings.allowed-domains': true,
    'update.settings.sso-jit-provisioning': true,
    'update.settings.default-sso-connection': true,
    delete: true,
  },
  'stytch.sso': { create: true, update: true, delete: true, get: true },
};

/** The project's policy: the built-in roles and a custom `billing` role. */
export const POLICY: RbacPolicy = {
  roles: [
    { role_id: 'admin', description: 'Manages the organization', permissions: [] },
    { role_id: 'billing', description: 'Pays the bills', permissions: [] },
    { role_id: 'member', description: 'Every member', permissions: [] },
  ],
  resources: [],
};

/**
 * What a plain member's roles grant: the built-in `member` role holds `stytch.self` `*` (the
 * provider's default), so every action on their own member and nothing on others.
 */
export const MEMBER_PERMISSIONS = {
  'stytch.self': Object.fromEntries(
    [
      'update.info.name',
      'update.info.email',
      'update.info.untrusted-metadata',
      'update.info.mfa-phone',
      'update.info.delete.mfa-phone',
      'update.info.delete.password',
      'update.info.delete.mfa-totp',
      'update.info.unlink.retired-email',
      'update.settings.mfa-enrolled',
      'update.settings.default-mfa-method',
      'delete',
      'revoke-sessions',
      'get.connected-apps',
      'revoke.connected-app',
    ].map((action) => [action, true]),
  ),
};

export interface RenderedAdmin extends RenderResult {
  client: FakeClient;
  admin: FakeAdminClient;
}

/** The session state of Ada with these roles (`member` always among them). */
export function signedIn(roles: string[]): SessionState {
  return {
    session: memberSession({ roles: ['member', ...roles] }),
    member: member(),
    organization: organization(),
  };
}

/** A page of members as `me/members/search` answers it. */
export function membersPage(members: Member[], total = members.length, next: string | null = null) {
  return {
    request_id: 'request-id-test-1',
    status_code: 200,
    members,
    results_metadata: { total, next_cursor: next },
  };
}

/**
 * Renders `view(props)` for a member with `roles` and `permissions`; `prepare` sets answers
 * before it mounts.
 */
export function renderAdmin(
  view: (props: AdminViewProps) => ReactElement,
  options: {
    roles?: string[];
    permissions?: Record<string, Record<string, boolean>>;
    prepare?(admin: FakeAdminClient, client: FakeClient): void;
    signedOut?: boolean;
  } = {},
): RenderedAdmin {
  const client = createFakeClient();
  const admin = createFakeAdminClient();
  if (!options.signedOut) client.setSession(signedIn(options.roles ?? ['admin']));
  client.setPermissions(options.permissions ?? ADMIN_PERMISSIONS);
  client.setBootstrap({ rbacPolicy: POLICY });
  options.prepare?.(admin, client);
  return { ...render(view({ client, admin })), client, admin };
}
