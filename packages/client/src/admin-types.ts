/**
 * The calls with which a signed-in member manages their own organization (docs/protocol.md
 * §7.10): its settings, its members, invitations and SSO connections. The server checks every
 * call against the project's RBAC policy (403 `unauthorized_action`).
 */
import type {
  DomainDeleteResult,
  DomainResult,
  DomainsResult,
  InviteResult,
  MemberDeleteResult,
  OrganizationSessionsResult,
  OwnSessionsResult,
  SessionsRevokeResult,
  MemberSelfResult,
  OidcConnectionResult,
  OrganizationMembersSearchResult,
  OrganizationResult,
  SamlConnectionResult,
  SsoConnectionDeleteResult,
  SsoConnectionsResult,
  SsoConnectionTestResult,
  SsoConnectionTestStartResult,
} from '@gatehouse/protocol';
import type { ArgsOf } from './types.js';

/**
 * What `createAdminClient(client)` returns: the management calls, under the same names as the
 * client's own groups (`organization`, `organization.members`, `magicLinks.email`, `sso`).
 */
export interface AdminClient {
  organization: OrganizationAdminMethods & {
    members: MemberAdminMethods;
    sessions: OrganizationSessionMethods;
    domains: DomainAdminMethods;
  };
  magicLinks: { email: InvitationMethods };
  sso: SsoAdminMethods;
  /** The signed-in member's own account: every member may use it, whatever their roles. */
  self: OwnAccountMethods & { sessions: OwnSessionMethods };
}

/**
 * The signed-in member's own sign-in methods. Enrolling a second factor, new recovery codes and a
 * new password go through the client itself (`client.totp`, `client.otps.sms`,
 * `client.recoveryCodes.rotate()`, `client.passwords.resetBySession()`).
 */
export interface OwnAccountMethods {
  /**
   * `GET /b2b/organizations/members/me`: the member as stored now, with their organization.
   *
   * @example
   * const { member } = await admin.self.get();
   */
  get(): Promise<MemberSelfResult>;
  /**
   * `DELETE /b2b/organizations/members/deletePhoneNumber`: removes the member's own MFA phone
   * number; 403 `unauthorized_action` when this session never passed their second factor.
   *
   * @example
   * const { member } = await admin.self.deleteMfaPhoneNumber();
   */
  deleteMfaPhoneNumber(): Promise<MemberSelfResult>;
  /**
   * `DELETE /b2b/organizations/members/deleteTOTP`: removes the member's own authenticator app
   * and recovery codes; 404 `totp_not_found` when there is none.
   *
   * @example
   * const { member } = await admin.self.deleteTotp();
   */
  deleteTotp(): Promise<MemberSelfResult>;
}

/** The signed-in member's organization. */
export interface OrganizationAdminMethods {
  /** `GET /b2b/organizations/me`. */
  get(): Promise<OrganizationResult>;
  /**
   * `PUT /b2b/organizations/me`: each field sent needs its own action on `stytch.organization`
   * (`update.info.name`, `update.settings.mfa-policy`, …).
   */
  update(args: ArgsOf<'organizationUpdateMe'>): Promise<OrganizationResult>;
}

/**
 * The organization's e-mail domains proven by DNS (docs/protocol.md §7.12); every call needs
 * `stytch.organization` `update.settings.allowed-domains`.
 */
export interface DomainAdminMethods {
  /** `GET /b2b/organizations/me/domains`: every domain with its TXT record, oldest first. */
  list(): Promise<DomainsResult>;
  /** `POST /b2b/organizations/me/domains`: adds one, pending, with the TXT record to publish. */
  add(args: ArgsOf<'organizationDomainAdd'>): Promise<DomainResult>;
  /** `DELETE /b2b/organizations/me/domains/{domain_id}`: removes one, and its claim. */
  delete(domainId: string): Promise<DomainDeleteResult>;
  /**
   * `POST /b2b/organizations/me/domains/{domain_id}/verify`: looks up its TXT record now;
   * `domain_record_missing`, `domain_token_mismatch`, `domain_claimed` or `dns_lookup_failed`
   * when it cannot be verified.
   */
  verify(domainId: string): Promise<DomainResult>;
}

/** The members of the signed-in member's organization. */
export interface MemberAdminMethods {
  /**
   * One page of the organization's members (`stytch.member` `search`), oldest first; pass the
   * previous page's `next_cursor` as `cursor` for the next.
   */
  list(args?: ArgsOf<'organizationMembersSearch'>): Promise<OrganizationMembersSearchResult>;
  /**
   * Changes a member's name, metadata or directly assigned roles (`stytch.member`
   * `update.info.name`, `update.info.untrusted-metadata`, `update.settings.roles`, for each sent).
   */
  update(args: { member_id: string } & ArgsOf<'memberUpdate'>): Promise<MemberSelfResult>;
  /** Deactivates a member and ends their sessions (`stytch.member` `delete`). */
  delete(memberId: string): Promise<MemberDeleteResult>;
  /** Makes a deactivated member active again (`stytch.member` `create`). */
  reactivate(memberId: string): Promise<MemberSelfResult>;
  /** Removes a member's MFA phone number (`stytch.member` `update.info.delete.mfa-phone`). */
  deleteMfaPhoneNumber(memberId: string): Promise<MemberSelfResult>;
  /**
   * Removes a member's authenticator app and recovery codes (`stytch.member`
   * `update.info.delete.mfa-totp`); 404 `totp_not_found` when there is none.
   */
  deleteTotp(memberId: string): Promise<MemberSelfResult>;
  /**
   * Removes a member's password by the Member's `member_password_id` (`stytch.member`
   * `update.info.delete.password`); 404 `member_not_found` when no member of the organization has it.
   */
  deletePassword(memberPasswordId: string): Promise<MemberSelfResult>;
}

