/** `gatehouse org create` and `org update`: organizations and their MFA policy. */
import { MFA_METHODS } from '@gatehouse/protocol';
import { choice, defineCommand, option } from './command.js';
import { DATABASE_SETTINGS } from './environment.js';
import { organizationIdOf, withRuntime } from './open.js';

/** Creates an organization in a project. */
export const orgCreate = defineCommand({
  name: ['org', 'create'],
  summary: 'Create an organization',
  usage: '--project ID --name N --slug S [--jit-domain D]…',
  description:
    'Creates an organization. Each --jit-domain lets addresses at that domain join by e-mail.',
  options: {
    project: option('ID', 'The project').required(),
    name: option('N', 'The organization’s name').required(),
    slug: option('S', 'Its slug, unique in the project').required(),
    'jit-domain': option('D', 'An e-mail domain whose addresses may join by e-mail').repeatable(),
  },
  environment: DATABASE_SETTINGS,
  async run(values, io) {
    await withRuntime(io, async ({ admin }) => {
      const org = await admin.createOrganization(values.project, {
        organization_name: values.name,
        organization_slug: values.slug,
        email_allowed_domains: values['jit-domain'],
      });
      io.stdout(
        `Organization created.\norganization_id: ${org.organization_id}\nslug:            ${org.organization_slug}\n`,
      );
    });
  },
});

/** Changes an organization's MFA policy. */
export const orgUpdate = defineCommand({
  name: ['org', 'update'],
  summary: 'Change an organization’s MFA policy',
  usage:
    '--project ID --org ORG_ID_OR_SLUG [--mfa-policy OPTIONAL|REQUIRED_FOR_ALL] ' +
    `[--mfa-methods ALL_ALLOWED|RESTRICTED] [--allowed-mfa-method ${MFA_METHODS.join('|')}]…`,
  description:
    'Changes an organization’s MFA policy; what is not given stays. With --mfa-methods ' +
    'RESTRICTED, members may use only the methods given by --allowed-mfa-method.',
  options: {
    project: option('ID', 'The project').required(),
    org: option('ORG_ID_OR_SLUG', 'The organization, by id or slug').required(),
    'mfa-policy': choice(
      ['OPTIONAL', 'REQUIRED_FOR_ALL'],
      'Whether every member must sign in with a second factor',
    ),
    'mfa-methods': choice(
      ['ALL_ALLOWED', 'RESTRICTED'],
      'Whether members may use every MFA method or only the allowed ones',
    ),
    'allowed-mfa-method': choice(
      MFA_METHODS,
      'An MFA method members may use under RESTRICTED',
    ).repeatable(),
  },
  environment: DATABASE_SETTINGS,
  async run(values, io) {
    const allowed = values['allowed-mfa-method'];
    const patch = {
      mfa_policy: values['mfa-policy'],
      mfa_methods: values['mfa-methods'],
      ...(allowed.length > 0 ? { allowed_mfa_methods: allowed } : {}),
    };
    await withRuntime(io, async ({ admin }) => {
      const orgId = await organizationIdOf(admin, values.project, values.org);
      const org = await admin.updateOrganization(values.project, orgId, patch);
      io.stdout(
        `Organization updated.\norganization_id:     ${org.organization_id}\n` +
          `mfa_policy:          ${org.mfa_policy}\nmfa_methods:         ${org.mfa_methods}\n` +
          `allowed_mfa_methods: ${org.allowed_mfa_methods.join(', ')}\n`,
      );
    });
  },
});
