// A project's secret keys over HTTP, the CLI and the admin API, on two instances over one
// database: a second key for a handover, the old one deleted and refused at once everywhere, and
// the refusals (last key, the calling key, another project's key, a public token as a key).
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENDPOINTS } from '@gatehouse/protocol/endpoints';
import { cliOnHarness } from '../../test/cli.js';
import { AdminError } from './admin.js';
import { basic, expectError, expectOk, startHarness, type Harness } from '../../test/harness.js';

let h: Harness;
let b: { url: string };

beforeAll(async () => {
  h = await startHarness({ listen: true });
  b = await h.sibling();
});

afterAll(async () => {
  await h?.close();
});

/** Management credentials of the harness's project with another secret key. */
const as = (secret: string, projectId = h.project.project_id) => ({
  authorization: basic(projectId, secret),
  origin: null,
});

/** The HTTP status of `GET /v1/b2b/project` with this key, on one instance. */
async function projectStatus(secret: string, baseUrl: string, projectId = h.project.project_id) {
  return (await h.call(ENDPOINTS.getProject, { ...as(secret, projectId), baseUrl })).status;
}

const cli = (...argv: string[]) => cliOnHarness(h, ...argv);

async function adminErrorType(work: () => Promise<unknown>): Promise<string> {
  try {
    await work();
    return 'succeeded';
  } catch (error) {
    return error instanceof AdminError ? error.errorType : `threw ${String(error)}`;
  }
}

describe('secret key handover over the management API', () => {
  it('adds a key, uses both, deletes the old one, which fails at once on every instance', async () => {
    const old = h.project.secret;
    const created = expectOk(await h.call(ENDPOINTS.createSecret, { body: {} }));
    expect(created.secret).toMatch(/^secret-test-/);
    expect(created.secret_id).toMatch(/^secret-test-/);

    // Stored as its SHA-256 only.
    const row = await h.db
      .selectFrom('secrets')
      .selectAll()
      .where('id', '=', created.secret_id)
      .executeTakeFirstOrThrow();
    expect(row.secret_hash).toBe(createHash('sha256').update(created.secret).digest('hex'));
    expect(JSON.stringify(row)).not.toContain(created.secret);

    for (const url of [h.url, b.url]) {
      expect(await projectStatus(old, url)).toBe(200);
      expect(await projectStatus(created.secret, url)).toBe(200);
    }

    const listRes = await h.call(ENDPOINTS.listSecrets, as(created.secret));
    const listed = expectOk(listRes);
    const flags = Object.fromEntries(
      listed.secrets.map((s) => [s.secret_id, s.used_by_this_request]),
    );
    expect(flags).toEqual({ [h.project.secret_id]: false, [created.secret_id]: true });
    expect(listRes.text).not.toContain(old);

    // Warm both instances with the old key, then delete it through the sibling.
    expect(await projectStatus(old, h.url)).toBe(200);
    const deleted = expectOk(
      await h.call(ENDPOINTS.deleteSecret, {
        params: { secret_id: h.project.secret_id },
        ...as(created.secret),
        baseUrl: b.url,
      }),
    );
    expect(deleted.secret_id).toBe(h.project.secret_id);
    for (const url of [h.url, b.url]) {
      expect(await projectStatus(old, url)).toBe(401);
      expect(await projectStatus(created.secret, url)).toBe(200);
    }
    const after = expectOk(await h.call(ENDPOINTS.listSecrets, as(created.secret)));
    expect(after.secrets.map((s) => s.secret_id)).toEqual([created.secret_id]);

    // The calling key, here also the last one, cannot delete itself.
    const self = expectError(
      await h.call(ENDPOINTS.deleteSecret, {
        params: { secret_id: created.secret_id },
        ...as(created.secret),
      }),
    );
    expect([self.status_code, self.error_type]).toEqual([400, 'invalid_request']);
    expect(await projectStatus(created.secret, b.url)).toBe(200);
    h.project.secret = created.secret;
    h.project.secret_id = created.secret_id;
  });

  it('refuses to delete the key a call is authenticated with, even when another remains', async () => {
    const spare = expectOk(await h.call(ENDPOINTS.createSecret, { body: {} }));
    const res = expectError(
      await h.call(ENDPOINTS.deleteSecret, {
        params: { secret_id: spare.secret_id },
        ...as(spare.secret),
      }),
    );
    expect(res.error_type).toBe('invalid_request');
    expect(res.error_message).toContain('authenticated with');
    expect(await projectStatus(spare.secret, h.url)).toBe(200);
    expectOk(await h.call(ENDPOINTS.deleteSecret, { params: { secret_id: spare.secret_id } }));
    expect(await projectStatus(spare.secret, b.url)).toBe(401);
  });

  it('holds at most five keys', async () => {
    const made: string[] = [];
    for (let i = 0; i < 4; i++) {
      made.push(expectOk(await h.call(ENDPOINTS.createSecret, { body: {} })).secret_id);
    }
    const sixth = expectError(await h.call(ENDPOINTS.createSecret, { body: {} }));
    expect(sixth.error_type).toBe('invalid_request');
    expect(await adminErrorType(() => h.admin.createSecret(h.project.project_id))).toBe(
      'invalid_request',
    );
    for (const id of made) {
      expectOk(await h.call(ENDPOINTS.deleteSecret, { params: { secret_id: id } }));
    }
  });
});

