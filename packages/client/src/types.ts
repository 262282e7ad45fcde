/** The public surface of the Gatehouse browser client: the contract the widget is written against. */
import type {
  Ack,
  AuthResult,
  BootstrapData,
  CaptchaProviderName,
  DiscoveryOrganizationsResult,
  DiscoveryResult,
  FullSessionResult,
  MagicLinkAuthenticateResult,
  Member,
  MemberSearchResult,
  MemberSession,
  MfaEnrollmentChange,
  Organization,
  OrganizationSearchResult,
  PasswordResetStartResult,
  PasswordStrengthResult,
  RbacPolicy,
  RecoveryCodesRecoverResult,
  RecoveryCodesResult,
  TotpCreateResult,
} from '@gatehouse/protocol';
import type { ENDPOINTS, RequestOf } from '@gatehouse/protocol/endpoints';

/** Body fields the client fills in itself: PKCE pairs (docs/protocol.md §10) and the IST cookie. */
type ClientManaged =
  | 'pkce_code_challenge'
  | 'pkce_code_verifier'
  | 'code_challenge'
  | 'code_verifier'
  | 'intermediate_session_token';

type Table = typeof ENDPOINTS;
type Body<K extends keyof Table> = NonNullable<RequestOf<Table[K]>>;

/**
 * The arguments of a client call, derived from the endpoint table: the endpoint's request body
 * without the fields the client adds itself, with `Need` required even where the server has a
 * default (the widget always sends a session duration).
 *
 * @example
 * const args: ArgsOf<'organizationsSearch'> = { organization_slug: 'acme' };
 */
export type ArgsOf<K extends keyof Table, Need extends keyof Body<K> = never> = {
  [F in keyof Omit<Body<K>, ClientManaged | Need>]: Body<K>[F];
} & { [F in Need]-?: Exclude<Body<K>[F], undefined> };

export interface ClientOptions {
  /** Shorthand: one origin serving `/sdk/v1`, `/v1` and the services page. */
  baseUrl?: string;
  endpoints?: {
    sdkBackendURL?: string;
    testAPIURL?: string;
    liveAPIURL?: string;
    clientsideServicesIframeURL?: string;
  };
  cookieOptions?: {
    opaqueTokenCookieName?: string;
    jwtCookieName?: string;
    istCookieName?: string;
    path?: string;
    availableToSubdomains?: boolean;
    domain?: string;
  };
  /** localStorage key prefix; default `gatehouse_sdk_state_`. */
  storagePrefix?: string;
  /**
   * Where Google Identity Services is loaded from for One Tap; default
   * `https://accounts.google.com/gsi/client`. Tests and mirrors point it elsewhere.
   */
  googleOneTapScriptUrl?: string;
  /**
   * The captcha provider the project uses, and where its script is loaded from (default the
   * provider's own URL). Used only when bootstrap says captcha is on; default provider
   * `recaptcha`.
   */
  captcha?: CaptchaOptions;
}

/** The client's captcha options (`createClient(token, { captcha })`, docs/widget.md). */
export interface CaptchaOptions {
  /** The project's provider, as set on the server; default `recaptcha`. */
  provider?: CaptchaProviderName;
  /**
   * Where the provider's script is loaded from; default the provider's own URL. `{siteKey}` is
   * replaced by the project's site key.
   */
  scriptUrl?: string;
}

/** The hosts a client talks to, resolved from its options (docs/protocol.md §1). */
export interface ResolvedEndpoints {
  /** Serves every JSON call: `{sdkBackendURL}/sdk/v1{path}`. */
  sdkBackendURL: string;
  /** SSO and OAuth navigations and One Tap: the test or live API base, chosen by the token. */
  apiURL: string;
  /** The phone-parsing services page. */
  clientsideServicesIframeURL: string;
}

/** The session state held by the client (docs/widget.md §3). */
export interface SessionState {
  session: MemberSession;
  member: Member;
  organization: Organization;
}

/** Bootstrap in the client's camelCase, with safe defaults when the fetch fails. */
export interface BootstrapConfig {
  displayWatermark: boolean;
  captchaSettings: { enabled: boolean; siteKey?: string };
  cnameDomain: string | null;
  emailDomains: string[];
  pkceRequiredForEmailMagicLinks: boolean;
  pkceRequiredForPasswordResets: boolean;
  pkceRequiredForOAuth: boolean;
  pkceRequiredForSso: boolean;
  slugPattern: string | null;
  createOrganizationEnabled: boolean;
  passwordConfig: { ludsComplexity: number; ludsMinimumCount: number } | null;
  runDFPProtectedAuth: boolean;
  rbacPolicy: RbacPolicy | null;
  /** The raw server answer, or null when the defaults are in use. */
  raw: BootstrapData | null;
}

/** `passwords/strength_check` (docs/protocol.md §7.2): the same shape the server computes. */
export type { PasswordStrengthResult };

/** Results of the endpoint table the client hands back as they are. */
export type {
  PasswordResetStartResult,
  RecoveryCodesRecoverResult,
  RecoveryCodesResult,
  TotpCreateResult,
};

