/**
 * Full-page navigations (docs/protocol.md §8) and the routes identity providers call: no CORS and
 * no JSON envelope. They answer redirects, HTML pages or XML; failures are small HTML pages that
 * name the `error_type`.
 */
import { z } from 'zod';
import { endpoint } from './endpoint.js';

/** A redirect or a page, not a JSON envelope. */
type Page = string;

export const NAVIGATION_ENDPOINTS = {
  ssoStart: endpoint<Page>()({
    method: 'GET',
    path: '/v1/public/sso/start',
    credential: 'none',
    summary:
      'Starts SSO: query public_token, connection_id, pkce_code_challenge, login_redirect_url, signup_redirect_url; answers 302 to the identity provider (§8).',
    body: null,
  }),
  samlMetadata: endpoint<Page>()({
    method: 'GET',
    path: '/v1/sso/saml/metadata/:connection_id',
    credential: 'none',
    summary: "A SAML connection's service-provider metadata XML, for the IdP admin.",
    body: null,
  }),
  samlAcs: endpoint<Page>()({
    method: 'POST',
    path: '/v1/sso/saml/acs/:connection_id',
    credential: 'none',
    summary:
      'The assertion consumer service (HTTP-POST binding, form-encoded SAMLResponse and RelayState); answers 302 to the app with an sso token.',
    body: z.object({
      SAMLResponse: z.string().min(1).max(1_000_000),
      RelayState: z.string().max(2048).optional(),
    }),
  }),
  oidcCallback: endpoint<Page>()({
    method: 'GET',
    path: '/v1/sso/oidc/callback',
    credential: 'none',
    summary:
      'Where OIDC providers return (code and state); answers 302 to the app with an sso token.',
    body: null,
  }),
} as const;
