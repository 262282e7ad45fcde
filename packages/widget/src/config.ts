/** The widget configuration of docs/widget.md §3, its defaults, and the one function that applies them. */
import {
  DEFAULT_SESSION_DURATION_MINUTES,
  PASSWORD_SESSION_DURATION_FALLBACK_MINUTES,
  type MfaMethod,
} from '@gatehouse/protocol';
import type { MessageKey } from './messages/en.js';
import { pageLocale, resolveMessages, type ResolvedMessages } from './messages/locales.js';

/** The primary sign-in methods the widget can offer. */
export const PRODUCTS = ['emailMagicLinks', 'passwords', 'oauth', 'sso'] as const;
/** A primary sign-in method. */
export type Product = (typeof PRODUCTS)[number];

/** The OAuth identity providers: the general web-account and the workplace-account provider. */
export const OAUTH_PROVIDERS = ['google', 'microsoft'] as const;
/** An OAuth identity provider. */
export type OAuthProvider = (typeof OAUTH_PROVIDERS)[number];

/** One OAuth provider, by name or with its own scopes and parameters. */
export type OAuthProviderOption =
  | OAuthProvider
  | {
      type: OAuthProvider;
      /** Offer the provider's one-tap sign-in (general web-account provider only). */
      one_tap?: boolean;
      customScopes?: string[];
      providerParams?: Record<string, string>;
    };

/**
 * How the widget finds the organization to sign in to, or `passwordReset` for the page a password
 * reset link leads to (it starts on the reset form).
 */
export type AuthFlowType = 'organization' | 'discovery' | 'passwordReset';

/**
 * Configuration of the login widget (docs/widget.md §3). Only `products` and `authFlowType` are required.
 *
 * @example
 * const config: WidgetConfig = {
 *   products: ['emailMagicLinks', 'oauth'],
 *   authFlowType: 'discovery',
 *   emailMagicLinksOptions: { discoveryRedirectURL: 'https://app.example.com/authenticate' },
 *   oauthOptions: { providers: ['google', 'microsoft'] },
 * };
 */
export interface WidgetConfig {
  products: Product[];
  authFlowType: AuthFlowType;
  /**
   * The organization flow's organization, for a page that knows it (from its own route, say).
   * Without it the slug is read from the page URL by the project's slug pattern.
   */
  organizationSlug?: string;
  sessionOptions?: { sessionDurationMinutes?: number };
  emailMagicLinksOptions?: {
    loginRedirectURL?: string;
    signupRedirectURL?: string;
    discoveryRedirectURL?: string;
    loginTemplateId?: string;
    signupTemplateId?: string;
    domainHint?: string;
  };
  oauthOptions?: {
    providers: OAuthProviderOption[];
    loginRedirectURL?: string;
    signupRedirectURL?: string;
    discoveryRedirectURL?: string;
    customScopes?: string[];
    providerParams?: Record<string, string>;
  };
  ssoOptions?: { loginRedirectURL?: string; signupRedirectURL?: string };
  passwordOptions?: {
    resetPasswordRedirectURL?: string;
    resetPasswordExpirationMinutes?: number;
    resetPasswordTemplateId?: string;
  };
  passwordConfig?: { ludsComplexity?: number; ludsMinimumCount?: number };
  /** In discovery, sign in straight away when the e-mail has exactly one active membership. */
  directLoginForSingleMembership?: {
    status: boolean;
    ignoreInvites?: boolean;
    ignoreJitProvisioning?: boolean;
  };
  disableCreateOrganization?: boolean;
  /** MFA methods the widget may offer for enrollment. */
  mfaProductInclude?: MfaMethod[];
  /** The order in which MFA methods are offered; the rest follow. */
  mfaProductOrder?: MfaMethod[];
  /** Render inside a shadow root (used by `mount`). */
  enableShadowDOM?: boolean;
  /**
   * The widget's language, a BCP 47 tag (docs/widget.md §3): `en` (the default), `es`, or one
   * given in `locales`. `es-MX` uses the `es` table. Sent to the server with the calls that send
   * e-mail or SMS. An unknown one is English, with a console warning. Without it, the page's
   * `<html lang>`, else the browser's language, when the widget speaks it; otherwise English.
   */
  locale?: string;
  /** Replaces some messages of the chosen locale, by key. */
  messages?: Partial<Record<MessageKey, string>>;
  /**
   * Tables for more locales, or replacements in a shipped one, by locale. A key a table lacks
   * falls back to the shipped locale, then to English.
   */
  locales?: Record<string, Partial<Record<MessageKey, string>>>;
}

