#!/usr/bin/env node
/** `npm start`: the Gatehouse server and the demo app on http://localhost:3000 (PORT to change). */
import { startDemo } from './demo.js';
import { startMessage } from './start-message.js';

const port = process.env.PORT ? Number(process.env.PORT) : 3000;
if (!Number.isInteger(port) || port < 0 || port > 65535) {
  console.error(`PORT must be a port number, got "${process.env.PORT}"`);
  process.exit(1);
}

const dataDir = process.env.DATA_DIR ?? './data';
const server = process.env.DATABASE_URL ? { databaseUrl: process.env.DATABASE_URL } : {};

try {
  const demo = await startDemo({ port, host: process.env.HOST ?? 'localhost', dataDir, server });
  console.log(startMessage(demo));
  const stop = () => {
    demo.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
}