describe('abuse', () => {
  it("answers secret_not_found for another project's key id, and leaves that key working", async () => {
    const other = await h.admin.createProject({ name: 'Globex' });
    const res = expectError(
      await h.call(ENDPOINTS.deleteSecret, { params: { secret_id: other.secret_id } }),
    );
    expect([res.status_code, res.error_type]).toEqual([404, 'secret_not_found']);
    expect(await projectStatus(other.secret, h.url, other.project_id)).toBe(200);
    const unknown = expectError(
      await h.call(ENDPOINTS.deleteSecret, { params: { secret_id: 'secret-test-nope' } }),
    );
    expect(unknown.error_type).toBe('secret_not_found');
    // Nor may the other project's key act on this project's keys.
    const cross = expectError(
      await h.call(ENDPOINTS.deleteSecret, {
        params: { secret_id: h.project.secret_id },
        ...as(other.secret),
      }),
    );
    expect(cross.error_type).toBe('unauthorized_credentials');
    expect(
      await adminErrorType(() => h.admin.deleteSecret(other.project_id, h.project.secret_id)),
    ).toBe('secret_not_found');
    expect(await projectStatus(h.project.secret, h.url)).toBe(200);
  });

  it('refuses a public token in place of a secret key', async () => {
    const token = h.project.public_token;
    for (const authorization of [
      basic(h.project.project_id, token),
      basic(token, token),
      basic(token, h.project.secret),
    ]) {
      const list = await h.call(ENDPOINTS.listSecrets, { authorization, origin: null });
      expect(list.error?.error_type).toBe('unauthorized_credentials');
      const create = await h.call(ENDPOINTS.createSecret, {
        body: {},
        authorization,
        origin: null,
      });
      expect(create.error?.error_type).toBe('unauthorized_credentials');
      const del = await h.call(ENDPOINTS.deleteSecret, {
        params: { secret_id: h.project.secret_id },
        authorization,
        origin: null,
      });
      expect(del.error?.error_type).toBe('unauthorized_credentials');
    }
    expect((await h.admin.listSecrets(h.project.project_id)).length).toBe(1);
  });

  it('leaves one key when the last two are deleted at the same time, on two instances', async () => {
    for (let round = 0; round < 5; round++) {
      const other = expectOk(await h.call(ENDPOINTS.createSecret, { body: {} }));
      const mine = { secret: h.project.secret, secret_id: h.project.secret_id };
      // Each key deletes the other, one call per instance.
      const [first, second] = await Promise.all([
        h.call(ENDPOINTS.deleteSecret, {
          params: { secret_id: other.secret_id },
          ...as(mine.secret),
        }),
        h.call(ENDPOINTS.deleteSecret, {
          params: { secret_id: mine.secret_id },
          ...as(other.secret),
          baseUrl: b.url,
        }),
      ]);
      expect([first.ok, second.ok].filter(Boolean)).toHaveLength(1);
      const left = await h.admin.listSecrets(h.project.project_id);
      expect(left).toHaveLength(1);
      const kept = left[0]?.secret_id === mine.secret_id ? mine : other;
      expect(await projectStatus(kept.secret, h.url)).toBe(200);
      h.project.secret = kept.secret;
      h.project.secret_id = kept.secret_id;
    }
  });

  it('leaves one key when the admin API deletes the last two at once', async () => {
    const projectId = h.project.project_id;
    const other = await h.admin.createSecret(projectId);
    const results = await Promise.allSettled([
      h.admin.deleteSecret(projectId, h.project.secret_id),
      h.admin.deleteSecret(projectId, other.secret_id),
    ]);
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    const refused = results.find((r) => r.status === 'rejected');
    expect(refused?.status === 'rejected' && (refused.reason as AdminError).errorType).toBe(
      'invalid_request',
    );
    const left = await h.admin.listSecrets(projectId);
    expect(left).toHaveLength(1);
    if (left[0]?.secret_id === other.secret_id) {
      h.project.secret = other.secret;
      h.project.secret_id = other.secret_id;
    }
    expect(await projectStatus(h.project.secret, b.url)).toBe(200);
  });
});

describe('gatehouse secret', () => {
  it('creates, lists and deletes keys; refuses the last one', async () => {
    const projectId = h.project.project_id;
    const created = await cli('secret', 'create', '--project', projectId);
    expect(created.code).toBe(0);
    const secret = /^secret:\s+(\S+)$/m.exec(created.stdout)?.[1] ?? '';
    const secretId = /^secret_id:\s+(\S+)$/m.exec(created.stdout)?.[1] ?? '';
    expect(await projectStatus(secret, b.url)).toBe(200);

    const listed = await cli('secret', 'list', '--project', projectId);
    expect(listed.code).toBe(0);
    expect(listed.stdout).toContain(h.project.secret_id);
    expect(listed.stdout).toContain(secretId);
    expect(listed.stdout).not.toContain(secret);

    const deleted = await cli(
      'secret',
      'delete',
      '--project',
      projectId,
      '--secret',
      h.project.secret_id,
    );
    expect(deleted.code).toBe(0);
    expect(await projectStatus(h.project.secret, h.url)).toBe(401);
    expect(await projectStatus(h.project.secret, b.url)).toBe(401);

    const last = await cli('secret', 'delete', '--project', projectId, '--secret', secretId);
    expect(last.code).toBe(1);
    expect(last.stderr).toContain('error: invalid_request: ');
    expect(await projectStatus(secret, h.url)).toBe(200);
    expect(await adminErrorType(() => h.admin.deleteSecret(projectId, secretId))).toBe(
      'invalid_request',
    );

    const missing = await cli(
      'secret',
      'delete',
      '--project',
      projectId,
      '--secret',
      'secret-test-x',
    );
    expect(missing.stderr).toContain('secret_not_found');
  });
});
