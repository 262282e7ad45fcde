/** An in-memory AdminClient for the admin portal's tests: records every call, answers as told. */
import type { AdminClient } from '@gatehouse/client';

type AsyncMethod = (...args: never[]) => Promise<unknown>;

/** Dotted paths of the admin client's calls: `'organization.members.list'`, … */
type PathsOf<T, Prefix extends string = ''> = {
  [K in keyof T & string]: T[K] extends AsyncMethod
    ? `${Prefix}${K}`
    : PathsOf<T[K], `${Prefix}${K}.`>;
}[keyof T & string];

type At<T, Path extends string> = Path extends `${infer Head}.${infer Rest}`
  ? Head extends keyof T
    ? At<T[Head], Rest>
    : never
  : Path extends keyof T
    ? T[Path]
    : never;

/** A call of the admin client a test can answer. */
export type FakeAdminMethod = PathsOf<AdminClient>;

type AdminMethodOf<M extends FakeAdminMethod> =
  At<AdminClient, M> extends (...args: infer A) => infer R ? (...args: A) => R : never;

/** A fake admin client; `answer` sets how a call responds, `callsTo` lists what was asked. */
export interface FakeAdminClient extends AdminClient {
  answer<M extends FakeAdminMethod>(method: M, handler: AdminMethodOf<M>): void;
  callsTo<M extends FakeAdminMethod>(method: M): Parameters<AdminMethodOf<M>>[0][];
}

/**
 * Creates a fake admin client. Unanswered calls reject, so a test never passes by accident.
 *
 * @example
 * const admin = createFakeAdminClient();
 * admin.answer('organization.members.list', async () => membersPage([member()]));
 */
export function createFakeAdminClient(): FakeAdminClient {
  const calls: { method: FakeAdminMethod; args: unknown }[] = [];
  const handlers = new Map<FakeAdminMethod, (...args: unknown[]) => Promise<unknown>>();
  const method =
    <A extends unknown[], R>(name: FakeAdminMethod) =>
    (...args: A): Promise<R> => {
      calls.push({ method: name, args: args[0] });
      const handler = handlers.get(name);
      if (!handler) return Promise.reject(new Error(`fake admin client: no answer for ${name}`));
      return handler(...args) as Promise<R>;
    };
  return {
    answer(name, handler) {
      handlers.set(name, handler as (...args: unknown[]) => Promise<unknown>);
    },
    callsTo: (name) => calls.filter((c) => c.method === name).map((c) => c.args),
    organization: {
      get: method('organization.get'),
      update: method('organization.update'),
      members: {
        list: method('organization.members.list'),
        update: method('organization.members.update'),
        delete: method('organization.members.delete'),
        reactivate: method('organization.members.reactivate'),
        deleteMfaPhoneNumber: method('organization.members.deleteMfaPhoneNumber'),
        deleteTotp: method('organization.members.deleteTotp'),
        deletePassword: method('organization.members.deletePassword'),
      },
      sessions: {
        list: method('organization.sessions.list'),
        revoke: method('organization.sessions.revoke'),
      },
      domains: {
        list: method('organization.domains.list'),
        add: method('organization.domains.add'),
        delete: method('organization.domains.delete'),
        verify: method('organization.domains.verify'),
      },
    },
    magicLinks: {
      email: {
        invite: method('magicLinks.email.invite'),
        resendInvite: method('magicLinks.email.resendInvite'),
        revokeInvite: method('magicLinks.email.revokeInvite'),
      },
    },
    self: {
      get: method('self.get'),
      deleteMfaPhoneNumber: method('self.deleteMfaPhoneNumber'),
      deleteTotp: method('self.deleteTotp'),
      sessions: { list: method('self.sessions.list'), revoke: method('self.sessions.revoke') },
    },
    sso: {
      getConnections: method('sso.getConnections'),
      deleteConnection: method('sso.deleteConnection'),
      saml: {
        createConnection: method('sso.saml.createConnection'),
        updateConnectionByMetadata: method('sso.saml.updateConnectionByMetadata'),
        updateConnection: method('sso.saml.updateConnection'),
        deleteVerificationCertificate: method('sso.saml.deleteVerificationCertificate'),
        testConnection: method('sso.saml.testConnection'),
        getTest: method('sso.saml.getTest'),
      },
      oidc: {
        createConnection: method('sso.oidc.createConnection'),
        updateConnection: method('sso.oidc.updateConnection'),
        testConnection: method('sso.oidc.testConnection'),
        getTest: method('sso.oidc.getTest'),
      },
    },
  };
}
