/** `gatehouse project create|show|update`: a project, its credentials and its settings. */
import {
  REDIRECT_URL_KINDS,
  type ProjectSettings,
  type RedirectUrlKind,
} from '@gatehouse/protocol';
import type { ProjectSettingsPatch } from '../products/management/admin.js';
import {
  choice,
  defineCommand,
  option,
  toggle,
  trueOrFalse,
  UsageError,
  type Parser,
} from './command.js';
import { DATABASE_SETTINGS } from './environment.js';
import { withProject, withRuntime } from './open.js';

/** Creates a project and prints its id, public token and secret key (shown only this once). */
export const projectCreate = defineCommand({
  name: ['project', 'create'],
  summary: 'Create a project and print its credentials',
  usage: '--name N [--live] [--origin URL]… [--redirect-url URL]… [--allow-org-creation]',
  description:
    'Creates a project (test environment unless --live) and prints its id, public token and ' +
    'secret key. The secret is shown only once. Each --redirect-url is allowed for login, signup ' +
    'and discovery; the first one is the default.',
  options: {
    name: option('N', 'The project’s name').required(),
    live: toggle('Create a live project instead of a test one'),
    origin: option('URL', 'An origin whose pages may call the SDK API').repeatable(),
    'redirect-url': option('URL', 'A URL sign-in may redirect to').repeatable(),
    'allow-org-creation': toggle('Let people create organizations during discovery'),
  },
  environment: DATABASE_SETTINGS,
  async run(values, io) {
    const redirects = values['redirect-url'];
    await withRuntime(io, async ({ admin }) => {
      const created = await admin.createProject({
        name: values.name,
        environment: values.live ? 'live' : 'test',
        authorizedOrigins: values.origin,
        redirectUrls: { login: redirects, signup: redirects, discovery: redirects },
        createOrganizationEnabled: values['allow-org-creation'],
      });
      io.stdout(
        `Project created. The secret is shown only once: store it now.\n` +
          `project_id:   ${created.project_id}\npublic_token: ${created.public_token}\n` +
          `secret_id:    ${created.secret_id}\nsecret:       ${created.secret}\n`,
      );
    });
  },
});

/** The settings as `key: value` lines, in the management API's field names. */
function describeSettings(p: ProjectSettings): string {
  const list = (urls: string[]) => (urls.length > 0 ? urls.join(' ') : '(none)');
  const lines: [string, string][] = [
    ['project_id', p.project_id],
    ['name', p.name],
    ['environment', p.environment],
    ['public_token', p.public_token],
    ['slug_pattern', p.slug_pattern ?? '(none)'],
    ['pkce_required_for_email_magic_links', String(p.pkce_required_for_email_magic_links)],
    ['pkce_required_for_password_resets', String(p.pkce_required_for_password_resets)],
    ['pkce_required_for_oauth', String(p.pkce_required_for_oauth)],
    ['pkce_required_for_sso', String(p.pkce_required_for_sso)],
    ['authorized_origins', list(p.authorized_origins)],
    ...REDIRECT_URL_KINDS.map((kind): [string, string] => [
      `redirect_urls.${kind}`,
      list(p.redirect_urls[kind]),
    ]),
    ['create_organization_enabled', String(p.create_organization_enabled)],
    ['password_policy', p.password_policy.strength_policy],
    ['password_luds_complexity', String(p.password_policy.luds_complexity)],
    ['password_luds_minimum_count', String(p.password_policy.luds_minimum_count)],
    [
      'session_max_lifetime_minutes',
      p.session_max_lifetime_minutes === null
        ? '(the server’s SESSION_MAX_LIFETIME_MINUTES)'
        : String(p.session_max_lifetime_minutes),
    ],
    ['display_watermark', String(p.display_watermark)],
  ];
  const width = Math.max(...lines.map(([key]) => key.length)) + 2;
  return lines.map(([key, value]) => `${`${key}:`.padEnd(width)}${value}\n`).join('');
}

/** Shows a project's settings. */
export const projectShow = defineCommand({
  name: ['project', 'show'],
  summary: 'Show a project’s settings',
  usage: '--project ID',
  description:
    'Shows a project’s settings as GET /v1/b2b/project answers them: slug pattern, PKCE ' +
    'requirements, authorized origins, redirect URLs by kind, organization creation and the ' +
    'password policy. Never the secret keys.',
  options: { project: option('ID', 'The project').required() },
  environment: DATABASE_SETTINGS,
  async run(values, io) {
    await withProject(io, values.project, async (admin) => {
      io.stdout(describeSettings(await admin.projectSettings(values.project)));
    });
  },
});

/** `KIND=URL`, or a bare URL for login, signup and discovery (as `project create` takes it). */
const redirectEntry: Parser<{ kinds: RedirectUrlKind[]; url: string }> = (raw) => {
  const match = /^([a-z_]+)=(.*)$/.exec(raw);
  const kind = REDIRECT_URL_KINDS.find((k) => k === match?.[1]);
  if (match && kind) return { kinds: [kind], url: match[2] ?? '' };
  return { kinds: ['login', 'signup', 'discovery'], url: raw };
};

/** A whole number, checked for range by the management API's schema. */
const wholeNumber: Parser<number> = (raw, flag) => {
  if (!/^\d+$/.test(raw.trim())) throw new UsageError(`${flag} must be a whole number`);
  return Number(raw);
};

const trueFalse = (description: string) =>
  option('true|false', description, { parse: trueOrFalse });

