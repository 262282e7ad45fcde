/**
 * A project's settings as the management API and the CLI show and change them
 * (`GET`/`PUT /v1/b2b/project`, `gatehouse project show|update`): the wire view, and the checks a
 * change must pass before anything is stored.
 */
import { REDIRECT_URL_KINDS, type ProjectSettings } from '@gatehouse/protocol';
import type { projectSettingsFields } from '@gatehouse/protocol/endpoints';
import type { z } from 'zod';
import type { Context } from '../../context.js';
import { fail, isFailure, type Failure } from '../../result.js';
import type { Project, RedirectUrls, UpdateProjectInput } from './service.js';

/** A change of settings as the management API takes it; fields left out keep their value. */
export type ProjectSettingsPatch = z.output<typeof projectSettingsFields>;

/** The placeholder a slug pattern must hold exactly once (docs/protocol.md §6). */
const SLUG_PLACEHOLDER = '{{slug}}';

/** A project's settings on the wire. */
export function projectSettings(project: Project): ProjectSettings {
  const redirects = Object.fromEntries(
    REDIRECT_URL_KINDS.map((kind) => [kind, project.redirectUrls[kind] ?? []]),
  ) as ProjectSettings['redirect_urls'];
  return {
    project_id: project.id,
    name: project.name,
    environment: project.environment,
    public_token: project.publicToken,
    slug_pattern: project.slugPattern,
    pkce_required_for_email_magic_links: project.pkceRequired.email_magic_links,
    pkce_required_for_password_resets: project.pkceRequired.password_resets,
    pkce_required_for_oauth: project.pkceRequired.oauth,
    pkce_required_for_sso: project.pkceRequired.sso,
    authorized_origins: project.authorizedOrigins,
    redirect_urls: redirects,
    create_organization_enabled: project.createOrganizationEnabled,
    password_policy: { ...project.passwordPolicy },
    session_max_lifetime_minutes: project.sessionMaxLifetimeMinutes,
    display_watermark: project.displayWatermark,
  };
}

const isHttp = (url: URL) => url.protocol === 'http:' || url.protocol === 'https:';

/** `https://app.example/{{slug}}/login`: an http(s) URL holding `{{slug}}` once, or null. */
function checkSlugPattern(pattern: string | null): Failure | null {
  if (pattern === null) return null;
  const refused = fail(
    'invalid_request',
    `slug_pattern must be an absolute http(s) URL holding ${SLUG_PLACEHOLDER} exactly once, ` +
      `like https://app.example.com/${SLUG_PLACEHOLDER}/login (or null for none).`,
  );
  if (pattern.split(SLUG_PLACEHOLDER).length !== 2) return refused;
  let url: URL;
  try {
    url = new URL(pattern.replace(SLUG_PLACEHOLDER, 'slug'));
  } catch {
    return refused;
  }
  return isHttp(url) ? null : refused;
}

/**
 * The origins normalized (`https://a.example:443/` → `https://a.example`) and deduplicated, or a
 * failure naming the first that is not a bare http(s) origin: a path, query, fragment or
 * credentials would be silently dropped, so they are refused instead.
 */
function checkOrigins(origins: string[]): string[] | Failure {
  const normalized: string[] = [];
  for (const [i, origin] of origins.entries()) {
    let url: URL | null = null;
    try {
      url = new URL(origin);
    } catch {
      // Reported below.
    }
    if (
      !url ||
      !isHttp(url) ||
      url.pathname !== '/' ||
      url.search !== '' ||
      url.hash !== '' ||
      url.username !== '' ||
      url.password !== '' ||
      origin.endsWith('?') ||
      origin.endsWith('#')
    ) {
      return fail(
        'invalid_request',
        `authorized_origins[${i}]: "${origin}" is not an origin: give the scheme (http or https), ` +
          'the host and the port only, like https://app.example.com.',
      );
    }
    if (!normalized.includes(url.origin)) normalized.push(url.origin);
  }
  return normalized;
}

/** The redirect URL lists, or a failure naming the first that is not an absolute http(s) URL. */
function checkRedirectUrls(urls: RedirectUrls): Failure | null {
  for (const kind of REDIRECT_URL_KINDS) {
    for (const [i, url] of (urls[kind] ?? []).entries()) {
      const parsed = URL.canParse(url) ? new URL(url) : null;
      if (!parsed || !isHttp(parsed)) {
        return fail(
          'invalid_redirect_url',
          `redirect_urls.${kind}[${i}]: "${url}" is not an absolute http or https URL.`,
        );
      }
    }
  }
  return null;
}

/**
 * Checks a change of settings against the project as it is and turns it into the service's
 * input; the first problem found is returned as a failure and nothing is stored. Redirect URL
 * kinds left out keep their list; a password policy keeps the LUDS numbers left out.
 */
export function settingsChange(
  project: Project,
  patch: ProjectSettingsPatch,
): UpdateProjectInput | Failure {
  const change: UpdateProjectInput = {};
  if (patch.slug_pattern !== undefined) {
    const refused = checkSlugPattern(patch.slug_pattern);
    if (refused) return refused;
    change.slugPattern = patch.slug_pattern;
  }
  if (patch.authorized_origins !== undefined) {
    const origins = checkOrigins(patch.authorized_origins);
    if (isFailure(origins)) return origins;
    change.authorizedOrigins = origins;
  }
  if (patch.redirect_urls !== undefined) {
    const given: RedirectUrls = {};
    for (const kind of REDIRECT_URL_KINDS) {
      const list = patch.redirect_urls[kind];
      if (list !== undefined) given[kind] = [...new Set(list)];
    }
    const refused = checkRedirectUrls(given);
    if (refused) return refused;
    change.redirectUrls = { ...project.redirectUrls, ...given };
  }
  const pkce = {
    email_magic_links: patch.pkce_required_for_email_magic_links,
    password_resets: patch.pkce_required_for_password_resets,
    oauth: patch.pkce_required_for_oauth,
    sso: patch.pkce_required_for_sso,
  };
  const pkceGiven = Object.entries(pkce).filter(([, v]) => v !== undefined);
  if (pkceGiven.length > 0) change.pkceRequired = Object.fromEntries(pkceGiven);
  if (patch.create_organization_enabled !== undefined) {
    change.createOrganizationEnabled = patch.create_organization_enabled;
  }
  if (patch.password_policy !== undefined) {
    const policy = patch.password_policy;
    change.passwordPolicy = {
      strength_policy: policy.strength_policy,
      ...(policy.luds_complexity !== undefined && { luds_complexity: policy.luds_complexity }),
      ...(policy.luds_minimum_count !== undefined && {
        luds_minimum_count: policy.luds_minimum_count,
      }),
    };
  }
  if (patch.session_max_lifetime_minutes !== undefined) {
    change.sessionMaxLifetimeMinutes = patch.session_max_lifetime_minutes;
  }
  if (patch.display_watermark !== undefined) change.displayWatermark = patch.display_watermark;
  return change;
}

/**
 * Changes the project's settings, all or none: every field is checked before the one write, and
 * a refused change stores nothing. Answers the settings as stored.
 */
export async function updateProjectSettings(
  ctx: Context,
  project: Project,
  patch: ProjectSettingsPatch,
): Promise<ProjectSettings | Failure> {
  const change = settingsChange(project, patch);
  if (isFailure(change)) return change;
  const updated = await ctx.projects.update(project.id, change);
  if (!updated) return fail('unauthorized_credentials', 'The project no longer exists.');
  return projectSettings(updated);
}