/** One OAuth provider with its options filled in. */
export interface ResolvedOAuthProvider {
  type: OAuthProvider;
  oneTap: boolean;
  customScopes: string[];
  providerParams: Record<string, string>;
}

/** The configuration with every default applied; the machine reads only this. */
export interface ResolvedConfig {
  products: readonly Product[];
  authFlowType: AuthFlowType;
  organizationSlug: string | null;
  sessionDurationMinutes: number;
  /** Password login and reset by e-mail fall back to 30 minutes rather than 60 (docs/widget.md §9). */
  passwordSessionDurationMinutes: number;
  emailMagicLinksOptions: NonNullable<WidgetConfig['emailMagicLinksOptions']>;
  oauth: {
    providers: ResolvedOAuthProvider[];
    loginRedirectURL?: string;
    signupRedirectURL?: string;
    discoveryRedirectURL?: string;
  };
  ssoOptions: NonNullable<WidgetConfig['ssoOptions']>;
  passwordOptions: NonNullable<WidgetConfig['passwordOptions']>;
  passwordConfig: NonNullable<WidgetConfig['passwordConfig']>;
  directLoginForSingleMembership: {
    status: boolean;
    ignoreInvites: boolean;
    ignoreJitProvisioning: boolean;
  };
  disableCreateOrganization: boolean;
  mfaProductInclude: readonly MfaMethod[];
  mfaProductOrder: readonly MfaMethod[];
  enableShadowDOM: boolean;
  /** The locale settled by `resolveMessages`: what the widget sends to the server. */
  locale: string;
  messages: ResolvedMessages;
}

function resolveProvider(
  option: OAuthProviderOption,
  shared: NonNullable<WidgetConfig['oauthOptions']>,
): ResolvedOAuthProvider {
  const own = typeof option === 'string' ? { type: option } : option;
  return {
    type: own.type,
    oneTap: 'one_tap' in own && own.one_tap === true,
    // A provider's own scopes and parameters refine the shared ones.
    customScopes: [
      ...(shared.customScopes ?? []),
      ...(('customScopes' in own && own.customScopes) || []),
    ],
    providerParams: {
      ...shared.providerParams,
      ...(('providerParams' in own && own.providerParams) || {}),
    },
  };
}

/** Applies the defaults of docs/widget.md §3 and §9 to a widget configuration. */
export function resolveConfig(config: WidgetConfig): ResolvedConfig {
  const oauthOptions = config.oauthOptions ?? { providers: [] };
  const direct = config.directLoginForSingleMembership;
  // No locale given: the page's language, when the widget speaks it (docs/widget.md §3).
  const locale = config.locale ?? pageLocale(config.locales);
  const messages = resolveMessages(locale, config.locales, config.messages);
  return {
    products: config.products.filter((p, i, all) => all.indexOf(p) === i),
    authFlowType: config.authFlowType,
    organizationSlug: config.organizationSlug?.trim() || null,
    sessionDurationMinutes:
      config.sessionOptions?.sessionDurationMinutes ?? DEFAULT_SESSION_DURATION_MINUTES,
    passwordSessionDurationMinutes:
      config.sessionOptions?.sessionDurationMinutes ?? PASSWORD_SESSION_DURATION_FALLBACK_MINUTES,
    emailMagicLinksOptions: config.emailMagicLinksOptions ?? {},
    oauth: {
      providers: oauthOptions.providers.map((p) => resolveProvider(p, oauthOptions)),
      loginRedirectURL: oauthOptions.loginRedirectURL,
      signupRedirectURL: oauthOptions.signupRedirectURL,
      discoveryRedirectURL: oauthOptions.discoveryRedirectURL,
    },
    ssoOptions: config.ssoOptions ?? {},
    passwordOptions: config.passwordOptions ?? {},
    passwordConfig: config.passwordConfig ?? {},
    directLoginForSingleMembership: {
      status: direct?.status ?? false,
      ignoreInvites: direct?.ignoreInvites ?? false,
      ignoreJitProvisioning: direct?.ignoreJitProvisioning ?? false,
    },
    disableCreateOrganization: config.disableCreateOrganization ?? false,
    mfaProductInclude: config.mfaProductInclude ?? [],
    mfaProductOrder: config.mfaProductOrder ?? [],
    enableShadowDOM: config.enableShadowDOM ?? false,
    locale: messages.locale,
    messages,
  };
}
