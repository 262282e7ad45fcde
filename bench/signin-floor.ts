/**
 * Child process of `signin-rate.ts`: the floor of a password sign-in. A bare Fastify server on
 * 127.0.0.1 whose one route, on the sign-in's path and method, does only what no sign-in can skip:
 * it reads the JSON body, checks the password on the server's own hashing threads
 * (`verifyPassword`, the server's parameters), signs a session JWT with RS256 as the protocol
 * requires (`signRs256`, a 2048-bit key), and answers the bytes of a real Gatehouse sign-in
 * (read from `ANSWER_FILE`) with that JWT in them. No database, throttle, session or check of
 * the caller: what HTTP, the hash and the signature cost together, beside each other on the
 * same cores, which is the best any server could do against the raw argon2id rate.
 */
import { generateKeyPairSync } from 'node:crypto';
import { readFileSync } from 'node:fs';
import Fastify from 'fastify';
import { hashPassword, signRs256, verifyPassword } from '@gatehouse/server';

interface Answer {
  data: { session_jwt: string } & Record<string, unknown>;
}

const answer = JSON.parse(readFileSync(process.env.ANSWER_FILE ?? '', 'utf8')) as Answer;
const password = process.env.PASSWORD ?? '';
// The claims of the real answer's JWT, signed again with fresh times for each sign-in.
const [header, payload] = answer.data.session_jwt
  .split('.')
  .slice(0, 2)
  .map(
    (part) =>
      JSON.parse(Buffer.from(part, 'base64url').toString('utf8')) as Record<string, unknown>,
  );
const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
const stored = await hashPassword(password);

const app = Fastify({ logger: false });
app.post('/sdk/v1/b2b/passwords/authenticate', async (request, reply) => {
  const { password: typed } = request.body as { password?: unknown };
  const { valid } = await verifyPassword(stored, typeof typed === 'string' ? typed : '');
  if (!valid) return reply.code(401).send({ error_type: 'unauthorized_credentials' });
  const now = Math.floor(Date.now() / 1000);
  const jwt = signRs256(privateKey, header!, { ...payload, iat: now, nbf: now, exp: now + 300 });
  return reply
    .type('application/json; charset=utf-8')
    .send(JSON.stringify({ ...answer, data: { ...answer.data, session_jwt: jwt } }));
});
const url = await app.listen({ port: 0, host: '127.0.0.1' });
process.on('SIGTERM', () => {
  void app.close().then(() => process.exit(0));
});
process.stdout.write(JSON.stringify({ url }) + '\n');
