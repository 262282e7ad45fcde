// Upgrading: a database at the previous release's schema, holding data written as that release
// wrote it (a project, an organization, a member, a signing key, an OAuth sign-in under way), is
// brought up to date by `gatehouse migrate`; the server then runs on it with nothing lost. Runs on
// SQLite and, in npm test, on PostgreSQL.
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ENDPOINTS } from '@gatehouse/protocol/endpoints';
import { decodeProtectedHeader, exportJWK, exportPKCS8, generateKeyPair } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../cli.js';
import { SecretBox } from '../crypto/secret-box.js';
import { createServer } from '../http/app.js';
import { createMember } from '../tenancy/members/store.js';
import { createOrganization } from '../tenancy/organizations/service.js';
import { ProjectService } from '../tenancy/projects/service.js';
import { testDatabase } from '../test/database.js';
import { basic } from '../test/harness.js';
import { openStore } from './db.js';
import { migrateTo, pendingMigrations, PREVIOUS_RELEASE_MIGRATION } from './migrations.js';

const dir = mkdtempSync(join(tmpdir(), 'gatehouse-upgrade-'));
const serverKey = randomBytes(32).toString('hex');
let database: Awaited<ReturnType<typeof testDatabase>>;
const seeded = { publicToken: '', orgId: '', kid: '' };

beforeAll(async () => {
  database = await testDatabase(dir);
  const store = openStore(database.url);
  try {
    await migrateTo(store.db, PREVIOUS_RELEASE_MIGRATION, await store.migrationSchema());
    const now = Date.now();
    const project = await new ProjectService(store.db, () => now).create({
      name: 'Before the upgrade',
      redirectUrls: { login: ['http://localhost:3000/in'], signup: ['http://localhost:3000/in'] },
    });
    const org = await createOrganization(
      store.db,
      project.project_id,
      'test',
      { organization_name: 'Old Acme', organization_slug: 'old-acme' },
      now,
    );
    if (org === 'slug_taken') throw new Error('slug taken');
    await createMember(
      store.db,
      project.project_id,
      'test',
      org.organization_id,
      { email_address: 'ada@old-acme.test' },
      now,
    );
    // The signing key as the previous release stored it: no retirement column yet.
    const { publicKey, privateKey } = await generateKeyPair('RS256', { extractable: true });
    const kid = randomUUID();
    await store.db
      .insertInto('signing_keys')
      .values({
        id: kid,
        algorithm: 'RS256',
        public_jwk: JSON.stringify({
          ...(await exportJWK(publicKey)),
          kid,
          alg: 'RS256',
          use: 'sig',
        }),
        private_key: new SecretBox(Buffer.from(serverKey, 'hex')).seal(
          await exportPKCS8(privateKey),
        ),
        active: 1,
        created_at: new Date(now).toISOString(),
      })
      .execute();
    Object.assign(seeded, {
      publicToken: project.public_token,
      orgId: org.organization_id,
      kid,
    });
  } finally {
    await store.close();
  }
});

afterAll(async () => {
  await database?.drop();
  rmSync(dir, { recursive: true, force: true });
});

describe(`upgrading from ${PREVIOUS_RELEASE_MIGRATION}`, () => {
  it('is done by gatehouse migrate, once, and the server runs on the data as it was', async () => {
    const env = { DATABASE_URL: database.url, GATEHOUSE_SERVER_KEY: serverKey };
    let stdout = '';
    const io = { stdout: (t: string) => void (stdout += t), stderr: () => undefined, env };
    expect(await runCli(['migrate'], io)).toBe(0);
    expect(stdout).toContain('Applied migrations: 0009_oauth_browser_binding');
    stdout = '';
    expect(await runCli(['migrate'], io)).toBe(0);
    expect(stdout).toBe('The database is up to date.\n');

    const app = await createServer({
      databaseUrl: database.url,
      serverKey,
      devInbox: true,
      logger: false,
    });
    try {
      const store = openStore(database.url);
      expect(await pendingMigrations(store.db, await store.migrationSchema())).toEqual([]);
      await store.close();

      const url = await app.listen({ host: '127.0.0.1', port: 0 });
      const post = (path: string, body: unknown) =>
        fetch(`${url}${path}`, {
          method: 'POST',
          headers: {
            authorization: basic(seeded.publicToken, seeded.publicToken),
            'content-type': 'application/json',
          },
          body: JSON.stringify(body),
        });
      const sent = await post(ENDPOINTS.magicLinksLoginOrSignup.path, {
        email_address: 'ada@old-acme.test',
        organization_id: seeded.orgId,
      });
      expect(sent.status).toBe(200);
      const message = (await app.gatehouse.listOutbox({ limit: 1 }))[0];
      const token = new URL(message?.links[0] ?? '').searchParams.get('token') ?? '';
      const signedIn = await post(ENDPOINTS.magicLinksAuthenticate.path, {
        magic_links_token: token,
        session_duration_minutes: 60,
      });
      expect(signedIn.status).toBe(200);
      const { data } = (await signedIn.json()) as { data: { session_jwt: string } };
      // The key the previous release made still signs.
      expect(decodeProtectedHeader(data.session_jwt).kid).toBe(seeded.kid);
    } finally {
      await app.close();
    }
  });
});
