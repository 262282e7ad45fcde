/** `gatehouse oauth show|set`: a project's Google and Microsoft sign-in. */
import { OAUTH_PROVIDERS, type OAuthProviderSettings } from '@gatehouse/protocol';
import { defineCommand, oneOf, option } from './command.js';
import { DATABASE_AND_URL_SETTINGS, publicUrlWarning } from './environment.js';
import { withProject } from './open.js';

function describe(p: OAuthProviderSettings): string {
  return (
    `provider:         ${p.provider} (${p.enabled ? 'on' : 'off'})\n` +
    `client_id:        ${p.client_id || '(not set)'}\n` +
    `client_secret:    ${p.client_secret_set ? '(set)' : '(not set)'}\n` +
    `issuer:           ${p.issuer}\n` +
    `redirect URI:     ${p.redirect_uri}\n` +
    (p.provider === 'google' ? `one tap client:   ${p.onetap_client_id || '(off)'}\n` : '')
  );
}

/** Shows both providers' settings. */
export const oauthShow = defineCommand({
  name: ['oauth', 'show'],
  summary: "Show a project's Google and Microsoft sign-in settings",
  usage: '--project ID',
  description:
    'Shows whether each provider is on, its client ID (never the secret), its issuer and the ' +
    'redirect URI to register at the provider, under PUBLIC_URL.',
  options: { project: option('ID', 'The project').required() },
  environment: DATABASE_AND_URL_SETTINGS,
  async run(values, io) {
    await withProject(io, values.project, async (admin) => {
      io.stdout((await admin.oauthProviders(values.project)).map(describe).join('\n'));
      io.stderr(publicUrlWarning(io.env));
    });
  },
});

/** Changes one provider's settings. */
export const oauthSet = defineCommand({
  name: ['oauth', 'set'],
  summary: 'Set up Google or Microsoft sign-in for a project',
  usage:
    '--project ID --provider google|microsoft [--client-id ID] [--client-secret S] [--issuer URL] ' +
    '[--enabled true|false] [--onetap-client-id ID]',
  description:
    'Stores the client the provider issued (the secret encrypted with the server key) and turns ' +
    'the provider on; the provider’s discovery document must be readable. Register the printed ' +
    'redirect URI at the provider. --issuer points at another OpenID provider than the real one.',
  options: {
    project: option('ID', 'The project').required(),
    // Checked by the service, as the management API checks it: same refusal, same error_type.
    provider: option(OAUTH_PROVIDERS.join('|'), 'The provider').required(),
    'client-id': option('ID', 'The OAuth client ID'),
    'client-secret': option('S', 'The OAuth client secret'),
    issuer: option('URL', 'The issuer, when not the real provider'),
    enabled: option('true|false', 'Whether the provider is on (default: on)', {
      parse: oneOf(['true', 'false']),
    }),
    'onetap-client-id': option('ID', 'Google One Tap’s client ID'),
  },
  environment: DATABASE_AND_URL_SETTINGS,
  async run(values, io) {
    await withProject(io, values.project, async (admin) => {
      const saved = await admin.setOAuthProvider(values.project, values.provider, {
        enabled: values.enabled === undefined ? true : values.enabled === 'true',
        ...(values['client-id'] ? { client_id: values['client-id'] } : {}),
        ...(values['client-secret'] ? { client_secret: values['client-secret'] } : {}),
        ...(values.issuer ? { issuer: values.issuer } : {}),
        ...(values['onetap-client-id'] ? { onetap_client_id: values['onetap-client-id'] } : {}),
      });
      io.stdout(`Provider saved.\n${describe(saved)}`);
      io.stderr(publicUrlWarning(io.env));
    });
  },
});
