// RBAC (docs/widget.md §6): role ids of the session against the bootstrap policy, wildcard, deny by default.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { allPermissions, isAuthorized } from './rbac.js';
import { apiError, installFakeApi, ok } from './test/fake-api.js';
import { PUBLIC_TOKEN, bootstrapData, fullSession } from '@gatehouse/testing';
import { cleanup, makeClient, setSessionCookie } from './test/harness.js';

afterEach(cleanup);

const policy = bootstrapData().rbac_policy;

describe('isAuthorized', () => {
  it('grants listed actions and the wildcard, only for held roles and the named resource', () => {
    expect(isAuthorized(policy, ['member'], 'documents', 'read')).toBe(true);
    expect(isAuthorized(policy, ['member'], 'documents', 'delete')).toBe(false);
    expect(isAuthorized(policy, ['admin'], 'documents', 'delete')).toBe(true);
    expect(isAuthorized(policy, ['admin'], 'invoices', 'read')).toBe(false);
    expect(isAuthorized(policy, ['member', 'admin'], 'documents', 'write')).toBe(true);
    expect(isAuthorized(policy, [], 'documents', 'read')).toBe(false);
    expect(isAuthorized(null, ['admin'], 'documents', 'read')).toBe(false);
  });

  it('lists every declared action per resource', () => {
    expect(allPermissions(policy, ['member'])).toEqual({
      documents: { read: true, write: false, delete: false },
    });
    expect(allPermissions(policy, ['admin'])).toEqual({
      documents: { read: true, write: true, delete: true },
    });
  });
});

describe('client rbac', () => {
  async function signedInAs(roles: string[], bootstrap = () => ok(bootstrapData())) {
    installFakeApi({
      [`/projects/bootstrap/${PUBLIC_TOKEN}`]: bootstrap,
      '/b2b/sessions/authenticate': () => ok(fullSession({ roles })),
    });
    setSessionCookie();
    const client = makeClient();
    await client.session.authenticate();
    return client;
  }

  it("checks the session's roles against the bootstrap policy", async () => {
    const client = await signedInAs(['member']);
    await expect(client.rbac.isAuthorized('documents', 'read')).resolves.toBe(true);
    await expect(client.rbac.isAuthorized('documents', 'write')).resolves.toBe(false);
    expect(client.rbac.isAuthorizedSync('documents', 'read')).toBe(true);
    await expect(client.rbac.allPermissions()).resolves.toEqual({
      documents: { read: true, write: false, delete: false },
    });
  });

  it('denies everything without a session', async () => {
    installFakeApi();
    const client = makeClient();
    await expect(client.rbac.isAuthorized('documents', 'read')).resolves.toBe(false);
    expect(client.rbac.isAuthorizedSync('documents', 'read')).toBe(false);
  });

  it('warns and denies when the policy could not be fetched', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const client = await signedInAs(['admin'], () => apiError(500, 'internal_server_error'));
    await expect(client.rbac.isAuthorized('documents', 'read')).resolves.toBe(false);
    await expect(client.rbac.allPermissions()).resolves.toEqual({});
    expect(warn).toHaveBeenCalledWith(expect.stringContaining('RBAC policy could not be fetched'));
  });

  it('rejects non-string arguments as usage errors', async () => {
    installFakeApi();
    const client = makeClient();
    expect(() => client.rbac.isAuthorizedSync(1 as never, 'read')).toThrow(
      'resourceId must be a string',
    );
    await expect(client.rbac.isAuthorized('documents', null as never)).rejects.toThrow(
      'action must be a string',
    );
  });
});
