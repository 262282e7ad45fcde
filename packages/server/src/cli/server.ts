/** The commands that run the server and keep its database schema current: `serve` and `migrate`. */
import type { FastifyInstance } from 'fastify';
import { configFromEnv, resolveConfig } from '../config.js';
import { createServer } from '../http/app.js';
import { defineCommand, option, UsageError, type Parser } from './command.js';
import { DATABASE_SETTINGS, SERVER_SETTINGS } from './environment.js';
import { withRuntime } from './open.js';

const DEFAULT_PORT = 3000;
const DEFAULT_HOST = '0.0.0.0';

/** A TCP port, 0 (any free port) to 65535. */
const portNumber: Parser<number> = (raw, flag) => {
  const port = Number(raw);
  if (!/^\d+$/.test(raw.trim()) || port > 65535) {
    throw new UsageError(`${flag} must be a port number`);
  }
  return port;
};

/**
 * On SIGTERM or SIGINT: stops accepting connections, lets requests in flight finish for up to
 * `graceMs`, then closes the connections still open, closes the database (the app's `onClose`)
 * and exits 0, or 1 when closing failed. A second signal cuts the wait short.
 */
function closeOnSignals(app: FastifyInstance, graceMs: number): void {
  let closing = false;
  const cutOff = (reason: string) => {
    app.log.warn({}, `${reason}: closing the connections still open`);
    app.server.closeAllConnections();
  };
  const onSignal = (signal: NodeJS.Signals) => {
    if (closing) return cutOff(`${signal} again`);
    closing = true;
    app.log.info(
      { signal, grace_ms: graceMs },
      'shutting down: no new connections, waiting for requests in flight',
    );
    const deadline = setTimeout(() => cutOff('grace period over'), graceMs);
    deadline.unref();
    app.close().then(
      () => {
        clearTimeout(deadline);
        app.log.info({}, 'stopped');
        process.exit(0);
      },
      (error: unknown) => {
        app.log.error({ err: error }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
}

/** `gatehouse serve`: the HTTP server, until SIGINT or SIGTERM. */
export const serve = defineCommand({
  name: ['serve'],
  summary: 'Start the server (migrates first)',
  usage: '[--port N] [--host H]',
  description:
    'Starts the server, after bringing the database schema up to date. It reads its settings ' +
    'from the environment, listed below.\n\n' +
    'SMTP_HOST is required: without it the server refuses to start, unless ' +
    'GATEHOUSE_DEV_INBOX=true asks for the dev inbox (development only). Behind reverse proxies, ' +
    'set TRUST_PROXY so that rate limits see client addresses.\n\n' +
    'On SIGTERM or SIGINT it stops accepting connections, lets requests in flight finish (for up ' +
    'to SHUTDOWN_GRACE_MS), closes the database and exits 0.',
  options: {
    port: option('N', `The port to listen on; PORT when not given, else ${DEFAULT_PORT}`, {
      short: 'p',
      parse: portNumber,
    }),
    host: option('H', `The address to listen on; ${DEFAULT_HOST} when not given`),
  },
  environment: SERVER_SETTINGS,
  async run(values, io) {
    // An empty PORT is unset, as every other variable is (configFromEnv).
    const port = values.port ?? (io.env.PORT ? portNumber(io.env.PORT, 'PORT') : DEFAULT_PORT);
    const config = { ...configFromEnv(io.env), logger: true };
    const app = await createServer(config);
    const address = await app.listen({ port, host: values.host ?? DEFAULT_HOST });
    io.stdout(`Gatehouse listening on ${address}\n`);
    closeOnSignals(app, resolveConfig(config).shutdownGraceMs);
  },
});

/** `gatehouse migrate`: the schema migrations, without serving. */
export const migrate = defineCommand({
  name: ['migrate'],
  summary: 'Bring the database schema up to date',
  usage: '',
  description:
    'Applies pending schema migrations to DATABASE_URL. Never drops data. The other commands, ' +
    'except serve (which migrates before it listens), refuse a database with migrations not ' +
    'applied until this has run.',
  options: {},
  environment: DATABASE_SETTINGS,
  async run(_values, io) {
    await withRuntime(
      io,
      async (runtime) => {
        io.stdout(
          runtime.migrations.length > 0
            ? `Applied migrations: ${runtime.migrations.join(', ')}\n`
            : 'The database is up to date.\n',
        );
      },
      { migrate: true },
    );
  },
});
