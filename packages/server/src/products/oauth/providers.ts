/**
 * Google and Microsoft as a project configures them: the settings, and each provider's
 * openid-client configuration read from its discovery document (cached per process).
 */
import {
  DEFAULT_OAUTH_ISSUERS,
  OAUTH_PROVIDERS,
  type OAuthProviderName,
  type OAuthProviderSettings,
} from '@gatehouse/protocol';
import { oauthProviderFields } from '@gatehouse/protocol/endpoints';
import type * as oidc from 'openid-client';
import { isoAt, type Context } from '../../context.js';
import { checkInput, fail, isFailure, type Failure } from '../../result.js';
import type { OAuthProvidersTable } from '../../store/schema.js';
import type { Project } from '../../tenancy/projects/service.js';
import { cachedConfiguration, forgetConfiguration } from '../../auth/federated/oidc-client.js';
import { discoverProvider } from '../../auth/federated/oidc-discovery.js';
import { providerNotConfigured } from './errors.js';
import { providerRow, saveProviderRow } from './store.js';

export function isProvider(name: string): name is OAuthProviderName {
  return (OAUTH_PROVIDERS as readonly string[]).includes(name);
}

export function redirectUri(ctx: Context, provider: OAuthProviderName): string {
  return `${ctx.config.publicUrl}/v1/b2b/public/oauth/${provider}/callback`;
}

function toSettings(
  ctx: Context,
  provider: OAuthProviderName,
  row:
    | Pick<
        OAuthProvidersTable,
        'enabled' | 'client_id' | 'secret_encrypted' | 'issuer' | 'onetap_client_id'
      >
    | undefined,
): OAuthProviderSettings {
  return {
    provider,
    enabled: row?.enabled === 1,
    client_id: row?.client_id ?? '',
    client_secret_set: (row?.secret_encrypted ?? null) !== null,
    issuer: row?.issuer || DEFAULT_OAUTH_ISSUERS[provider],
    onetap_client_id: row?.onetap_client_id ?? '',
    redirect_uri: redirectUri(ctx, provider),
  };
}

/** The project's settings for both providers. */
export async function listProviders(
  ctx: Context,
  project: Project,
): Promise<OAuthProviderSettings[]> {
  return Promise.all(
    OAUTH_PROVIDERS.map(async (p) => toSettings(ctx, p, await providerRow(ctx.db, project.id, p))),
  );
}

/**
 * A change of one provider's settings as any caller gives it (`PUT /v1/b2b/oauth/providers/:p`'s
 * body, `gatehouse oauth set`, the admin interface); fields left out keep their value.
 */
export interface OAuthProviderChange {
  enabled?: boolean | undefined;
  client_id?: string | undefined;
  client_secret?: string | undefined;
  /** Another OpenID provider than the real one (a stand-in in tests). */
  issuer?: string | undefined;
  onetap_client_id?: string | undefined;
}

/**
 * Changes a provider's settings. The change must pass the management API's schema, checked here
 * so that every way in refuses the same input. Turning a provider on needs a client ID and
 * secret, and its issuer's discovery document must be readable: a broken setting is refused,
 * not saved.
 *
 * @example
 * await setProvider(ctx, project, 'google', { client_id, client_secret });
 */
export async function setProvider(
  ctx: Context,
  project: Project,
  provider: string,
  change: OAuthProviderChange,
): Promise<OAuthProviderSettings | Failure> {
  if (!isProvider(provider))
    return fail('invalid_request', 'The provider must be google or microsoft.');
  const input = checkInput(oauthProviderFields, change);
  if (isFailure(input)) return input;
  const current = await providerRow(ctx.db, project.id, provider);
  const row: OAuthProvidersTable = {
    project_id: project.id,
    provider,
    enabled: (input.enabled ?? current?.enabled === 1) ? 1 : 0,
    client_id: input.client_id ?? current?.client_id ?? '',
    secret_encrypted:
      input.client_secret !== undefined
        ? ctx.box.seal(input.client_secret)
        : (current?.secret_encrypted ?? null),
    issuer: input.issuer ?? current?.issuer ?? '',
    onetap_client_id: input.onetap_client_id ?? current?.onetap_client_id ?? '',
    updated_at: isoAt(ctx.now()),
  };
  if (row.enabled === 1) {
    if (row.client_id === '' || row.secret_encrypted === null) {
      return fail('invalid_request', 'Give a client_id and a client_secret to turn a provider on.');
    }
    const config = await discoverProvider(
      row.issuer || DEFAULT_OAUTH_ISSUERS[provider],
      row.client_id,
      ctx.box.open(row.secret_encrypted),
    );
    if (isFailure(config)) return config;
  }
  await saveProviderRow(ctx.db, row);
  forgetConfiguration(`oauth:${project.id}:${provider}`);
  return toSettings(ctx, provider, row);
}

/** The provider's openid-client configuration, or a failure when it is off or unreachable. */
export async function providerConfig(
  ctx: Context,
  project: Project,
  provider: OAuthProviderName,
): Promise<oidc.Configuration | Failure> {
  const row = await providerRow(ctx.db, project.id, provider);
  if (!row || row.enabled !== 1 || row.client_id === '' || row.secret_encrypted === null) {
    return providerNotConfigured();
  }
  const secret = row.secret_encrypted;
  return cachedConfiguration(`oauth:${project.id}:${provider}`, row.updated_at, () =>
    discoverProvider(
      row.issuer || DEFAULT_OAUTH_ISSUERS[provider],
      row.client_id,
      ctx.box.open(secret),
    ),
  );
}

/** Google's configuration for a project (One Tap verifies against its JWKS). */
export function googleConfig(
  ctx: Context,
  project: Project,
): Promise<oidc.Configuration | Failure> {
  return providerConfig(ctx, project, 'google');
}
