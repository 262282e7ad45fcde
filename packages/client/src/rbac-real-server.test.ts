// The client's RBAC checks against a policy the server defines: a custom resource and role made
// through the management API, a member signed in with that role, and isAuthorized,
// isAuthorizedSync and allPermissions answering from the real bootstrap and session.
// @vitest-environment happy-dom
// @vitest-environment-options {"url": "http://localhost:3000/"}
import { request as httpRequest } from 'node:http';
import { ENDPOINTS } from '@gatehouse/protocol/endpoints';
import { startHarness, type Harness } from '@gatehouse/testing/server';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { useSignedInClients } from './test/signed-in.js';

vi.setConfig({ testTimeout: 30_000, hookTimeout: 30_000 });

let h: Harness;

beforeAll(async () => {
  h = await startHarness();
  // The management API as a host backend calls it: node's HTTP, outside the page's CORS rules.
  const put = (path: string, body: unknown) =>
    new Promise<void>((resolve, reject) => {
      const req = httpRequest(
        `${h.url}${path}`,
        {
          method: 'PUT',
          headers: {
            'content-type': 'application/json',
            authorization: `Basic ${Buffer.from(`${h.project.project_id}:${h.project.secret}`).toString('base64')}`,
          },
        },
        (res) => {
          let text = '';
          res.on('data', (chunk: Buffer) => (text += chunk.toString()));
          res.on('end', () =>
            res.statusCode === 200 ? resolve() : reject(new Error(`${path}: ${text}`)),
          );
        },
      );
      req.on('error', reject);
      req.end(JSON.stringify(body));
    });
  await put(ENDPOINTS.rbacResourceSet.path.replace(':resource_id', 'reports'), {
    description: 'Reports',
    actions: ['read', 'export', 'delete'],
  });
  await put(ENDPOINTS.rbacRoleSet.path.replace(':role_id', 'analyst'), {
    description: 'Reads and exports reports',
    permissions: [{ resource_id: 'reports', actions: ['read', 'export'] }],
  });
  await h.admin.createMember(h.project.project_id, h.org.organization_id, {
    email_address: 'ana@acme.test',
    roles: ['analyst'],
  });
});

afterAll(async () => {
  await h.close();
});

const signedIn = useSignedInClients(() => h);

describe('client RBAC against a server-defined policy', () => {
  it('grants the custom role exactly what the server says', async () => {
    const client = await signedIn('ana@acme.test');
    expect(await client.rbac.isAuthorized('reports', 'read')).toBe(true);
    expect(await client.rbac.isAuthorized('reports', 'export')).toBe(true);
    expect(await client.rbac.isAuthorized('reports', 'delete')).toBe(false);
    expect(client.rbac.isAuthorizedSync('reports', 'export')).toBe(true);
    expect(client.rbac.isAuthorizedSync('stytch.organization', 'update.info.name')).toBe(false);
    const all = await client.rbac.allPermissions();
    expect(all.reports).toEqual({ read: true, export: true, delete: false });
    // The built-in member role still applies alongside the custom one: every action on oneself,
    // by the provider's fine-grained names, and none on other members.
    expect(all['stytch.self']?.['update.info.name']).toBe(true);
    expect(all['stytch.self']?.['update.settings.mfa-enrolled']).toBe(true);
    expect(all['stytch.member']?.search).toBe(false);
    expect(all['stytch.member']?.['update.info.name']).toBe(false);
  });

  it('grants a member without the role none of it', async () => {
    const client = await signedIn('ada@acme.test');
    expect(await client.rbac.isAuthorized('reports', 'read')).toBe(false);
    expect((await client.rbac.allPermissions()).reports).toEqual({
      read: false,
      export: false,
      delete: false,
    });
  });
});
