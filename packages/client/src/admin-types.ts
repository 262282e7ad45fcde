/**
 * The calls with which a signed-in member manages their own organization (docs/protocol.md
 * §7.10): its settings, its members, invitations and SSO connections. The server checks every
 * call against the project's RBAC policy (403 `unauthorized_action`).
 */
import type {
  InviteResult,
  MemberDeleteResult,
  MemberSelfResult,
  OidcConnectionResult,
  OrganizationMembersSearchResult,
  OrganizationResult,
  SamlConnectionResult,
  SsoConnectionDeleteResult,
  SsoConnectionsResult,
} from '@gatehouse/protocol';
import type { ArgsOf } from './types.js';

/**
 * What `createAdminClient(client)` returns: the management calls, under the same names as the
 * client's own groups (`organization`, `organization.members`, `magicLinks.email`, `sso`).
 */
export interface AdminClient {
  organization: OrganizationAdminMethods & { members: MemberAdminMethods };
  magicLinks: { email: { invite: InviteMethod } };
  sso: SsoAdminMethods;
}

/** The signed-in member's organization. */
export interface OrganizationAdminMethods {
  /** `GET /b2b/organizations/me`. */
  get(): Promise<OrganizationResult>;
  /** `PUT /b2b/organizations/me` (`stytch.organization` `update`). */
  update(args: ArgsOf<'organizationUpdateMe'>): Promise<OrganizationResult>;
}

/** The members of the signed-in member's organization. */
export interface MemberAdminMethods {
  /**
   * One page of the organization's members (`stytch.member` `search`), oldest first; pass the
   * previous page's `next_cursor` as `cursor` for the next.
   */
  list(args?: ArgsOf<'organizationMembersSearch'>): Promise<OrganizationMembersSearchResult>;
  /** Changes a member's name, metadata or directly assigned roles (`stytch.member` `update`). */
  update(args: { member_id: string } & ArgsOf<'memberUpdate'>): Promise<MemberSelfResult>;
  /** Deactivates a member and ends their sessions (`stytch.member` `delete`). */
  delete(memberId: string): Promise<MemberDeleteResult>;
  /** Makes a deactivated member active again (`stytch.member` `create`). */
  reactivate(memberId: string): Promise<MemberSelfResult>;
}

/** Inviting by e-mail into the signed-in member's organization (`stytch.member` `create`). */
export type InviteMethod = (args: ArgsOf<'magicLinksInvite'>) => Promise<InviteResult>;

/** The SSO connections of the signed-in member's organization (`stytch.sso`). */
export interface SsoAdminMethods {
  getConnections(): Promise<SsoConnectionsResult>;
  deleteConnection(connectionId: string): Promise<SsoConnectionDeleteResult>;
  saml: {
    createConnection(args: ArgsOf<'sdkSsoCreateSaml'>): Promise<SamlConnectionResult>;
    /** Sets the IdP side from its metadata: the XML itself or a URL the server fetches. */
    updateConnectionByMetadata(
      args: { connection_id: string } & ArgsOf<'sdkSsoUpdateSamlByMetadata'>,
    ): Promise<SamlConnectionResult>;
  };
  oidc: {
    createConnection(args: ArgsOf<'sdkSsoCreateOidc'>): Promise<OidcConnectionResult>;
  };
}
