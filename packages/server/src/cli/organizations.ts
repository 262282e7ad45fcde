/** `gatehouse org create` and `org update`: organizations and their MFA policy. */
import { MFA_METHODS, type AllowedOAuthTenants } from '@gatehouse/protocol';
import { UsageError, choice, defineCommand, option } from './command.js';
import { DATABASE_SETTINGS } from './environment.js';
import { organizationIdOf, withRuntime } from './open.js';

/** Creates an organization in a project. */
export const orgCreate = defineCommand({
  name: ['org', 'create'],
  summary: 'Create an organization',
  usage: '--project ID --name N --slug S [--jit-domain D]…',
  description:
    'Creates an organization. The slug is 2 to 128 of a-z, 0-9 and -._~; each --jit-domain ' +
    'lets addresses at that domain join by e-mail (never a public mail provider’s). Input the ' +
    'management API would refuse creates nothing, and the error names the same error_type.',
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

/** `--allowed-tenant` values as the organization's lists, or the reason they are refused. */
function tenantsOf(values: readonly string[]): AllowedOAuthTenants | string | undefined {
  if (values.length === 0) return undefined;
  const lists: Record<'google' | 'microsoft', string[] | undefined> = {
    google: undefined,
    microsoft: undefined,
  };
  for (const value of values) {
    const at = value.indexOf(':');
    const provider = value.slice(0, at);
    if (at < 0 || (provider !== 'google' && provider !== 'microsoft')) {
      return `--allowed-tenant takes microsoft:<tenant id> or google:<domain>, not "${value}".`;
    }
    const tenant = value.slice(at + 1);
    lists[provider] = [...(lists[provider] ?? []), ...(tenant === '' ? [] : [tenant])];
  }
  return {
    ...(lists.google ? { google: lists.google } : {}),
    ...(lists.microsoft ? { microsoft: lists.microsoft } : {}),
  };
}

/** The trusted tenants in one line. */
function tenantList(tenants: AllowedOAuthTenants): string {
  const all = [
    ...(tenants.microsoft ?? []).map((t) => `microsoft:${t}`),
    ...(tenants.google ?? []).map((d) => `google:${d}`),
  ];
  return all.length > 0 ? all.join(', ') : '(none)';
}

/** Changes an organization's MFA policy. */
export const orgUpdate = defineCommand({
  name: ['org', 'update'],
  summary: 'Change an organization’s MFA policy and trusted OAuth tenants',
  usage:
    '--project ID --org ORG_ID_OR_SLUG [--mfa-policy OPTIONAL|REQUIRED_FOR_ALL] ' +
    `[--mfa-methods ALL_ALLOWED|RESTRICTED] [--allowed-mfa-method ${MFA_METHODS.join('|')}]… ` +
    '[--oauth-tenant-jit RESTRICTED|NOT_ALLOWED] [--allowed-tenant microsoft:TID|google:DOMAIN]…',
  description:
    'Changes an organization’s MFA policy and the OAuth tenants it trusts; what is not given ' +
    'stays. With --mfa-methods RESTRICTED, members may use only the methods given by ' +
    '--allowed-mfa-method. --allowed-tenant replaces the trusted tenants (Microsoft tenant ids, ' +
    'Google Workspace domains) of each provider it names; a provider named with nothing after ' +
    'the colon is cleared. With --oauth-tenant-jit RESTRICTED, users of those tenants may join.',
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
    'oauth-tenant-jit': choice(
      ['RESTRICTED', 'NOT_ALLOWED'],
      'Whether users of the trusted tenants may join by Google or Microsoft sign-in',
    ),
    'allowed-tenant': option(
      'PROVIDER:TENANT',
      'A trusted tenant: microsoft:<tenant id> or google:<Workspace domain>',
    ).repeatable(),
  },
  environment: DATABASE_SETTINGS,
  async run(values, io) {
    const allowed = values['allowed-mfa-method'];
    const tenants = tenantsOf(values['allowed-tenant']);
    if (typeof tenants === 'string') throw new UsageError(tenants);
    const patch = {
      mfa_policy: values['mfa-policy'],
      mfa_methods: values['mfa-methods'],
      ...(allowed.length > 0 ? { allowed_mfa_methods: allowed } : {}),
      oauth_tenant_jit_provisioning: values['oauth-tenant-jit'],
      ...(tenants ? { allowed_oauth_tenants: tenants } : {}),
    };
    await withRuntime(io, async ({ admin }) => {
      const orgId = await organizationIdOf(admin, values.project, values.org);
      const org = await admin.updateOrganization(values.project, orgId, patch);
      io.stdout(
        `Organization updated.\norganization_id:     ${org.organization_id}\n` +
          `mfa_policy:          ${org.mfa_policy}\nmfa_methods:         ${org.mfa_methods}\n` +
          `allowed_mfa_methods: ${org.allowed_mfa_methods.join(', ')}\n` +
          `oauth_tenant_jit:    ${org.oauth_tenant_jit_provisioning ?? 'NOT_ALLOWED'}\n` +
          `allowed_tenants:     ${tenantList(org.allowed_oauth_tenants ?? {})}\n`,
      );
    });
  },
});
