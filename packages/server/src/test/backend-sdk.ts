/**
 * A Gatehouse server for the hosted provider's backend SDK (`stytch`, `B2BClient`): the SDK takes
 * only an https base URL and trusts only JWTs issued by it, so the listening test server sits
 * behind a TLS front with a certificate made for this run, and `PUBLIC_URL` is the front's URL.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import https from 'node:https';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer as createTlsServer } from 'node:tls';
import { B2BClient } from 'stytch';
import { Agent } from 'undici';
import { startHarness, type Harness, type HarnessOptions } from './harness.js';
import { startSmtpReceiver, type SmtpReceiver } from './smtp.js';

/** A harness reached through TLS, and the provider's backend client aimed at it. */
export interface SdkHarness {
  /** The server, its seeded project, organization and member, and its in-process helpers. */
  h: Harness;
  /** The TLS front's URL (`https://127.0.0.1:{port}`): the server's `PUBLIC_URL`. */
  url: string;
  /** The provider's backend client with the seeded project's secret key. */
  client: B2BClient;
  /** The SMTP receiver the server sends its e-mail to (an https server has no dev inbox). */
  smtp: SmtpReceiver;
  /** Another client of the same server with other credentials (another project's, a wrong secret). */
  clientFor(projectId: string, secret: string): B2BClient;
  close(): Promise<void>;
}

/** A self-signed certificate for 127.0.0.1, valid for a day, made by the `openssl` CLI. */
function throwawayCertificate(): { key: string; cert: string } {
  const dir = mkdtempSync(join(tmpdir(), 'gatehouse-tls-'));
  try {
    const key = join(dir, 'key.pem');
    const cert = join(dir, 'cert.pem');
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'ec',
        '-pkeyopt',
        'ec_paramgen_curve:prime256v1',
        '-nodes',
        '-days',
        '1',
        '-subj',
        '/CN=127.0.0.1',
        '-addext',
        'subjectAltName=IP:127.0.0.1',
        '-keyout',
        key,
        '-out',
        cert,
      ],
      { stdio: 'ignore' },
    );
    return { key: readFileSync(key, 'utf8'), cert: readFileSync(cert, 'utf8') };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * A TLS front that hands each connection, decrypted, to the port `upstream()` names. `close()`
 * also ends the connections clients keep alive.
 */
async function tlsFront(
  tls: { key: string; cert: string },
  upstream: () => number,
): Promise<{ port: number; close(): Promise<void> }> {
  const open = new Set<Socket>();
  const server = createTlsServer(tls, (socket) => {
    const plain = connect(upstream(), '127.0.0.1');
    for (const one of [socket, plain]) {
      open.add(one);
      one.on('close', () => open.delete(one));
    }
    socket.pipe(plain).pipe(socket);
    socket.on('error', () => plain.destroy());
    plain.on('error', () => socket.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('TLS front not listening');
  return {
    port: address.port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        for (const socket of open) socket.destroy();
      }),
  };
}

/** The text of a raw message's parts, base64 and quoted-printable decoded. */
function mailText(raw: string): string {
  return raw
    .split(/\r?\n--/)
    .map((part) => {
      const [headers = '', ...rest] = part.split(/\r?\n\r?\n/);
      const body = rest.join('\n\n');
      if (/Content-Transfer-Encoding: base64/i.test(headers)) {
        return Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8');
      }
      if (/Content-Transfer-Encoding: quoted-printable/i.test(headers)) {
        return body
          .replace(/=\r?\n/g, '')
          .replace(/=([0-9A-F]{2})/gi, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
      }
      return body;
    })
    .join('\n');
}

/**
 * `lastToken` for a server that sends its e-mail over SMTP: delivers what is queued (as the
 * worker would), then takes the token of the first link in the newest message to `to` that it
 * has not handed out before, waiting up to five seconds for it to arrive.
 */
function smtpLastToken(h: Harness, smtp: SmtpReceiver): (to: string) => Promise<string> {
  let taken = 0;
  return async (to) => {
    for (let attempt = 0; attempt < 200; attempt += 1) {
      await h.admin.deliverMail();
      const index = smtp.received.findLastIndex((m) => m.to.includes(to));
      const token =
        index >= taken
          ? /[?&]token=([\w-]+)/.exec(mailText(smtp.received[index]?.raw ?? ''))
          : null;
      if (token?.[1]) {
        taken = index + 1;
        return token[1];
      }
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    throw new Error(`No e-mail with a token reached ${to}`);
  };
}

/**
 * Starts a listening harness behind a TLS front, `PUBLIC_URL` the front's https URL, and a
 * `B2BClient` with the seeded project's credentials whose calls trust the run's certificate
 * (an undici `Agent` as its `dispatcher`). E-mail goes to an SMTP receiver, where `h.lastToken`
 * (and so `h.login`) reads it. The SDK fetches the JWKS for local JWT checks through
 * Node's https module, so `https.globalAgent` trusts it too until `close()`.
 *
 * @example
 * const sdk = await startSdkHarness();
 * const { organization } = await sdk.client.organizations.get({ organization_id: sdk.h.org.organization_id });
 * await sdk.close();
 */
export async function startSdkHarness(options: HarnessOptions = {}): Promise<SdkHarness> {
  const tls = throwawayCertificate();
  let port = 0;
  const front = await tlsFront(tls, () => port);
  const url = `https://127.0.0.1:${front.port}`;
  // An https PUBLIC_URL means production: no dev inbox, so e-mail goes to a real receiver.
  const smtp = await startSmtpReceiver();
  let h: Harness;
  try {
    h = await startHarness({
      ...options,
      listen: true,
      config: {
        smtp: { host: '127.0.0.1', port: smtp.port, secure: false },
        ...options.config,
        publicUrl: url,
      },
    });
  } catch (error) {
    await Promise.all([front.close(), smtp.close()]);
    throw error;
  }
  port = Number(new URL(h.url).port);
  // `login` reads the token through `lastToken`, which reads the outbox an https server keeps
  // no copies in.
  h.lastToken = smtpLastToken(h, smtp);
  const dispatcher = new Agent({ connect: { ca: tls.cert } });
  const previousCa = https.globalAgent.options.ca;
  https.globalAgent.options.ca = tls.cert;
  const clientFor = (projectId: string, secret: string) =>
    new B2BClient({ project_id: projectId, secret, custom_base_url: url, dispatcher });
  const client = clientFor(h.project.project_id, h.project.secret);
  return {
    h,
    url,
    client,
    smtp,
    clientFor,
    async close() {
      https.globalAgent.options.ca = previousCa;
      await dispatcher.close();
      await front.close();
      await h.close();
      await smtp.close();
    },
  };
}
