// `gatehouse serve` in its own process: SIGTERM lets a request in flight finish, refuses new
// connections, closes the database and exits 0; the grace period bounds the wait.
import type { ChildProcess } from 'node:child_process';
import { connect, type Socket } from 'node:net';
import { ENDPOINTS } from '@gatehouse/protocol/endpoints';
import { afterAll, describe, expect, it } from 'vitest';
import { basic } from '../test/harness.js';
import { cliOnTempDatabase } from '../test/cli.js';
import { serveProcess } from '../test/serve-process.js';

const { databaseUrl, cli } = cliOnTempDatabase('gatehouse-shutdown-');
const children: ChildProcess[] = [];

afterAll(() => {
  for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
});

const field = (text: string, name: string) =>
  new RegExp(`^${name}:\\s+(\\S+)$`, 'm').exec(text)?.[1] ?? '';

/** Starts `gatehouse serve` on a free loopback port; resolves once it listens. */
async function serve(graceMs: number) {
  const server = await serveProcess({
    DATABASE_URL: databaseUrl,
    GATEHOUSE_DEV_INBOX: 'true',
    SHUTDOWN_GRACE_MS: String(graceMs),
  });
  children.push(server.child);
  return server;
}

/** Whether a new TCP connection to the port is refused. */
function refused(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(false);
    });
    socket.once('error', (error: NodeJS.ErrnoException) => resolve(error.code === 'ECONNREFUSED'));
  });
}

/** Everything the server writes on the socket until it closes it. */
function readAll(socket: Socket): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = '';
    socket.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
    socket.once('close', () => resolve(text));
    socket.once('error', reject);
  });
}

describe('gatehouse serve', () => {
  it('on SIGTERM finishes the request in flight, refuses new connections and exits 0', async () => {
    const created = await cli(
      'project',
      'create',
      '--name',
      'Shutdown',
      '--origin',
      'http://localhost:3000',
    );
    expect(created.code).toBe(0);
    const projectId = field(created.stdout, 'project_id');
    const publicToken = field(created.stdout, 'public_token');
    const org = await cli(
      'org',
      'create',
      '--project',
      projectId,
      '--name',
      'Acme',
      '--slug',
      'acme',
    );
    expect(org.code).toBe(0);

    const server = await serve(20_000);
    const exited = new Promise<number | null>((resolve) => server.child.once('exit', resolve));

    // A request whose body is still arriving when the signal comes: it is in flight.
    const body = JSON.stringify({ organization_slug: 'acme' });
    const socket = connect(server.port, '127.0.0.1');
    await new Promise<void>((resolve) => socket.once('connect', resolve));
    const answer = readAll(socket);
    socket.write(
      `POST ${ENDPOINTS.organizationsSearch.path} HTTP/1.1\r\n` +
        `Host: 127.0.0.1:${server.port}\r\n` +
        `Authorization: ${basic(publicToken, publicToken)}\r\n` +
        'Origin: http://localhost:3000\r\n' +
        'Content-Type: application/json\r\n' +
        `Content-Length: ${Buffer.byteLength(body)}\r\n` +
        'Connection: close\r\n\r\n' +
        body.slice(0, 10),
    );
    // Give the server time to take the request in before the signal.
    await new Promise((resolve) => setTimeout(resolve, 300));
    server.child.kill('SIGTERM');

    // The listener closes at once; the request in flight keeps its connection.
    const deadline = Date.now() + 10_000;
    while (!(await refused(server.port))) {
      if (Date.now() > deadline) throw new Error(`still accepting:\n${server.output()}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(server.child.exitCode).toBeNull();

    socket.end(body.slice(10));
    const response = await answer;
    expect(response).toMatch(/^HTTP\/1\.1 200 /);
    const json = JSON.parse(response.slice(response.indexOf('\r\n\r\n') + 4)) as {
      data: { organization: { organization_name: string } | null };
    };
    expect(json.data.organization?.organization_name).toBe('Acme');

    expect(await exited).toBe(0);
    const log = server.output();
    expect(log).toContain('shutting down');
    expect(log).toContain('database closed');
    expect(log.indexOf('database closed')).toBeGreaterThan(log.indexOf('shutting down'));
  });

  it('closes a request still in flight when the grace period is over, and still exits 0', async () => {
    const server = await serve(500);
    const exited = new Promise<number | null>((resolve) => server.child.once('exit', resolve));
    const socket = connect(server.port, '127.0.0.1');
    await new Promise<void>((resolve) => socket.once('connect', resolve));
    const answer = readAll(socket);
    // A body that never finishes arriving.
    socket.write(
      'POST /sdk/v1/b2b/organizations/search HTTP/1.1\r\nHost: 127.0.0.1\r\n' +
        'Content-Type: application/json\r\nContent-Length: 100\r\n\r\n{',
    );
    await new Promise((resolve) => setTimeout(resolve, 300));
    const signalled = Date.now();
    server.child.kill('SIGTERM');
    expect(await answer).toBe('');
    expect(await exited).toBe(0);
    expect(Date.now() - signalled).toBeLessThan(10_000);
    expect(server.output()).toContain('grace period over');
    expect(server.output()).toContain('database closed');
  });
});
