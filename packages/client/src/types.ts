/** The public surface of the Gatehouse browser client: the contract the widget is written against. */
import type {
  Ack,
  AuthResult,
  BootstrapData,
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
  PasswordStrengthResult,
  RbacPolicy,
} from '@gatehouse/protocol';

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

/** `{member_id, member, organization}`: the answer of a password reset start. */
export interface MemberOrganizationResult extends Ack {
  member_id: string;
  member: Member;
  organization: Organization;
}

/** `passwords/strength_check` (docs/protocol.md §7.2): the same shape the server computes. */
export type { PasswordStrengthResult };

/** `POST /b2b/totp`: a pending registration with its QR code (a PNG data URL). */
export interface TotpCreateResult extends Ack {
  totp_id: string;
  secret: string;
  qr_code: string;
  recovery_codes: string[];
}

export type RecoveryCodesRecoverResult = FullSessionResult & { recovery_codes_remaining: number };

export interface RecoveryCodesResult extends Ack {
  recovery_codes: string[];
}

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
    authenticate(args?: { session_duration_minutes?: number }): Promise<FullSessionResult>;
    revoke(args?: { forceClear?: boolean }): Promise<Ack>;
    exchange(args: {
      organization_id: string;
      session_duration_minutes: number;
      locale?: string;
    }): Promise<AuthResult>;
  };

  magicLinks: {
    email: {
      loginOrSignup(args: {
        email_address: string;
        organization_id: string;
        login_redirect_url?: string;
        signup_redirect_url?: string;
        login_template_id?: string;
        signup_template_id?: string;
        locale?: string;
      }): Promise<Ack>;
      discovery: {
        send(args: {
          email_address: string;
          discovery_redirect_url?: string;
          login_template_id?: string;
          locale?: string;
        }): Promise<Ack>;
      };
    };
    authenticate(args: {
      magic_links_token: string;
      session_duration_minutes: number;
      locale?: string;
    }): Promise<MagicLinkAuthenticateResult>;
    discovery: {
      authenticate(args: { discovery_magic_links_token: string }): Promise<DiscoveryResult>;
    };
  };

  discovery: {
    organizations: {
      list(): Promise<DiscoveryOrganizationsResult>;
      create(args: {
        session_duration_minutes: number;
        organization_name?: string;
        organization_slug?: string;
      }): Promise<AuthResult>;
    };
    intermediateSessions: {
      exchange(args: {
        organization_id: string;
        session_duration_minutes: number;
        locale?: string;
      }): Promise<AuthResult>;
    };
  };

  organization: {
    getBySlug(args: { organization_slug: string }): Promise<OrganizationSearchResult>;
    members: {
      /** Anonymous member lookup by e-mail in an organization. */
      search(args: { email_address: string; organization_id: string }): Promise<MemberSearchResult>;
    };
  };

  passwords: {
    /** AM result; sends the IST and (ignored by the server) the `passwords` verifier. */
    authenticate(args: {
      organization_id: string;
      email_address: string;
      password: string;
      session_duration_minutes: number;
      locale?: string;
    }): Promise<AuthResult>;
    /** Sends the reset e-mail; adds `code_challenge` when bootstrap requires PKCE for resets. */
    resetByEmailStart(args: {
      organization_id: string;
      email_address: string;
      login_redirect_url?: string;
      reset_password_redirect_url?: string;
      reset_password_expiration_minutes?: number;
      reset_password_template_id?: string;
      locale?: string;
    }): Promise<MemberOrganizationResult>;
    /** AM result; sends the `passwords` verifier and clears the pair on success. */
    resetByEmail(args: {
      password_reset_token: string;
      password: string;
      session_duration_minutes: number;
      locale?: string;
    }): Promise<AuthResult>;
    resetByExistingPassword(args: {
      organization_id: string;
      email_address: string;
      existing_password: string;
      new_password: string;
      session_duration_minutes: number;
      locale?: string;
    }): Promise<AuthResult>;
    /** Always a full session (the current one). */
    resetBySession(args: { password: string }): Promise<FullSessionResult>;
    strengthCheck(args: {
      password: string;
      email_address?: string;
    }): Promise<PasswordStrengthResult>;
  };

  otps: {
    sms: {
      send(args: {
        organization_id: string;
        member_id: string;
        mfa_phone_number?: string;
        locale?: string;
      }): Promise<Ack>;
      authenticate(args: {
        organization_id: string;
        member_id: string;
        code: string;
        set_mfa_enrollment?: MfaEnrollmentChange;
        session_duration_minutes?: number;
      }): Promise<FullSessionResult>;
    };
  };

  totp: {
    create(args: {
      organization_id: string;
      member_id: string;
      expiration_minutes?: number;
    }): Promise<TotpCreateResult>;
    authenticate(args: {
      organization_id: string;
      member_id: string;
      code: string;
      set_mfa_enrollment?: MfaEnrollmentChange;
      set_default_mfa?: boolean;
      session_duration_minutes?: number;
    }): Promise<FullSessionResult>;
  };

  recoveryCodes: {
    recover(args: {
      organization_id: string;
      member_id: string;
      recovery_code: string;
      session_duration_minutes?: number;
    }): Promise<RecoveryCodesRecoverResult>;
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
