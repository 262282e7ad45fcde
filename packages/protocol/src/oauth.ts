/** Social sign-in on the wire: the OAuth providers of a project (docs/protocol.md §7.6, §8). */
import type { Ack, AuthResult } from './api.js';

/** The providers Gatehouse signs in with. */
export type OAuthProviderName = 'google' | 'microsoft';
export const OAUTH_PROVIDERS: readonly OAuthProviderName[] = ['google', 'microsoft'];

/** The real providers' issuers, used unless a project overrides them. */
export const DEFAULT_OAUTH_ISSUERS: Readonly<Record<OAuthProviderName, string>> = {
  google: 'https://accounts.google.com',
  microsoft: 'https://login.microsoftonline.com/common/v2.0',
};

/** A project's settings for one provider; the client secret is never returned. */
export interface OAuthProviderSettings {
  provider: OAuthProviderName;
  enabled: boolean;
  client_id: string;
  client_secret_set: boolean;
  /** The OpenID issuer whose discovery document is used. */
  issuer: string;
  /** Google One Tap's client ID; `""` when One Tap is off. */
  onetap_client_id: string;
  /** What to register at the provider as the redirect URI. */
  redirect_uri: string;
}

export interface OAuthProvidersResult extends Ack {
  providers: OAuthProviderSettings[];
}

export interface OAuthProviderResult extends Ack {
  provider: OAuthProviderSettings;
}

/** The provider's tokens, as `oauth/authenticate` returns them. */
export interface OAuthProviderValues {
  access_token: string;
  id_token: string;
  refresh_token: string;
  scopes: string[];
  expires_at: string;
}

export type OAuthAuthenticateData = AuthResult & { provider_values: OAuthProviderValues };