/** Inviting by e-mail into the signed-in member's organization (`stytch.member` `create`). */
export type InviteMethod = (args: ArgsOf<'magicLinksInvite'>) => Promise<InviteResult>;

/** Invitations into the signed-in member's organization (`stytch.member` `create`). */
export interface InvitationMethods {
  /** Invites an address into the organization with an e-mailed link. */
  invite: InviteMethod;
  /**
   * E-mails an invited member a new invitation link, keeping their name and roles; 400
   * `member_already_active` once they joined.
   *
   * @example
   * await admin.magicLinks.email.resendInvite({ member_id: member.member_id });
   */
  resendInvite(args: ArgsOf<'magicLinksInviteResend'>): Promise<InviteResult>;
  /**
   * Revokes a pending invitation: the invited member is removed and their links stop working.
   *
   * @example
   * await admin.magicLinks.email.revokeInvite({ member_id: member.member_id });
   */
  revokeInvite(args: ArgsOf<'magicLinksInviteRevoke'>): Promise<MemberDeleteResult>;
}

/** The live sessions of the signed-in member's organization (`stytch.member` `revoke-sessions`). */
export interface OrganizationSessionMethods {
  /**
   * One page of the organization's live sessions (or one member's with `member_id`), most
   * recently used first, each with the IP address and user agent that started it; pass the
   * previous page's `next_cursor` as `cursor` for the next.
   *
   * @example
   * const { member_sessions } = await admin.organization.sessions.list({ member_id, limit: 20 });
   */
  list(args?: ArgsOf<'organizationSessionsSearch'>): Promise<OrganizationSessionsResult>;
  /**
   * Ends one session (`member_session_id`) or every session of a member (`member_id`).
   *
   * @example
   * await admin.organization.sessions.revoke({ member_id });
   */
  revoke(args: ArgsOf<'organizationSessionsRevoke'>): Promise<SessionsRevokeResult>;
}

/** The signed-in member's own live sessions. */
export interface OwnSessionMethods {
  /**
   * The member's live sessions, the one asking marked `current`.
   *
   * @example
   * const { member_sessions } = await admin.self.sessions.list();
   */
  list(): Promise<OwnSessionsResult>;
  /**
   * Ends one of the member's sessions (`member_session_id`) or all but this one
   * (`all_others: true`).
   *
   * @example
   * await admin.self.sessions.revoke({ all_others: true });
   */
  revoke(args: ArgsOf<'ownSessionsRevoke'>): Promise<SessionsRevokeResult>;
}

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
    /**
     * Changes the IdP side, the attribute mapping or the group roles; `x509_certificate` adds a
     * verification certificate (the start of a rotation).
     *
     * @example
     * await admin.sso.saml.updateConnection({ connection_id, attribute_mapping: { email: 'mail' } });
     */
    updateConnection(
      args: { connection_id: string } & ArgsOf<'sdkSsoUpdateSaml'>,
    ): Promise<SamlConnectionResult>;
    /**
     * Removes a verification certificate (the end of a rotation).
     *
     * @example
     * await admin.sso.saml.deleteVerificationCertificate({ connection_id, certificate_id });
     */
    deleteVerificationCertificate(args: {
      connection_id: string;
      certificate_id: string;
    }): Promise<SamlConnectionResult>;
    /**
     * Starts a test sign-in: open `idp_url` (in a popup), then read the report with `getTest`.
     * Nobody is signed in and no member is created.
     *
     * @example
     * const { test, idp_url } = await admin.sso.saml.testConnection({ connection_id });
     */
    testConnection(args: { connection_id: string }): Promise<SsoConnectionTestStartResult>;
    /**
     * A test sign-in's report: `status` is `pending` until the IdP has answered.
     *
     * @example
     * const { test } = await admin.sso.saml.getTest({ connection_id, test_id });
     */
    getTest(args: { connection_id: string; test_id: string }): Promise<SsoConnectionTestResult>;
  };
  oidc: {
    createConnection(args: ArgsOf<'sdkSsoCreateOidc'>): Promise<OidcConnectionResult>;
    /**
     * Changes the provider (discovered again when the issuer, client id or secret change), the
     * custom scopes, the claim mapping or the group roles.
     *
     * @example
     * await admin.sso.oidc.updateConnection({ connection_id, attribute_mapping: { groups: 'roles' } });
     */
    updateConnection(
      args: { connection_id: string } & ArgsOf<'sdkSsoUpdateOidc'>,
    ): Promise<OidcConnectionResult>;
    /**
     * Starts a test sign-in (the authorization-code flow at the provider): open `idp_url` (in a
     * popup), then read the report with `getTest`. Nobody is signed in and no member is created.
     *
     * @example
     * const { test, idp_url } = await admin.sso.oidc.testConnection({ connection_id });
     */
    testConnection(args: { connection_id: string }): Promise<SsoConnectionTestStartResult>;
    /**
     * A test sign-in's report: `status` is `pending` until the provider has answered.
     *
     * @example
     * const { test } = await admin.sso.oidc.getTest({ connection_id, test_id });
     */
    getTest(args: { connection_id: string; test_id: string }): Promise<SsoConnectionTestResult>;
  };
}
