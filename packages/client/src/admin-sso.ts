/**
 * The organization's SSO connections for its admins (docs/protocol.md §7.10): listing, creating
 * and changing them, certificate rotation, and test sign-ins, with the signed-in member's session.
 */
import type {
  OidcConnectionResult,
  SamlConnectionResult,
  SsoConnectionDeleteResult,
  SsoConnectionsResult,
  SsoConnectionTestResult,
  SsoConnectionTestStartResult,
} from '@gatehouse/protocol';
import type { SsoAdminMethods } from './admin-types.js';
import { GatehouseUsageError } from './errors.js';

/** What the calls send through: the admin client's transport. */
interface SsoTransport {
  get<T>(path: string): Promise<T>;
  post<T>(path: string, body: object): Promise<T>;
  send<T>(method: 'PUT' | 'DELETE', path: string, body?: object): Promise<T>;
}

const SSO = '/b2b/sso';
const part = (value: string) => encodeURIComponent(value);
const saml = (connectionId: string) => `${SSO}/saml/${part(connectionId)}`;

/** The test sign-in calls of one connection kind (the same shape for SAML and OIDC). */
function testCalls(ctx: SsoTransport, kind: 'saml' | 'oidc') {
  const base = (connectionId: string) => `${SSO}/${kind}/${part(connectionId)}/test`;
  return {
    async testConnection(args: { connection_id: string }) {
      const method = `sso.${kind}.testConnection`;
      const connection = id(method, object(method, args).connection_id, 'connection_id');
      return ctx.post<SsoConnectionTestStartResult>(base(connection), {});
    },
    async getTest(args: { connection_id: string; test_id: string }) {
      const method = `sso.${kind}.getTest`;
      object(method, args);
      const connection = id(method, args.connection_id, 'connection_id');
      const test = id(method, args.test_id, 'test_id');
      return ctx.get<SsoConnectionTestResult>(`${base(connection)}/${part(test)}`);
    },
  };
}

/** A usage error unless `args` is a plain object (bodies too nested for field rules). */
function object<T>(method: string, args: T): T {
  if (typeof args !== 'object' || args === null || Array.isArray(args)) {
    throw new GatehouseUsageError(`${method}: expected an object of arguments.`);
  }
  return args;
}

function id(method: string, value: unknown, field: string): string {
  if (typeof value !== 'string' || value === '') {
    throw new GatehouseUsageError(`${method}: ${field} must be a non-empty string.`);
  }
  return value;
}

/**
 * The SSO calls of `createAdminClient(client).sso`.
 *
 * @example
 * const { test, idp_url } = await admin.sso.saml.testConnection({ connection_id });
 * popup.location.href = idp_url;
 * const { test: report } = await admin.sso.saml.getTest({ connection_id, test_id: test.test_id });
 */
export function createSsoAdminMethods(ctx: SsoTransport): SsoAdminMethods {
  return {
    getConnections: () => ctx.get<SsoConnectionsResult>(SSO),
    async deleteConnection(connectionId) {
      const checked = id('sso.deleteConnection', connectionId, 'connectionId');
      return ctx.send<SsoConnectionDeleteResult>('DELETE', `${SSO}/${part(checked)}`);
    },
    saml: {
      async createConnection(args) {
        object('sso.saml.createConnection', args);
        return ctx.post<SamlConnectionResult>(`${SSO}/saml`, args);
      },
      async updateConnection(args) {
        const method = 'sso.saml.updateConnection';
        const { connection_id, ...body } = object(method, args);
        const path = saml(id(method, connection_id, 'connection_id'));
        return ctx.send<SamlConnectionResult>('PUT', path, body);
      },
      async updateConnectionByMetadata(args) {
        const method = 'sso.saml.updateConnectionByMetadata';
        const { connection_id, ...body } = object(method, args);
        const path = `${saml(id(method, connection_id, 'connection_id'))}/url`;
        return ctx.send<SamlConnectionResult>('PUT', path, body);
      },
      async deleteVerificationCertificate(args) {
        const method = 'sso.saml.deleteVerificationCertificate';
        object(method, args);
        const connection = id(method, args.connection_id, 'connection_id');
        const certificate = id(method, args.certificate_id, 'certificate_id');
        const path = `${saml(connection)}/verification_certificates/${part(certificate)}`;
        return ctx.send<SamlConnectionResult>('DELETE', path);
      },
      ...testCalls(ctx, 'saml'),
    },
    oidc: {
      async createConnection(args) {
        object('sso.oidc.createConnection', args);
        return ctx.post<OidcConnectionResult>(`${SSO}/oidc`, args);
      },
      async updateConnection(args) {
        const method = 'sso.oidc.updateConnection';
        const { connection_id, ...body } = object(method, args);
        const path = `${SSO}/oidc/${part(id(method, connection_id, 'connection_id'))}`;
        return ctx.send<OidcConnectionResult>('PUT', path, body);
      },
      ...testCalls(ctx, 'oidc'),
    },
  };
}
