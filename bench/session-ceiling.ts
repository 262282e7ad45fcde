/**
 * Child process of `session-compare.ts`: the ceiling. A bare Fastify server on 127.0.0.1 whose one
 * route answers the bytes of a real Gatehouse session check (read from `BODY_FILE`) from memory,
 * on the same path and method: what Node's HTTP stack and Fastify cost for that answer alone.
 */
import { readFileSync } from 'node:fs';
import Fastify from 'fastify';

const body = readFileSync(process.env.BODY_FILE ?? '');
const app = Fastify({ logger: false });
app.post('/sdk/v1/b2b/sessions/authenticate', async (_request, reply) =>
  reply.type('application/json; charset=utf-8').send(body),
);
const url = await app.listen({ port: 0, host: '127.0.0.1' });
process.on('SIGTERM', () => {
  void app.close().then(() => process.exit(0));
});
process.stdout.write(JSON.stringify({ url }) + '\n');
