/**
 * A signed-in member managing their organization (docs/protocol.md §7.10): settings, members,
 * invitations and SSO connections, each with the member's session.
 */
import type {
  InviteResult,
  MemberDeleteResult,
  OrganizationSessionsResult,
  OwnSessionsResult,
  SessionsRevokeResult,
  MemberSelfResult,
  OrganizationMembersSearchResult,
  OrganizationResult,
} from '@gatehouse/protocol';
import type {
  AdminClient,
  InvitationMethods,
  InviteMethod,
  MemberAdminMethods,
  OrganizationSessionMethods,
  OwnAccountMethods,
  OwnSessionMethods,
  OrganizationAdminMethods,
} from './admin-types.js';
import { createDomainAdminMethods } from './admin-domains.js';
import { createSsoAdminMethods } from './admin-sso.js';
import { GatehouseUsageError } from './errors.js';
import { createTransport } from './http.js';
import { storageKeys } from './storage.js';
import { createTelemetryIdentity } from './telemetry.js';
import type { GatehouseClient } from './types.js';
import { check } from './validate.js';

/** The SDK paths of these calls, relative to `/sdk/v1` (the endpoint table's, without it). */
const ADMIN_PATHS = {
  organizationMe: '/b2b/organizations/me',
  membersSearch: '/b2b/organizations/me/members/search',
  member: (id: string) => `/b2b/organizations/members/${encodeURIComponent(id)}`,
  memberMfaPhone: (id: string) =>
    `/b2b/organizations/members/mfa_phone_numbers/${encodeURIComponent(id)}`,
  memberTotp: (id: string) => `/b2b/organizations/members/totp/${encodeURIComponent(id)}`,
  memberPassword: (id: string) => `/b2b/organizations/members/passwords/${encodeURIComponent(id)}`,
  invite: '/b2b/magic_links/email/invite',
  inviteResend: '/b2b/magic_links/email/invite/resend',
  inviteRevoke: '/b2b/magic_links/email/invite/revoke',
  sessionsSearch: '/b2b/organizations/me/sessions/search',
  sessionsRevoke: '/b2b/organizations/me/sessions/revoke',
  ownSessions: '/b2b/organizations/members/me/sessions',
  ownSessionsRevoke: '/b2b/organizations/members/me/sessions/revoke',
  memberMe: '/b2b/organizations/members/me',
  ownMfaPhone: '/b2b/organizations/members/deletePhoneNumber',
  ownTotp: '/b2b/organizations/members/deleteTOTP',
} as const;

/** A usage error unless `args` is a plain object (bodies too nested for field rules). */
function object<T>(method: string, args: T): T {
  if (typeof args !== 'object' || args === null || Array.isArray(args)) {
    throw new GatehouseUsageError(`${method}: expected an object of arguments.`);
  }
  return args;
}

function id(method: string, value: unknown, field: string): string {
  if (typeof value !== 'string' || value === '') {
    throw new GatehouseUsageError(`${method}: ${field} must be a non-empty string.`);
  }
  return value;
}

/**
 * The calls with which a signed-in member manages their organization, made with the session of
 * `client` (the same cookies, so the same member). A separate function rather than methods of
 * the client, so that a page that only signs people in never loads them (the login widget's
 * first-screen budget, docs/widget.md §14).
 *
 * @example
 * const admin = createAdminClient(client);
 * const page = await admin.organization.members.list({ limit: 20 });
 * await admin.organization.members.update({ member_id, roles: ['admin'], updated_at });
 * await admin.organization.sessions.revoke({ member_id });
 */
export function createAdminClient(client: GatehouseClient): AdminClient {
  const session = () => client.session.getSnapshot();
  const transport = createTransport({
    publicToken: client.publicToken,
    sdkBase: client.endpoints.sdkBackendURL,
    getSessionToken: () => client.session.getTokens()?.session_token ?? null,
    telemetryHeader: createTelemetryIdentity(storageKeys(client.publicToken).persistentId, () => ({
      memberId: session()?.member.member_id,
      memberSessionId: session()?.session.member_session_id,
    })),
  });
  const ctx: AdminTransport = {
    get: (path) => transport.request('GET', path),
    post: (path, body) => transport.request('POST', path, body),
    send: (method, path, body) => transport.request(method, path, body),
  };
  return {
    organization: {
      ...createOrganizationAdminMethods(ctx),
      members: createMemberAdminMethods(ctx),
      sessions: createOrganizationSessionMethods(ctx),
      domains: createDomainAdminMethods(ctx),
    },
    magicLinks: { email: createInvitationMethods(ctx) },
    sso: createSsoAdminMethods(ctx),
    self: { ...createOwnAccountMethods(ctx), sessions: createOwnSessionMethods(ctx) },
  };
}

/** What the calls below send through. */
interface AdminTransport {
  get<T>(path: string): Promise<T>;
  post<T>(path: string, body: object): Promise<T>;
  send<T>(method: 'PUT' | 'DELETE', path: string, body?: object): Promise<T>;
}

function createOrganizationAdminMethods(ctx: AdminTransport): OrganizationAdminMethods {
  return {
    get: () => ctx.get<OrganizationResult>(ADMIN_PATHS.organizationMe),
    async update(args) {
      object('organization.update', args);
      return ctx.send<OrganizationResult>('PUT', ADMIN_PATHS.organizationMe, args);
    },
  };
}

