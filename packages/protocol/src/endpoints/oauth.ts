/** Social sign-in: the project's OAuth provider settings, the SDK's OAuth completions, the navigations. */
import { z } from 'zod';
import type { DiscoveryResult } from '../api.js';
import { DEFAULT_SESSION_DURATION_MINUTES } from '../constants.js';
import type { OAuthAuthenticateData, OAuthProviderResult, OAuthProvidersResult } from '../oauth.js';
import { endpoint } from './endpoint.js';
import * as f from './fields.js';

/** A redirect or a page, not a JSON envelope. */
type Page = string;

export const oauthProviderFields = z.object({
  enabled: z.boolean().optional(),
  client_id: f.text.max(512).optional(),
  client_secret: f.text.max(2048).optional(),
  issuer: f.url.optional(),
  onetap_client_id: z.string().max(512).optional(),
});

export const OAUTH_ENDPOINTS = {
  oauthProviders: endpoint<OAuthProvidersResult>()({
    method: 'GET',
    path: '/v1/b2b/oauth/providers',
    credential: 'secret',
    summary: "The project's OAuth provider settings (secrets are never returned).",
    body: null,
  }),
  oauthSetProvider: endpoint<OAuthProviderResult>()({
    method: 'PUT',
    path: '/v1/b2b/oauth/providers/:provider',
    credential: 'secret',
    summary: 'Sets up Google or Microsoft sign-in for the project: client, issuer, on or off.',
    body: oauthProviderFields,
  }),
  oauthAuthenticate: endpoint<OAuthAuthenticateData>()({
    method: 'POST',
    path: '/sdk/v1/b2b/oauth/authenticate',
    credential: 'A',
    captcha: true,
    summary:
      'Redeems the token an OAuth sign-in returned with: result AM plus provider_values (§7.6).',
    body: z.object({
      oauth_token: f.id,
      session_duration_minutes: f.sessionDuration.default(DEFAULT_SESSION_DURATION_MINUTES),
      locale: f.locale.optional(),
      pkce_code_verifier: f.pkceVerifier.optional(),
      intermediate_session_token: f.ist,
    }),
  }),
  oauthDiscoveryAuthenticate: endpoint<DiscoveryResult>()({
    method: 'POST',
    path: '/sdk/v1/b2b/oauth/discovery/authenticate',
    credential: 'A',
    captcha: true,
    summary: 'Redeems a discovery OAuth token: result DR (§7.6).',
    body: z.object({
      discovery_oauth_token: f.id,
      pkce_code_verifier: f.pkceVerifier.optional(),
    }),
  }),
  oneTapStart: endpoint<{ google_client_id: string }>()({
    method: 'GET',
    path: '/sdk/v1/b2b/oauth/google/onetap/start',
    credential: 'A',
    summary: 'Google One Tap’s client ID, or "" when One Tap is off (§7.8).',
    body: null,
  }),
  oneTapSubmit: endpoint<{ redirect_url: string }>()({
    method: 'POST',
    path: '/sdk/v1/b2b/oauth/google/onetap/submit',
    credential: 'A',
    summary:
      'Verifies a One Tap ID token for an organization: the URL to go to, with an oauth token (§7.8).',
    body: z.object({
      id_token: z.string().min(1).max(8192),
      organization_id: f.id,
      login_redirect_url: f.url.optional(),
      signup_redirect_url: f.url.optional(),
      pkce_code_challenge: f.pkceChallenge.optional(),
    }),
  }),
  oneTapDiscoverySubmit: endpoint<{ redirect_url: string }>()({
    method: 'POST',
    path: '/sdk/v1/b2b/oauth/google/onetap/discovery/submit',
    credential: 'A',
    summary:
      'Verifies a One Tap ID token for discovery: the URL to go to, with a discovery_oauth token (§7.8).',
    body: z.object({
      id_token: z.string().min(1).max(8192),
      discovery_redirect_url: f.url.optional(),
      pkce_code_challenge: f.pkceChallenge.optional(),
    }),
  }),
  oauthStart: endpoint<Page>()({
    method: 'GET',
    path: '/v1/b2b/public/oauth/:provider/start',
    credential: 'none',
    summary:
      'Starts OAuth into an organization (§8): answers 302 to the provider with our state, nonce and PKCE.',
    body: null,
  }),
  oauthDiscoveryStart: endpoint<Page>()({
    method: 'GET',
    path: '/v1/b2b/public/oauth/:provider/discovery/start',
    credential: 'none',
    summary: 'Starts OAuth discovery (§8): answers 302 to the provider.',
    body: null,
  }),
  oauthCallback: endpoint<Page>()({
    method: 'GET',
    path: '/v1/b2b/public/oauth/:provider/callback',
    credential: 'none',
    summary:
      'Where the providers return; answers 302 to the app with an oauth or discovery_oauth token.',
    body: null,
  }),
} as const;
