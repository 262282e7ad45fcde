/**
 * A project's settings as the management API, the CLI and the admin interface show and change
 * them (`GET`/`PUT /v1/b2b/project`, `gatehouse project create|show|update`, `app.gatehouse`): the
 * wire view, and the checks a new project or a change must pass before anything is stored.
 */
import { REDIRECT_URL_KINDS, type ProjectSettings } from '@gatehouse/protocol';
import { projectSettingsFields } from '@gatehouse/protocol/endpoints';
import type { z } from 'zod';
import type { Context } from '../../context.js';
import { checkInput, fail, isFailure, type Failure } from '../../result.js';
import type {
  CreatedProject,
  CreateProjectInput,
  PasswordPolicyInput,
  Project,
  RedirectUrls,
  UpdateProjectInput,
} from './service.js';

/** A change of settings as the management API takes it; fields left out keep their value. */
export type ProjectSettingsPatch = z.output<typeof projectSettingsFields>;

/** The placeholder a slug pattern must hold exactly once (docs/protocol.md §6). */
const SLUG_PLACEHOLDER = '{{slug}}';

/** The limits of the management API's schema (`projectSettingsFields`), for every way in. */
const MAX_URLS = 100;
const MAX_URL_LENGTH = 2048;
const SESSION_LIFETIME_MINUTES = { min: 5, max: 525_600 };
const LUDS_COMPLEXITY = { min: 1, max: 4 };
const LUDS_MINIMUM_COUNT = { min: 1, max: 256 };
const STRENGTH_POLICIES: readonly string[] = ['none', 'zxcvbn', 'luds'];

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
  if (pattern.length > MAX_URL_LENGTH || pattern.split(SLUG_PLACEHOLDER).length !== 2) {
    return refused;
  }
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
  if (origins.length > MAX_URLS) {
    return fail('invalid_request', `authorized_origins holds at most ${MAX_URLS} origins.`);
  }
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

/**
 * The redirect URL lists, deduplicated, or a failure naming the first list that is too long or
 * URL that is not an absolute http(s) URL. Lists equal to `unchanged`'s stay as they are: a change
 * of one kind never fails for a list stored before.
 */
function checkRedirectUrls(urls: RedirectUrls, unchanged: RedirectUrls): RedirectUrls | Failure {
  const checked: RedirectUrls = {};
  for (const kind of REDIRECT_URL_KINDS) {
    const list = urls[kind];
    if (list === undefined) continue;
    if (JSON.stringify(list) === JSON.stringify(unchanged[kind])) {
      checked[kind] = list;
      continue;
    }
    if (list.length > MAX_URLS) {
      return fail('invalid_request', `redirect_urls.${kind} holds at most ${MAX_URLS} URLs.`);
    }
    for (const [i, url] of list.entries()) {
      if (url.length > MAX_URL_LENGTH) {
        return fail(
          'invalid_request',
          `redirect_urls.${kind}[${i}] is longer than ${MAX_URL_LENGTH} characters.`,
        );
      }
      const parsed = URL.canParse(url) ? new URL(url) : null;
      if (!parsed || !isHttp(parsed)) {
        return fail(
          'invalid_redirect_url',
          `redirect_urls.${kind}[${i}]: "${url}" is not an absolute http or https URL.`,
        );
      }
    }
    checked[kind] = [...new Set(list)];
  }
  return checked;
}

/** A whole number within `range`, or a failure naming `field`. */
function checkWhole(
  value: number,
  field: string,
  range: { min: number; max: number },
): Failure | null {
  return Number.isInteger(value) && value >= range.min && value <= range.max
    ? null
    : fail('invalid_request', `${field} must be a whole number from ${range.min} to ${range.max}.`);
}

function checkPasswordPolicy(policy: PasswordPolicyInput): Failure | null {
  if (!STRENGTH_POLICIES.includes(policy.strength_policy)) {
    return fail(
      'invalid_request',
      `password_policy.strength_policy must be one of ${STRENGTH_POLICIES.join(', ')}.`,
    );
  }
  const { luds_complexity: complexity, luds_minimum_count: minimum } = policy;
  return (
    (complexity === undefined
      ? null
      : checkWhole(complexity, 'password_policy.luds_complexity', LUDS_COMPLEXITY)) ??
    (minimum === undefined
      ? null
      : checkWhole(minimum, 'password_policy.luds_minimum_count', LUDS_MINIMUM_COUNT))
  );
}