export type OAuthAuthenticateResult = AuthResult & {
  provider_values: {
    access_token: string;
    id_token: string;
    refresh_token: string;
    scopes: string[];
    expires_at: string;
  };
};

/** The two OAuth providers (docs/widget.md §1). */
export type OAuthProvider = 'google' | 'microsoft';

/** Options of an OAuth start in an organization (docs/protocol.md §8). One of the first two is needed. */
export interface OAuthStartArgs {
  organization_id?: string;
  slug?: string;
  login_redirect_url?: string;
  signup_redirect_url?: string;
  custom_scopes?: string[];
  /** Forwarded to the provider as `{key}={value}` (e.g. `prompt`, `login_hint`, `hd`). */
  provider_params?: Record<string, string>;
}

/** Options of an OAuth discovery start. */
export interface OAuthDiscoveryStartArgs {
  discovery_redirect_url?: string;
  custom_scopes?: string[];
  provider_params?: Record<string, string>;
}

/** An OAuth provider's navigations. */
export interface OAuthProviderMethods {
  /** Navigates the page to the provider (through the server); resolves once navigation starts. */
  start(args: OAuthStartArgs): Promise<void>;
  discovery: { start(args?: OAuthDiscoveryStartArgs): Promise<void> };
}

/** What a One Tap start reports besides its result. */
interface GoogleOneTapCallbacks {
  /** Close the prompt when the user clicks outside it (default true). */
  cancel_on_tap_outside?: boolean;
  /** The prompt was skipped or dismissed without a credential, with Google's reason (e.g. `user_cancel`). */
  onOneTapCancelled?: (reason: string) => void;
  /** Submitting the credential Google handed over failed; the page stays. */
  onOneTapError?: (error: unknown) => void;
}

/** Options of a One Tap start into an organization. */
export interface GoogleOneTapStartArgs extends GoogleOneTapCallbacks {
  organization_id: string;
  login_redirect_url?: string;
  signup_redirect_url?: string;
}

/** Options of a One Tap start for discovery. */
export interface GoogleOneTapDiscoveryStartArgs extends GoogleOneTapCallbacks {
  discovery_redirect_url?: string;
}

/**
 * Whether One Tap's prompt came up. `reason` when it did not: `oauth_config_not_found` (the
 * project has no One Tap client), the error type of the start call, Google's reason (such as
 * `user_cancel`, `invalid_client`, `unregistered_origin`) or `unknown_reason`.
 */
export type GoogleOneTapStartResult = { success: true } | { success: false; reason: string };

/** Google One Tap. A credential from the prompt is submitted and the page follows the answer. */
export interface GoogleOneTapMethods {
  /** Loads Google's library when the project has One Tap on and shows the prompt. */
  start(args: GoogleOneTapStartArgs): Promise<GoogleOneTapStartResult>;
  discovery: { start(args?: GoogleOneTapDiscoveryStartArgs): Promise<GoogleOneTapStartResult> };
  /** Closes the prompt, if one is open. */
  cancel(): void;
}

/** `set_mfa_enrollment` of the MFA calls, as the server reads it. */
export type { MfaEnrollmentChange };

export interface GatehouseClient {
  readonly publicToken: string;
  /** The resolved hosts, for building navigation URLs (SSO and OAuth starts). */
  readonly endpoints: ResolvedEndpoints;

  /** Resolves once bootstrap has been fetched (or defaults applied). Never rejects. */
  bootstrap(): Promise<BootstrapConfig>;
  /** Bootstrap known so far (defaults until the fetch completes). */
  getBootstrap(): BootstrapConfig;

  session: {
    /** Current state or null; stable identity between changes (for useSyncExternalStore). */
    getSnapshot(): SessionState | null;
    subscribe(listener: () => void): () => void;
    getTokens(): { session_token: string; session_jwt: string } | null;
    getIntermediateSessionToken(): string | null;
    authenticate(args?: ArgsOf<'sessionsAuthenticate'>): Promise<FullSessionResult>;
    revoke(args?: { forceClear?: boolean }): Promise<Ack>;
    exchange(args: ArgsOf<'sessionsExchange', 'session_duration_minutes'>): Promise<AuthResult>;
  };

  magicLinks: {
    email: {
      loginOrSignup(args: ArgsOf<'magicLinksLoginOrSignup'>): Promise<Ack>;
      discovery: {
        send(args: ArgsOf<'magicLinksDiscoverySend'>): Promise<Ack>;
      };
    };
    authenticate(
      args: ArgsOf<'magicLinksAuthenticate', 'session_duration_minutes'>,
    ): Promise<MagicLinkAuthenticateResult>;
    discovery: {
      authenticate(args: ArgsOf<'magicLinksDiscoveryAuthenticate'>): Promise<DiscoveryResult>;
    };
  };

