/**
 * Password reset in discovery (§7.2): a reset link sent to an address rather than to one
 * organization's member, and the new password set with it, answered as a discovery sign-in
 * (result DR). The browser API's calls and the management API's, shaped as the hosted provider's
 * SDKs send them (`passwords.discovery.resetByEmailStart` and `resetByEmail` of the browser SDK,
 * `passwords.discovery.email.resetStart` and `reset` of the backend SDK).
 */
import { z } from 'zod';
import type { Ack, DiscoveryResult } from '../api.js';
import { endpoint } from './endpoint.js';
import * as f from './fields.js';

const resetStartBody = z.object({
  email_address: f.email,
  reset_password_redirect_url: f.url.optional(),
  discovery_redirect_url: f.url.optional(),
  reset_password_expiration_minutes: z
    .number()
    .int('must be an integer')
    .min(5, 'must be at least 5')
    .max(10_080, 'must be at most 10080')
    .optional(),
  reset_password_template_id: f.templateId.optional(),
  verify_email_template_id: f.templateId.optional(),
  locale: f.locale.optional(),
  pkce_code_challenge: f.pkceChallenge.optional(),
});

const resetBody = {
  password_reset_token: f.id,
  password: f.password,
  pkce_code_verifier: f.pkceVerifier.optional(),
};

export const PASSWORD_DISCOVERY_ENDPOINTS = {
  passwordsDiscoveryResetStart: endpoint<Ack>()({
    method: 'POST',
    path: '/sdk/v1/b2b/passwords/discovery/reset/start',
    credential: 'A',
    captcha: true,
    summary:
      'E-mails a password reset link for every organization of the address; answered alike for an unknown address (§7.2).',
    body: resetStartBody,
  }),
  passwordsDiscoveryReset: endpoint<DiscoveryResult>()({
    method: 'POST',
    path: '/sdk/v1/b2b/passwords/discovery/reset',
    credential: 'A',
    captcha: true,
    summary:
      "Sets the new password of the address's memberships with a discovery reset link, once: result DR (§7.2, §7.3).",
    body: z.object({ ...resetBody, intermediate_session_token: f.ist }),
  }),
  backendPasswordsDiscoveryResetStart: endpoint<Ack>()({
    method: 'POST',
    path: '/v1/b2b/passwords/discovery/email/reset/start',
    credential: 'secret',
    summary:
      'E-mails a password reset link for every organization of the address, for a host backend (§7.2).',
    body: resetStartBody,
  }),
  backendPasswordsDiscoveryReset: endpoint<DiscoveryResult>()({
    method: 'POST',
    path: '/v1/b2b/passwords/discovery/email/reset',
    credential: 'secret',
    summary:
      "Sets the new password of the address's memberships with a discovery reset link, once, for a host backend: result DR (§7.2, §7.3).",
    body: z.object(resetBody),
  }),
} as const;
