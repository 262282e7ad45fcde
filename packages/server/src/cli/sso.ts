/** `gatehouse sso list|create-saml|create-oidc|update|delete`: an organization's SSO connections. */
import { readFileSync } from 'node:fs';
import type { OidcConnection, SamlConnection } from '@gatehouse/protocol';
import type { Admin, SamlInput } from '../products/management/admin.js';
import {
  choice,
  defineCommand,
  option,
  toggle,
  UsageError,
  type CliIo,
  type Parser,
} from './command.js';
import { DATABASE_AND_URL_SETTINGS, DATABASE_SETTINGS, publicUrlWarning } from './environment.js';
import { organizationIdOf, withProject } from './open.js';

const where = {
  project: option('ID', 'The project').required(),
  org: option('ORG_ID_OR_SLUG', 'The organization, by id or slug').required(),
};

/** `GROUP=ROLE`: members of the IdP group get the role. */
const groupRole: Parser<{ group: string; role_id: string }> = (raw, flag) => {
  const at = raw.lastIndexOf('=');
  if (at <= 0 || at === raw.length - 1) throw new UsageError(`${flag} takes GROUP=ROLE`);
  return { group: raw.slice(0, at), role_id: raw.slice(at + 1) };
};

const samlOptions = {
  'display-name': option('NAME', 'The name on the sign-in button ("Continue with NAME")'),
  'idp-entity-id': option('ID', "The IdP's entity ID (issuer)"),
  'idp-sso-url': option('URL', "The IdP's single sign-on URL (HTTP-Redirect binding)"),
  'certificate-file': option('PATH', "A PEM file with the IdP's signing certificate"),
  'metadata-url': option('URL', "The IdP's metadata URL, instead of the three above"),
  'metadata-file': option('PATH', "A file with the IdP's metadata XML, instead of the three above"),
  'allow-idp-initiated': toggle('Accept sign-ins started at the IdP (off by default)'),
  'group-role': option('GROUP=ROLE', 'Give members of an IdP group a role', {
    parse: groupRole,
  }).repeatable(),
  role: option('ROLE', 'Give everyone who signs in through the connection a role').repeatable(),
};

/**
 * Runs `work` with the admin interface and the organization id, once the project and the
 * organization are known to exist (an unknown one is a usage error).
 */
async function inOrganization(
  io: CliIo,
  values: { project: string; org: string },
  work: (admin: Admin, organizationId: string) => Promise<void>,
): Promise<void> {
  await withProject(io, values.project, async (admin) => {
    await work(admin, await organizationIdOf(admin, values.project, values.org));
  });
}

function describeSaml(c: SamlConnection): string {
  return (
    `connection_id: ${c.connection_id}\n` +
    `kind:          saml (${c.status})\n` +
    `display_name:  ${c.display_name}\n` +
    `ACS URL:       ${c.acs_url}\n` +
    `SP entity ID:  ${c.audience_uri}\n` +
    `SP metadata:   ${c.sp_metadata_url}\n` +
    `IdP entity ID: ${c.idp_entity_id || '(not set)'}\n` +
    `IdP SSO URL:   ${c.idp_sso_url || '(not set)'}\n` +
    `sign-in:       ${c.sign_in_enabled ? 'on' : 'off'}\n` +
    (c.saml_connection_implicit_role_assignments.length > 0
      ? `roles:         ${c.saml_connection_implicit_role_assignments.map((r) => r.role_id).join(', ')}\n`
      : '') +
    c.verification_certificates
      .map((cert) => `certificate:   ${cert.certificate_id} (expires ${cert.expires_at})\n`)
      .join('')
  );
}

function describeOidc(c: OidcConnection): string {
  return (
    `connection_id: ${c.connection_id}\n` +
    `kind:          oidc (${c.status})\n` +
    `display_name:  ${c.display_name}\n` +
    `redirect URL:  ${c.redirect_url}\n` +
    `issuer:        ${c.issuer || '(not set)'}\n` +
    `client_id:     ${c.client_id || '(not set)'}\n` +
    `sign-in:       ${c.sign_in_enabled ? 'on' : 'off'}\n`
  );
}

const describe = (c: SamlConnection | OidcConnection) =>
  'acs_url' in c ? describeSaml(c) : describeOidc(c);

