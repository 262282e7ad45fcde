/** SDK API paths, relative to `{base}/sdk/v1` (docs/protocol.md §7). */
export const PATHS = {
  bootstrap: (publicToken: string) => `/projects/bootstrap/${publicToken}`,
  events: '/events',
  magicLinksLoginOrSignup: '/b2b/magic_links/email/login_or_signup',
  magicLinksDiscoverySend: '/b2b/magic_links/email/discovery/send',
  magicLinksInvite: '/b2b/magic_links/email/invite',
  magicLinksAuthenticate: '/b2b/magic_links/authenticate',
  magicLinksDiscoveryAuthenticate: '/b2b/magic_links/discovery/authenticate',
  passwordsAuthenticate: '/b2b/passwords/authenticate',
  passwordsDiscoveryAuthenticate: '/b2b/passwords/discovery/authenticate',
  passwordsResetStart: '/b2b/passwords/email/reset/start',
  passwordsResetByEmail: '/b2b/passwords/email/reset',
  passwordsResetCheck: '/b2b/passwords/email/reset/check',
  passwordsResetExisting: '/b2b/passwords/existing_password/reset',
  passwordsResetSession: '/b2b/passwords/session/reset',
  passwordsStrengthCheck: '/b2b/passwords/strength_check',
  discoveryOrganizations: '/b2b/discovery/organizations',
  discoveryOrganizationsCreate: '/b2b/discovery/organizations/create',
  discoveryExchange: '/b2b/discovery/intermediate_sessions/exchange',
  organizationsSearch: '/b2b/organizations/search',
  membersSearch: '/b2b/organizations/members/search',
  sessionsAuthenticate: '/b2b/sessions/authenticate',
  sessionsRevoke: '/b2b/sessions/revoke',
  sessionsExchange: '/b2b/sessions/exchange',
  smsSend: '/b2b/otps/sms/send',
  smsAuthenticate: '/b2b/otps/sms/authenticate',
  totpCreate: '/b2b/totp',
  totpAuthenticate: '/b2b/totp/authenticate',
  recoveryCodesRecover: '/b2b/recovery_codes/recover',
  recoveryCodesRotate: '/b2b/recovery_codes/rotate',
  recoveryCodesGet: '/b2b/recovery_codes',
  ssoAuthenticate: '/b2b/sso/authenticate',
  oauthAuthenticate: '/b2b/oauth/authenticate',
  oneTapStart: '/b2b/oauth/google/onetap/start',
  oneTapSubmit: '/b2b/oauth/google/onetap/submit',
  oneTapDiscoverySubmit: '/b2b/oauth/google/onetap/discovery/submit',
  oauthDiscoveryAuthenticate: '/b2b/oauth/discovery/authenticate',
} as const;

/**
 * The `D` calls (docs/protocol.md §7): the client adds `captcha_token` to them when the project
 * has captcha on. The endpoint table marks the same calls `captcha: true` (checked by a test).
 */
export const CAPTCHA_PATHS: ReadonlySet<string> = new Set<string>([
  PATHS.magicLinksDiscoverySend,
  PATHS.magicLinksAuthenticate,
  PATHS.magicLinksDiscoveryAuthenticate,
  PATHS.passwordsAuthenticate,
  PATHS.passwordsDiscoveryAuthenticate,
  PATHS.passwordsResetStart,
  PATHS.passwordsResetByEmail,
  PATHS.passwordsResetExisting,
  PATHS.passwordsResetSession,
  PATHS.ssoAuthenticate,
  PATHS.oauthAuthenticate,
  PATHS.oauthDiscoveryAuthenticate,
  PATHS.smsSend,
  PATHS.smsAuthenticate,
  PATHS.totpCreate,
  PATHS.totpAuthenticate,
  PATHS.recoveryCodesRecover,
  PATHS.recoveryCodesRotate,
]);

/** The JWKS of session JWTs, relative to the server origin. */
export const JWKS_PATH = '/.well-known/jwks.json';
