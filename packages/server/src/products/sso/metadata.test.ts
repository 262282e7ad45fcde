// SAML metadata by URL: the host is resolved once, and the connection goes to the address that
// was checked, so a name that answers a public address to the check and a loopback one a moment
// later (DNS rebinding) never reaches this machine.
import { once } from 'node:events';
import { createServer as createHttpServer, type IncomingHttpHeaders } from 'node:http';
import { createServer as createTcpServer, type AddressInfo } from 'node:net';
import { ENDPOINTS } from '@gatehouse/protocol/endpoints';
import { startSamlIdp, type SamlIdp } from '@gatehouse/testing/idp';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { expectError, expectOk, startHarness, type Harness } from '../../test/harness.js';

vi.setConfig({ testTimeout: 30_000, hookTimeout: 30_000 });

/** What the resolver the server was given answers, per host name, call after call. */
const answers = new Map<string, string[][]>();
const lookups: string[] = [];
async function resolveHost(hostname: string): Promise<string[]> {
  lookups.push(hostname);
  const queue = answers.get(hostname) ?? [];
  return (queue.length > 1 ? queue.shift() : queue[0]) ?? [];
}

let h: Harness;
let idp: SamlIdp;

beforeAll(async () => {
  [h, idp] = await Promise.all([
    startHarness({ listen: true, config: { resolveHost } }),
    startSamlIdp(),
  ]);
});

afterAll(async () => {
  await Promise.all([h?.close(), idp?.close()]);
});

async function pendingConnection(): Promise<string> {
  return expectOk(
    await h.call(ENDPOINTS.ssoCreateSaml, {
      params: { organization_id: h.org.organization_id },
      body: {},
    }),
  ).connection.connection_id;
}

const byUrl = (connectionId: string, metadataUrl: string) =>
  h.call(ENDPOINTS.ssoUpdateSamlByMetadata, {
    params: { organization_id: h.org.organization_id, connection_id: connectionId },
    body: { metadata_url: metadataUrl },
  });

describe('metadata fetched by URL', () => {
  it('connects to the address it checked, never to one a second lookup answers', async () => {
    // Anything on this machine that the rebinding would reach instead.
    const loopback = createTcpServer((socket) => socket.destroy());
    let reached = 0;
    loopback.on('connection', () => {
      reached += 1;
    });
    loopback.listen(0, '127.0.0.1');
    await once(loopback, 'listening');
    const port = (loopback.address() as AddressInfo).port;
    // A documentation address (TEST-NET-1): public to the check, reachable by no one.
    answers.set('rebind.test', [['192.0.2.10'], ['127.0.0.1']]);
    lookups.length = 0;
    try {
      const res = await byUrl(await pendingConnection(), `https://rebind.test:${port}/metadata`);
      expect([res.status, expectError(res).error_type]).toEqual([400, 'invalid_saml_metadata']);
      expect(lookups).toEqual(['rebind.test']);
      expect(reached).toBe(0);
    } finally {
      loopback.close();
    }
  });

  it('still fetches through the checked address, naming the host', async () => {
    const hosts: IncomingHttpHeaders['host'][] = [];
    const server = createHttpServer((request, response) => {
      hosts.push(request.headers.host);
      response.writeHead(200, { 'content-type': 'application/xml' }).end(idp.metadataXml);
    });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    const port = (server.address() as AddressInfo).port;
    answers.set('idp.pinned.test', [['127.0.0.1']]);
    try {
      const res = await byUrl(await pendingConnection(), `http://idp.pinned.test:${port}/metadata`);
      expect(expectOk(res).connection).toMatchObject({
        status: 'active',
        idp_entity_id: idp.entityId,
        idp_sso_url: idp.ssoUrl,
      });
      expect(hosts).toEqual([`idp.pinned.test:${port}`]);
    } finally {
      server.closeAllConnections();
      server.close();
    }
  });

  it('refuses a name that resolves into a private network over https', async () => {
    answers.set('intranet.test', [['10.1.2.3']]);
    const res = await byUrl(await pendingConnection(), 'https://intranet.test/metadata');
    expect(expectError(res).error_message).toContain('private network');
  });
});