  discovery: {
    organizations: {
      list(): Promise<DiscoveryOrganizationsResult>;
      create(
        args: ArgsOf<'discoveryOrganizationsCreate', 'session_duration_minutes'>,
      ): Promise<AuthResult>;
    };
    intermediateSessions: {
      exchange(args: ArgsOf<'discoveryExchange', 'session_duration_minutes'>): Promise<AuthResult>;
    };
  };

  organization: {
    getBySlug(args: ArgsOf<'organizationsSearch'>): Promise<OrganizationSearchResult>;
    members: {
      /** Anonymous member lookup by e-mail in an organization. */
      search(args: ArgsOf<'membersSearch'>): Promise<MemberSearchResult>;
    };
  };

  passwords: {
    /** AM result; sends the IST and (ignored by the server) the `passwords` verifier. */
    authenticate(
      args: ArgsOf<'passwordsAuthenticate', 'session_duration_minutes'>,
    ): Promise<AuthResult>;
    /** Sends the reset e-mail; adds `code_challenge` when bootstrap requires PKCE for resets. */
    resetByEmailStart(args: ArgsOf<'passwordsResetStart'>): Promise<PasswordResetStartResult>;
    /** AM result; sends the `passwords` verifier and clears the pair on success. */
    resetByEmail(
      args: ArgsOf<'passwordsResetByEmail', 'session_duration_minutes'>,
    ): Promise<AuthResult>;
    /**
     * Whether a reset link can still set a password, without spending it; rejects with
     * `password_reset_token_not_found` when it cannot. Sends the `passwords` verifier.
     */
    checkResetToken(args: ArgsOf<'passwordsResetCheck'>): Promise<Ack>;
    resetByExistingPassword(
      args: ArgsOf<'passwordsResetExisting', 'session_duration_minutes'>,
    ): Promise<AuthResult>;
    /** Always a full session (the current one). */
    resetBySession(args: ArgsOf<'passwordsResetSession'>): Promise<FullSessionResult>;
    strengthCheck(args: ArgsOf<'passwordsStrengthCheck'>): Promise<PasswordStrengthResult>;
    /** Password reset for an address across its organizations (docs/protocol.md §7.2). */
    discovery: {
      /**
       * E-mails a discovery reset link (answered alike for an unknown address); adds
       * `pkce_code_challenge` when bootstrap requires PKCE for resets.
       */
      resetByEmailStart(args: ArgsOf<'passwordsDiscoveryResetStart'>): Promise<Ack>;
      /**
       * Sets the new password with the link's token: result DR, an intermediate session and the
       * organizations discovered. Sends the `passwords` verifier and clears the pair on success.
       */
      resetByEmail(args: ArgsOf<'passwordsDiscoveryReset'>): Promise<DiscoveryResult>;
    };
  };

  otps: {
    sms: {
      send(args: ArgsOf<'smsSend'>): Promise<Ack>;
      authenticate(args: ArgsOf<'smsAuthenticate'>): Promise<FullSessionResult>;
    };
  };

  totp: {
    create(args: ArgsOf<'totpCreate'>): Promise<TotpCreateResult>;
    authenticate(args: ArgsOf<'totpAuthenticate'>): Promise<FullSessionResult>;
  };

  recoveryCodes: {
    recover(args: ArgsOf<'recoveryCodesRecover'>): Promise<RecoveryCodesRecoverResult>;
    rotate(): Promise<RecoveryCodesResult>;
    get(): Promise<RecoveryCodesResult>;
  };

  sso: {
    /**
     * Navigates the page to `/v1/public/sso/start` on the API base, with a new `sso` challenge
     * when bootstrap requires PKCE for SSO; resolves once navigation starts.
     */
    start(args: {
      connection_id: string;
      login_redirect_url?: string;
      signup_redirect_url?: string;
    }): Promise<void>;
    /** AM result; sends the `sso` verifier and clears the pair on success. */
    authenticate(args: {
      sso_token: string;
      session_duration_minutes: number;
      locale?: string;
    }): Promise<AuthResult>;
  };

  oauth: {
    google: OAuthProviderMethods;
    microsoft: OAuthProviderMethods;
    googleOneTap: GoogleOneTapMethods;
    /** AM result; sends the `oauth` verifier and clears the pair on success. */
    authenticate(args: {
      oauth_token: string;
      session_duration_minutes: number;
      locale?: string;
    }): Promise<OAuthAuthenticateResult>;
    discovery: {
      authenticate(args: { discovery_oauth_token: string }): Promise<DiscoveryResult>;
    };
  };

  rbac: {
    /** Synchronous check against the cached policy; false when no session or policy. */
    isAuthorizedSync(resourceId: string, action: string): boolean;
    /** Waits for bootstrap's policy, then checks. */
    isAuthorized(resourceId: string, action: string): Promise<boolean>;
    /** Every permission of the caller: resource → action → granted. */
    allPermissions(): Promise<Record<string, Record<string, boolean>>>;
  };

  /** Queue a telemetry event (batched: up to 15 per request, flushed every 800 ms). */
  logEvent(name: string, details?: Record<string, unknown>): void;

  /** Stops timers and listeners (tests and unmounting hosts). */
  destroy(): void;
}
