/** The public surface of the Gatehouse browser client: the contract the widget is written against. */
import type {
  AuthResult,
  BootstrapData,
  DiscoveryOrganizationsResult,
  DiscoveryResult,
  FullSessionResult,
  MagicLinkAuthenticateResult,
  Member,
  MemberSearchResult,
  MemberSession,
  Organization,
  OrganizationSearchResult,
  Ack,
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

/** The session state held by the client (spec §3). */
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

export interface GatehouseClient {
  readonly publicToken: string;

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