/** The SAML fields given on the command line. */
function samlInput(values: {
  'display-name': string | undefined;
  'idp-entity-id': string | undefined;
  'idp-sso-url': string | undefined;
  'certificate-file': string | undefined;
  'allow-idp-initiated': boolean;
  'group-role': { group: string; role_id: string }[];
  role: string[];
}): SamlInput {
  return {
    ...(values['display-name'] ? { display_name: values['display-name'] } : {}),
    ...(values['idp-entity-id'] ? { idp_entity_id: values['idp-entity-id'] } : {}),
    ...(values['idp-sso-url'] ? { idp_sso_url: values['idp-sso-url'] } : {}),
    ...(values['certificate-file']
      ? { x509_certificate: readFileSync(values['certificate-file'], 'utf8') }
      : {}),
    ...(values['allow-idp-initiated'] ? { allow_idp_initiated: true } : {}),
    ...(values['group-role'].length > 0
      ? { saml_group_implicit_role_assignments: values['group-role'] }
      : {}),
    ...(values.role.length > 0
      ? { saml_connection_implicit_role_assignments: values.role.map((role_id) => ({ role_id })) }
      : {}),
  };
}

function metadataInput(values: {
  'metadata-url': string | undefined;
  'metadata-file': string | undefined;
}) {
  if (values['metadata-url'] && values['metadata-file']) {
    throw new UsageError('give --metadata-url or --metadata-file, not both');
  }
  if (values['metadata-url']) return { metadata_url: values['metadata-url'] };
  if (values['metadata-file'])
    return { metadata_xml: readFileSync(values['metadata-file'], 'utf8') };
  return null;
}

/** Lists an organization's connections. */
export const ssoList = defineCommand({
  name: ['sso', 'list'],
  summary: "List an organization's SSO connections",
  usage: '--project ID --org ORG_ID_OR_SLUG',
  description:
    'Lists the SAML and OIDC connections of an organization with what an IdP admin needs.',
  options: where,
  environment: DATABASE_SETTINGS,
  async run(values, io) {
    await inOrganization(io, values, async (admin, organizationId) => {
      const list = await admin.listSsoConnections(values.project, organizationId);
      const all = [...list.saml_connections, ...list.oidc_connections];
      io.stdout(all.length === 0 ? 'No SSO connections.\n' : all.map(describe).join('\n'));
    });
  },
});

/** Creates a SAML connection. */
export const ssoCreateSaml = defineCommand({
  name: ['sso', 'create-saml'],
  summary: 'Create a SAML connection',
  usage:
    '--project ID --org ORG_ID_OR_SLUG [--display-name N] [--idp-entity-id ID --idp-sso-url URL ' +
    '--certificate-file PATH | --metadata-url URL | --metadata-file PATH] [--allow-idp-initiated] ' +
    '[--group-role GROUP=ROLE]… [--role ROLE]…',
  description:
    'Creates a SAML connection and prints our side of it (ACS URL, SP entity ID and SP metadata ' +
    'URL, under PUBLIC_URL), which the customer’s admin enters in their IdP. With the IdP side (its entity ID, SSO ' +
    'URL and certificate, or its metadata) the connection is active at once; otherwise it stays ' +
    'pending until `gatehouse sso update` gives it.',
  options: { ...where, ...samlOptions },
  environment: DATABASE_AND_URL_SETTINGS,
  async run(values, io) {
    const metadata = metadataInput(values);
    await inOrganization(io, values, async (admin, organizationId) => {
      let connection = await admin.createSamlConnection(
        values.project,
        organizationId,
        samlInput(values),
      );
      if (metadata) {
        connection = await admin.updateSamlFromMetadata(
          values.project,
          organizationId,
          connection.connection_id,
          metadata,
        );
      }
      io.stdout(`SAML connection created.\n${describeSaml(connection)}`);
      io.stderr(publicUrlWarning(io.env));
    });
  },
});

/** Creates an OIDC connection. */
export const ssoCreateOidc = defineCommand({
  name: ['sso', 'create-oidc'],
  summary: 'Create an OIDC connection',
  usage:
    '--project ID --org ORG_ID_OR_SLUG --issuer URL --client-id ID --client-secret S [--display-name N]',
  description:
    'Creates an OIDC connection, finding the provider’s endpoints through its discovery ' +
    'document, and prints the redirect URL (under PUBLIC_URL) to register with the provider. The client secret ' +
    'is stored encrypted with the server key.',
  options: {
    ...where,
    issuer: option('URL', "The provider's issuer URL").required(),
    'client-id': option('ID', 'The client ID the provider issued').required(),
    'client-secret': option('S', 'The client secret the provider issued').required(),
    'display-name': option('NAME', 'The name on the sign-in button'),
  },
  environment: DATABASE_AND_URL_SETTINGS,
  async run(values, io) {
    await inOrganization(io, values, async (admin, organizationId) => {
      const connection = await admin.createOidcConnection(values.project, organizationId, {
        issuer: values.issuer,
        client_id: values['client-id'],
        client_secret: values['client-secret'],
        ...(values['display-name'] ? { display_name: values['display-name'] } : {}),
      });
      io.stdout(`OIDC connection created.\n${describeOidc(connection)}`);
      io.stderr(publicUrlWarning(io.env));
    });
  },
});