function createMemberAdminMethods(ctx: AdminTransport): MemberAdminMethods {
  return {
    async list(args = {}) {
      object('organization.members.list', args);
      return ctx.post<OrganizationMembersSearchResult>(ADMIN_PATHS.membersSearch, args);
    },
    async update(args) {
      const { member_id, ...body } = object('organization.members.update', args);
      const memberId = id('organization.members.update', member_id, 'member_id');
      return ctx.send<MemberSelfResult>('PUT', ADMIN_PATHS.member(memberId), body);
    },
    async delete(memberId) {
      const path = ADMIN_PATHS.member(id('organization.members.delete', memberId, 'memberId'));
      return ctx.send<MemberDeleteResult>('DELETE', path);
    },
    async reactivate(memberId) {
      const checked = id('organization.members.reactivate', memberId, 'memberId');
      return ctx.send<MemberSelfResult>('PUT', `${ADMIN_PATHS.member(checked)}/reactivate`);
    },
    async deleteMfaPhoneNumber(memberId) {
      const checked = id('organization.members.deleteMfaPhoneNumber', memberId, 'memberId');
      return ctx.send<MemberSelfResult>('DELETE', ADMIN_PATHS.memberMfaPhone(checked));
    },
    async deleteTotp(memberId) {
      const checked = id('organization.members.deleteTotp', memberId, 'memberId');
      return ctx.send<MemberSelfResult>('DELETE', ADMIN_PATHS.memberTotp(checked));
    },
    async deletePassword(memberPasswordId) {
      const method = 'organization.members.deletePassword';
      const checked = id(method, memberPasswordId, 'memberPasswordId');
      return ctx.send<MemberSelfResult>('DELETE', ADMIN_PATHS.memberPassword(checked));
    },
  };
}

function createInviteMethod(ctx: AdminTransport): InviteMethod {
  return async (args) => {
    check('magicLinks.email.invite', args, {
      email_address: 'string',
      invite_redirect_url: 'string?',
      invite_template_id: 'string?',
      name: 'string?',
      roles: 'string[]?',
      invite_expiration_minutes: 'number?',
      organization_id: 'string?',
      locale: 'string?',
    });
    return ctx.post<InviteResult>(ADMIN_PATHS.invite, args);
  };
}

function createInvitationMethods(ctx: AdminTransport): InvitationMethods {
  return {
    invite: createInviteMethod(ctx),
    async resendInvite(args) {
      check('magicLinks.email.resendInvite', args, {
        member_id: 'string',
        invite_redirect_url: 'string?',
        invite_expiration_minutes: 'number?',
        locale: 'string?',
      });
      id('magicLinks.email.resendInvite', args.member_id, 'member_id');
      return ctx.post<InviteResult>(ADMIN_PATHS.inviteResend, args);
    },
    async revokeInvite(args) {
      check('magicLinks.email.revokeInvite', args, { member_id: 'string' });
      id('magicLinks.email.revokeInvite', args.member_id, 'member_id');
      return ctx.post<MemberDeleteResult>(ADMIN_PATHS.inviteRevoke, args);
    },
  };
}

/** A usage error unless exactly one of `fields` is given (as the server requires). */
function exactlyOne(method: string, args: object, fields: readonly string[]): void {
  const given = fields.filter((f) => (args as Record<string, unknown>)[f] !== undefined);
  if (given.length !== 1) {
    throw new GatehouseUsageError(`${method}: pass exactly one of ${fields.join(' and ')}.`);
  }
}

function createOrganizationSessionMethods(ctx: AdminTransport): OrganizationSessionMethods {
  return {
    async list(args = {}) {
      check('organization.sessions.list', args, {
        member_id: 'string?',
        cursor: 'string?',
        limit: 'number?',
      });
      return ctx.post<OrganizationSessionsResult>(ADMIN_PATHS.sessionsSearch, args);
    },
    async revoke(args) {
      const method = 'organization.sessions.revoke';
      check(method, args, { member_session_id: 'string?', member_id: 'string?' });
      exactlyOne(method, args, ['member_session_id', 'member_id']);
      return ctx.post<SessionsRevokeResult>(ADMIN_PATHS.sessionsRevoke, args);
    },
  };
}

function createOwnAccountMethods(ctx: AdminTransport): OwnAccountMethods {
  return {
    get: () => ctx.get<MemberSelfResult>(ADMIN_PATHS.memberMe),
    deleteMfaPhoneNumber: () => ctx.send<MemberSelfResult>('DELETE', ADMIN_PATHS.ownMfaPhone),
    deleteTotp: () => ctx.send<MemberSelfResult>('DELETE', ADMIN_PATHS.ownTotp),
  };
}

function createOwnSessionMethods(ctx: AdminTransport): OwnSessionMethods {
  return {
    list: () => ctx.get<OwnSessionsResult>(ADMIN_PATHS.ownSessions),
    async revoke(args) {
      const method = 'self.sessions.revoke';
      check(method, args, { member_session_id: 'string?', all_others: 'boolean?' });
      exactlyOne(method, args, ['member_session_id', 'all_others']);
      if (args.all_others !== undefined && args.all_others !== true) {
        throw new GatehouseUsageError(`${method}: all_others may only be true.`);
      }
      return ctx.post<SessionsRevokeResult>(ADMIN_PATHS.ownSessionsRevoke, args);
    },
  };
}
