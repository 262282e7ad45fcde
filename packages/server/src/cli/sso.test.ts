// `gatehouse sso …` against a temporary SQLite database, with a real SAML IdP's certificate and
// metadata and a real OpenID provider for discovery.
import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOidcIdp, startSamlIdp, type OidcIdp, type SamlIdp } from '@gatehouse/testing/idp';
import { runCli } from '../cli.js';
import { cliOnTempDatabase } from '../test/cli.js';

const { cli, databaseUrl } = cliOnTempDatabase('gatehouse-cli-sso-');

const field = (text: string, name: string) =>
  new RegExp(`^${name}:\\s+(.+)$`, 'm').exec(text)?.[1]?.trim() ?? '';

let saml: SamlIdp;
let oidc: OidcIdp;
let projectId = '';

beforeAll(async () => {
  [saml, oidc] = await Promise.all([startSamlIdp(), startOidcIdp()]);
  const project = await cli('project', 'create', '--name', 'SSO CLI');
  projectId = field(project.stdout, 'project_id');
  await cli('org', 'create', '--project', projectId, '--name', 'Initech', '--slug', 'initech');
});

afterAll(async () => {
  await Promise.all([saml?.close(), oidc?.close()]);
});

describe('gatehouse sso', () => {
  it('prints help for each subcommand', async () => {
    for (const sub of ['list', 'create-saml', 'create-oidc', 'update', 'delete']) {
      const res = await cli('sso', sub, '--help');
      expect(res.code).toBe(0);
      expect(res.stdout).toContain(`Usage: gatehouse sso ${sub}`);
    }
    expect((await cli('--help')).stdout).toContain('sso create-saml');
  });

  it('creates a SAML connection from a certificate file and prints what the IdP admin needs', async () => {
    const certificateFile = join(tmpdir(), `gatehouse-cli-cert-${process.pid}.pem`);
    writeFileSync(certificateFile, saml.certificate);
    const created = await cli(
      'sso',
      'create-saml',
      '--project',
      projectId,
      '--org',
      'initech',
      '--display-name',
      'Okta',
      '--idp-entity-id',
      saml.entityId,
      '--idp-sso-url',
      saml.ssoUrl,
      '--certificate-file',
      certificateFile,
      '--group-role',
      'it-admins=admin',
      '--role',
      'member',
    );
    expect(created.code).toBe(0);
    const id = field(created.stdout, 'connection_id');
    // Everyone who signs in through it is a member.
    expect(field(created.stdout, 'roles')).toBe('member');
    const changed = await cli(
      ...['sso', 'update', '--project', projectId, '--org', 'initech', '--connection', id],
      ...['--role', 'admin', '--role', 'member'],
    );
    expect(changed.code).toBe(0);
    expect(field(changed.stdout, 'roles')).toBe('admin, member');
    expect(id).toMatch(/^saml-connection-test-/);
    expect(field(created.stdout, 'ACS URL')).toMatch(new RegExp(`/v1/sso/saml/acs/${id}$`));
    expect(field(created.stdout, 'kind')).toBe('saml (active)');

    const listed = await cli('sso', 'list', '--project', projectId, '--org', 'initech');
    expect(listed.stdout).toContain(id);

    const deleted = await cli(
      'sso',
      'delete',
      '--project',
      projectId,
      '--org',
      'initech',
      '--connection',
      id,
    );
    expect(deleted.code).toBe(0);
    expect((await cli('sso', 'list', '--project', projectId, '--org', 'initech')).stdout).toBe(
      'No SSO connections.\n',
    );
  });

  it('sets a SAML connection up from metadata, then rotates its certificate', async () => {
    const created = await cli(
      'sso',
      'create-saml',
      '--project',
      projectId,
      '--org',
      'initech',
      '--metadata-url',
      saml.metadataUrl,
    );
    expect(created.code).toBe(0);
    const id = field(created.stdout, 'connection_id');
    const oldCertificate = field(created.stdout, 'certificate').split(' ')[0] ?? '';
    const otherFile = join(tmpdir(), `gatehouse-cli-other-${process.pid}.pem`);
    writeFileSync(otherFile, saml.otherCertificate);
    const rotated = await cli(
      'sso',
      'update',
      '--project',
      projectId,
      '--org',
      'initech',
      '--connection',
      id,
      '--certificate-file',
      otherFile,
      '--remove-certificate',
      oldCertificate,
    );
    expect(rotated.code).toBe(0);
    expect(rotated.stdout).not.toContain(oldCertificate);
    expect(rotated.stdout.match(/^certificate:/gm)).toHaveLength(1);
  });

  it('creates an OIDC connection through discovery, and reports a failed one', async () => {
    const created = await cli(
      'sso',
      'create-oidc',
      '--project',
      projectId,
      '--org',
      'initech',
      '--issuer',
      oidc.issuer,
      '--client-id',
      'initech',
      '--client-secret',
      'initech-secret',
    );
    expect(created.code).toBe(0);
    expect(field(created.stdout, 'kind')).toBe('oidc (active)');
    expect(field(created.stdout, 'redirect URL')).toMatch(/\/v1\/sso\/oidc\/callback$/);
    const failed = await cli(
      'sso',
      'create-oidc',
      '--project',
      projectId,
      '--org',
      'initech',
      '--issuer',
      'http://127.0.0.1:9/nothing',
      '--client-id',
      'x',
      '--client-secret',
      'y',
    );
    expect(failed.code).toBe(1);
    expect(failed.stderr).toContain('error: oidc_discovery_failed: ');
  });

  it('turns a connection of either kind off and on with --sign-in, and refuses another value', async () => {
    const saml = await cli('sso', 'create-saml', '--project', projectId, '--org', 'initech');
    const oidcCreated = await cli(
      ...['sso', 'create-oidc', '--project', projectId, '--org', 'initech'],
      ...['--issuer', oidc.issuer, '--client-id', 'switch', '--client-secret', 'switch-secret'],
    );
    for (const id of [
      field(saml.stdout, 'connection_id'),
      field(oidcCreated.stdout, 'connection_id'),
    ]) {
      const update = (...args: string[]) =>
        cli(
          'sso',
          'update',
          '--project',
          projectId,
          '--org',
          'initech',
          '--connection',
          id,
          ...args,
        );
      const listed = async () => {
        const list = (await cli('sso', 'list', '--project', projectId, '--org', 'initech')).stdout;
        const block = list.split('\n\n').find((b) => b.includes(id)) ?? '';
        return field(block, 'sign-in');
      };
      expect(await listed()).toBe('on');
      const off = await update('--sign-in', 'off');
      expect(off.code, off.stderr).toBe(0);
      expect(field(off.stdout, 'sign-in')).toBe('off');
      expect(await listed()).toBe('off');
      // Another change leaves it as it is.
      expect((await update('--display-name', 'Renamed')).code).toBe(0);
      expect(await listed()).toBe('off');
      const on = await update('--sign-in', 'on');
      expect(field(on.stdout, 'sign-in')).toBe('on');
      expect(await listed()).toBe('on');
      for (const bad of ['yes', 'true', 'ON', '']) {
        const refused = await update('--sign-in', bad);
        expect(refused.code).toBe(2);
        expect(refused.stderr).toContain('--sign-in must be one of on, off');
      }
      expect(await listed()).toBe('on');
    }
    const help = await cli('sso', 'update', '--help');
    expect(help.stdout).toContain('--sign-in on|off');
  });

  it('prints our URLs under PUBLIC_URL, and warns when PUBLIC_URL is unset', async () => {
    const create = async (env: Record<string, string>, name: string) => {
      let stdout = '';
      let stderr = '';
      const args = ['sso', 'create-saml', '--project', projectId, '--org', 'initech'];
      const code = await runCli([...args, '--display-name', name], {
        stdout: (t) => void (stdout += t),
        stderr: (t) => void (stderr += t),
        env: { DATABASE_URL: databaseUrl, ...env },
      });
      return { code, stdout, stderr };
    };
    const elsewhere = await create({ PUBLIC_URL: 'https://auth.example.com' }, 'Elsewhere');
    expect(elsewhere.code).toBe(0);
    expect(field(elsewhere.stdout, 'ACS URL')).toMatch(
      /^https:\/\/auth\.example\.com\/v1\/sso\/saml\/acs\//,
    );
    expect(elsewhere.stdout).not.toContain('localhost');
    expect(elsewhere.stderr).not.toContain('PUBLIC_URL');
    const unset = await create({}, 'Unset');
    expect(field(unset.stdout, 'ACS URL')).toMatch(/^http:\/\/localhost:3000\//);
    expect(unset.stderr).toContain('PUBLIC_URL is not set');
    const oidcHelp = await cli('sso', 'create-oidc', '--help');
    expect(oidcHelp.stdout).toContain('PUBLIC_URL');
  });
});