/** `--sign-in on|off` as the management API's `sign_in_enabled`; absent when not given. */
function signInInput(value: 'on' | 'off' | undefined): { sign_in_enabled?: boolean } {
  return value === undefined ? {} : { sign_in_enabled: value === 'on' };
}

/** Changes a connection of either kind. */
export const ssoUpdate = defineCommand({
  name: ['sso', 'update'],
  summary: 'Change an SSO connection',
  usage:
    '--project ID --org ORG_ID_OR_SLUG --connection ID [--display-name N] [--idp-entity-id ID] ' +
    '[--idp-sso-url URL] [--certificate-file PATH] [--metadata-url URL | --metadata-file PATH] ' +
    '[--allow-idp-initiated] [--group-role GROUP=ROLE]… [--role ROLE]… ' +
    '[--remove-certificate CERT_ID] ' +
    '[--issuer URL] [--client-id ID] [--client-secret S] [--sign-in on|off]',
  description:
    'Changes a connection; what is not given stays. --certificate-file adds a certificate beside ' +
    'the ones the connection has, and --remove-certificate removes one: together they rotate ' +
    'an IdP certificate without downtime. --sign-in off refuses real sign-ins through the ' +
    'connection (its test sign-in still works) until --sign-in on.',
  options: {
    ...where,
    connection: option('ID', 'The connection').required(),
    ...samlOptions,
    issuer: option('URL', "An OIDC provider's issuer URL"),
    'client-id': option('ID', 'An OIDC client ID'),
    'client-secret': option('S', 'An OIDC client secret'),
    'remove-certificate': option('CERT_ID', 'A SAML certificate to remove'),
    'sign-in': choice(['on', 'off'], 'Whether real sign-ins may use the connection, either kind'),
  },
  environment: DATABASE_SETTINGS,
  async run(values, io) {
    const metadata = metadataInput(values);
    await inOrganization(io, values, async (admin, organizationId) => {
      const [projectId, id] = [values.project, values.connection];
      const current = await admin.getSsoConnection(projectId, organizationId, id);
      if (!('acs_url' in current)) {
        const connection = await admin.updateOidcConnection(projectId, organizationId, id, {
          ...(values.issuer ? { issuer: values.issuer } : {}),
          ...(values['client-id'] ? { client_id: values['client-id'] } : {}),
          ...(values['client-secret'] ? { client_secret: values['client-secret'] } : {}),
          ...(values['display-name'] ? { display_name: values['display-name'] } : {}),
          ...signInInput(values['sign-in']),
        });
        io.stdout(`Connection updated.\n${describeOidc(connection)}`);
        return;
      }
      let connection = await admin.updateSamlConnection(projectId, organizationId, id, {
        ...samlInput(values),
        ...signInInput(values['sign-in']),
      });
      if (metadata) {
        connection = await admin.updateSamlFromMetadata(projectId, organizationId, id, metadata);
      }
      const certificate = values['remove-certificate'];
      if (certificate) {
        connection = await admin.deleteSamlCertificate(projectId, organizationId, id, certificate);
      }
      io.stdout(`Connection updated.\n${describeSaml(connection)}`);
    });
  },
});

/** Deletes a connection. */
export const ssoDelete = defineCommand({
  name: ['sso', 'delete'],
  summary: 'Delete an SSO connection',
  usage: '--project ID --org ORG_ID_OR_SLUG --connection ID',
  description:
    'Deletes a connection. Its members stay members and can sign in by other allowed methods.',
  options: { ...where, connection: option('ID', 'The connection').required() },
  environment: DATABASE_SETTINGS,
  async run(values, io) {
    await inOrganization(io, values, async (admin, organizationId) => {
      await admin.deleteSsoConnection(values.project, organizationId, values.connection);
      io.stdout(`Connection deleted.\nconnection_id: ${values.connection}\n`);
    });
  },
});