/**
 * The checks every new project and every change of a project's settings passes, whoever makes it
 * (the management API, the CLI, the admin interface and so the demo seed and tests): the change
 * with its origins normalized and its URL lists deduplicated, or the first problem as a failure.
 * `project` is the project as it is (null for a new one): a redirect URL list it already holds
 * unchanged is not checked again.
 *
 * @example
 * const checked = checkProjectChange({ authorizedOrigins: ['https://app.example.com/'] }, null);
 * // { authorizedOrigins: ['https://app.example.com'] }
 */
export function checkProjectChange<T extends UpdateProjectInput>(
  change: T,
  project: Project | null,
): T | Failure {
  const checked: T = { ...change };
  if (change.slugPattern !== undefined) {
    const refused = checkSlugPattern(change.slugPattern);
    if (refused) return refused;
  }
  if (change.authorizedOrigins !== undefined) {
    const origins = checkOrigins(change.authorizedOrigins);
    if (isFailure(origins)) return origins;
    checked.authorizedOrigins = origins;
  }
  if (change.redirectUrls !== undefined) {
    const urls = checkRedirectUrls(change.redirectUrls, project?.redirectUrls ?? {});
    if (isFailure(urls)) return urls;
    checked.redirectUrls = urls;
  }
  if (change.passwordPolicy !== undefined) {
    const refused = checkPasswordPolicy(change.passwordPolicy);
    if (refused) return refused;
  }
  const lifetime = change.sessionMaxLifetimeMinutes;
  if (lifetime !== undefined && lifetime !== null) {
    const refused = checkWhole(lifetime, 'session_max_lifetime_minutes', SESSION_LIFETIME_MINUTES);
    if (refused) return refused;
  }
  return checked;
}

/**
 * Turns a change of settings on the wire into the service's input, merged with the project as it
 * is: redirect URL kinds left out keep their list; a password policy keeps the LUDS numbers left
 * out. Checks nothing: {@link changeProject} does.
 */
function settingsChange(project: Project, patch: ProjectSettingsPatch): UpdateProjectInput {
  const change: UpdateProjectInput = {};
  if (patch.slug_pattern !== undefined) change.slugPattern = patch.slug_pattern;
  if (patch.authorized_origins !== undefined) change.authorizedOrigins = patch.authorized_origins;
  if (patch.redirect_urls !== undefined) {
    const given: RedirectUrls = {};
    for (const kind of REDIRECT_URL_KINDS) {
      const list = patch.redirect_urls[kind];
      if (list !== undefined) given[kind] = list;
    }
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
 * Changes the project's settings in the service's terms (what the admin interface's
 * `updateProject` takes), all or none: every field passes {@link checkProjectChange} before the
 * one write, and a refused change stores nothing. Answers the settings as stored.
 *
 * @example
 * await changeProject(ctx, project, { createOrganizationEnabled: true });
 */
export async function changeProject(
  ctx: Context,
  project: Project,
  change: UpdateProjectInput,
): Promise<ProjectSettings | Failure> {
  const checked = checkProjectChange(change, project);
  if (isFailure(checked)) return checked;
  const updated = await ctx.projects.update(project.id, checked);
  if (!updated) return fail('unauthorized_credentials', 'The project no longer exists.');
  return projectSettings(updated);
}

/**
 * Changes the project's settings as the management API takes them (`PUT /v1/b2b/project`,
 * `gatehouse project update`, the admin interface's `updateProjectSettings`), all or none: the
 * patch must pass the API's schema, checked here so that every way in refuses the same input,
 * then {@link changeProject}'s checks. Answers the settings as stored.
 *
 * @example
 * await updateProjectSettings(ctx, project, { redirect_urls: { login: ['https://app.example.com/in'] } });
 */
export async function updateProjectSettings(
  ctx: Context,
  project: Project,
  patch: ProjectSettingsPatch,
): Promise<ProjectSettings | Failure> {
  const checked = checkInput(projectSettingsFields, patch);
  if (isFailure(checked)) return checked;
  return changeProject(ctx, project, settingsChange(project, checked));
}

/**
 * Creates a project with one secret key, after the checks a change of its settings would pass
 * (origins, redirect URLs, slug pattern, password policy, session lifetime): `gatehouse project
 * create`, the admin interface, the demo seed and tests all come here.
 *
 * @example
 * const created = await createProject(ctx, { name: 'Demo', authorizedOrigins: ['https://app.example.com'] });
 */
export async function createProject(
  ctx: Context,
  input: CreateProjectInput,
): Promise<CreatedProject | Failure> {
  if (input.name.trim() === '') return fail('invalid_request', 'A project needs a name.');
  const checked = checkProjectChange(input, null);
  if (isFailure(checked)) return checked;
  return ctx.projects.create(checked);
}