/** Changes a project's settings through the same checks as `PUT /v1/b2b/project`. */
export const projectUpdate = defineCommand({
  name: ['project', 'update'],
  summary: 'Change a project’s settings',
  usage:
    '--project ID [--slug-pattern URL|none] [--pkce-required-for-email-magic-links true|false] ' +
    '[--pkce-required-for-password-resets true|false] [--pkce-required-for-oauth true|false] ' +
    '[--pkce-required-for-sso true|false] [--authorized-origin URL]… [--clear-authorized-origins] ' +
    `[--redirect-url [${REDIRECT_URL_KINDS.join('|')}=]URL]… ` +
    '[--create-organization-enabled true|false] [--password-policy none|zxcvbn|luds] ' +
    '[--password-luds-complexity N] [--password-luds-minimum-count N] ' +
    '[--session-max-lifetime-minutes N|default] [--display-watermark true|false]',
  description:
    'Changes a project’s settings with the checks of PUT /v1/b2b/project, all or nothing: what ' +
    'is not given stays. The --authorized-origin values replace the stored list ' +
    '(--clear-authorized-origins empties it). Each --redirect-url KIND=URL is allowed for that ' +
    'kind, a bare URL for login, signup and discovery; the kinds given replace their lists, the ' +
    'first URL of each being its default, and the others stay. --slug-pattern none removes the ' +
    'pattern. --session-max-lifetime-minutes caps how long a session lives from sign-in (5 to ' +
    '525600); default hands it back to the server’s SESSION_MAX_LIFETIME_MINUTES.',
  options: {
    project: option('ID', 'The project').required(),
    'slug-pattern': option('URL|none', 'The organization URL pattern, with {{slug}}'),
    'pkce-required-for-email-magic-links': trueFalse('Whether e-mail magic links need PKCE'),
    'pkce-required-for-password-resets': trueFalse('Whether password resets need PKCE'),
    'pkce-required-for-oauth': trueFalse('Whether OAuth sign-ins need PKCE'),
    'pkce-required-for-sso': trueFalse('Whether SSO sign-ins need PKCE'),
    'authorized-origin': option('URL', 'An origin whose pages may call the SDK API').repeatable(),
    'clear-authorized-origins': toggle('Allow no origin (loopback still works in test projects)'),
    'redirect-url': option('[KIND=]URL', 'A URL sign-in may redirect to', {
      parse: redirectEntry,
    }).repeatable(),
    'create-organization-enabled': trueFalse(
      'Whether people may create organizations during discovery',
    ),
    'password-policy': choice(['none', 'zxcvbn', 'luds'], 'How password strength is judged'),
    'password-luds-complexity': option('N', 'LUDS: character classes required, 1 to 4', {
      parse: wholeNumber,
    }),
    'password-luds-minimum-count': option('N', 'LUDS: minimum length, 1 to 256', {
      parse: wholeNumber,
    }),
    'session-max-lifetime-minutes': option('N|default', 'Sessions end this long after sign-in', {
      parse: (raw, flag) => (raw === 'default' ? null : wholeNumber(raw, flag)),
    }),
    'display-watermark': trueFalse("Whether the widget shows 'Powered by Gatehouse'"),
  },
  environment: DATABASE_SETTINGS,
  async run(values, io) {
    const origins = values['authorized-origin'];
    if (values['clear-authorized-origins'] && origins.length > 0) {
      throw new UsageError('give either --authorized-origin or --clear-authorized-origins');
    }
    const redirects: Partial<Record<RedirectUrlKind, string[]>> = {};
    for (const { kinds, url } of values['redirect-url']) {
      for (const kind of kinds) (redirects[kind] ??= []).push(url);
    }
    await withProject(io, values.project, async (admin) => {
      const current = await admin.projectSettings(values.project);
      const complexity = values['password-luds-complexity'];
      const minimum = values['password-luds-minimum-count'];
      const policy = values['password-policy'];
      const slug = values['slug-pattern'];
      const raw = {
        ...(slug !== undefined && { slug_pattern: slug === 'none' ? null : slug }),
        pkce_required_for_email_magic_links: values['pkce-required-for-email-magic-links'],
        pkce_required_for_password_resets: values['pkce-required-for-password-resets'],
        pkce_required_for_oauth: values['pkce-required-for-oauth'],
        pkce_required_for_sso: values['pkce-required-for-sso'],
        ...(origins.length > 0 && { authorized_origins: origins }),
        ...(values['clear-authorized-origins'] && { authorized_origins: [] }),
        ...(Object.keys(redirects).length > 0 && { redirect_urls: redirects }),
        create_organization_enabled: values['create-organization-enabled'],
        session_max_lifetime_minutes: values['session-max-lifetime-minutes'],
        display_watermark: values['display-watermark'],
        ...((policy ?? complexity ?? minimum) !== undefined && {
          password_policy: {
            strength_policy: policy ?? current.password_policy.strength_policy,
            luds_complexity: complexity,
            luds_minimum_count: minimum,
          },
        }),
      };
      // Through JSON so that the options not given are absent, not undefined. The service checks
      // the patch as PUT /v1/b2b/project does: a refusal names the same error_type.
      const patch = JSON.parse(JSON.stringify(raw)) as ProjectSettingsPatch;
      const updated = await admin.updateProjectSettings(values.project, patch);
      io.stdout(`Project updated.\n${describeSettings(updated)}`);
    });
  },
});
