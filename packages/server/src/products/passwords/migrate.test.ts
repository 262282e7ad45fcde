// Migrating password hashes (management API passwords/migrate): every hash type made by a real implementation signs in and is re-hashed, bounds, tenancy, existing members, concurrent sign-ins.
import { createHash, pbkdf2Sync, randomBytes, scryptSync } from 'node:crypto';
import { hash as argon2Hash, hashRaw as argon2Raw, type Algorithm } from '@node-rs/argon2';
import { hash as bcryptHash } from '@node-rs/bcrypt';
import { ENDPOINTS, type RequestOf } from '@gatehouse/protocol/endpoints';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { passwordHashParams } from '../../crypto/password-hash.js';
import { expectOk, startHarness, type Harness } from '../../test/harness.js';

const PASSWORD = 'Quartz-Lantern-Orbit-42';
type MigrateBody = RequestOf<typeof ENDPOINTS.migratePassword>;

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h.close();
});

const migrate = (body: Omit<MigrateBody, 'organization_id'> & { organization_id?: string }) =>
  h.call(ENDPOINTS.migratePassword, {
    body: { organization_id: h.org.organization_id, ...body },
  });

const signIn = (email_address: string, password: string) =>
  h.call(ENDPOINTS.passwordsAuthenticate, {
    body: {
      organization_id: h.org.organization_id,
      email_address,
      password,
      session_duration_minutes: 60,
    },
  });

async function storedHash(memberId: string): Promise<string | undefined> {
  const row = await h.db
    .selectFrom('passwords')
    .select('hash')
    .where('member_id', '=', memberId)
    .executeTakeFirst();
  return row?.hash;
}

/** What a hash made now with the current parameters starts with. */
function currentPrefix(): string {
  const p = passwordHashParams();
  return `$argon2id$v=19$m=${p.memoryCost},t=${p.timeCost},p=${p.parallelism}$`;
}

const b64 = (bytes: Buffer) => bytes.toString('base64');
const scryptSalt = randomBytes(16);
const pbkdf2Salt = randomBytes(16);
const argon2Salt = 'pepper-and-salt-1';

/** Each hash type, with a hash of PASSWORD made by a real implementation (phpass: its own test vector). */
const CASES: {
  name: string;
  password: string;
  body: () => Promise<Omit<MigrateBody, 'organization_id' | 'email_address'>>;
}[] = [
  {
    name: 'bcrypt',
    password: PASSWORD,
    body: async () => ({ hash_type: 'bcrypt', hash: await bcryptHash(PASSWORD, { cost: 4 }) }),
  },
  {
    name: 'md_5 with both salts',
    password: PASSWORD,
    body: async () => ({
      hash_type: 'md_5',
      hash: createHash('md5').update(`pre${PASSWORD}post`).digest('hex'),
      md_5_config: { prepend_salt: 'pre', append_salt: 'post' },
    }),
  },
  {
    name: 'sha_1 with a prepended salt',
    password: PASSWORD,
    body: async () => ({
      hash_type: 'sha_1',
      hash: createHash('sha1').update(`s4lt${PASSWORD}`).digest('hex'),
      sha_1_config: { prepend_salt: 's4lt', append_salt: '' },
    }),
  },
  {
    name: 'sha_512 with an appended salt, in base64',
    password: PASSWORD,
    body: async () => ({
      hash_type: 'sha_512',
      hash: createHash('sha512').update(`${PASSWORD}$alt`).digest('base64'),
      sha_512_config: { prepend_salt: '', append_salt: '$alt' },
    }),
  },
  {
    name: 'argon_2i, encoded',
    password: PASSWORD,
    body: async () => ({
      hash_type: 'argon_2i',
      hash: await argon2Hash(PASSWORD, { algorithm: 1 as Algorithm, memoryCost: 512, timeCost: 2 }),
    }),
  },
  {
    name: 'argon_2id, in hex with its config',
    password: PASSWORD,
    body: async () => ({
      hash_type: 'argon_2id',
      hash: (
        await argon2Raw(PASSWORD, {
          algorithm: 2 as Algorithm,
          memoryCost: 256,
          timeCost: 1,
          parallelism: 1,
          outputLen: 32,
          salt: Buffer.from(argon2Salt),
        })
      ).toString('hex'),
      argon_2_config: {
        salt: argon2Salt,
        iteration_amount: 1,
        memory: 256,
        threads: 1,
        key_length: 32,
      },
    }),
  },
  {
    name: 'scrypt',
    password: PASSWORD,
    body: async () => ({
      hash_type: 'scrypt',
      hash: b64(scryptSync(PASSWORD, scryptSalt, 32, { N: 2 ** 10, r: 8, p: 1 })),
      scrypt_config: {
        salt: b64(scryptSalt),
        n_parameter: 2 ** 10,
        r_parameter: 8,
        p_parameter: 1,
        key_length: 32,
      },
    }),
  },
  {
    name: 'pbkdf_2 with sha512',
    password: PASSWORD,
    body: async () => ({
      hash_type: 'pbkdf_2',
      hash: b64(pbkdf2Sync(PASSWORD, pbkdf2Salt, 1000, 64, 'sha512')),
      pbkdf_2_config: {
        salt: b64(pbkdf2Salt),
        iteration_amount: 1000,
        key_length: 64,
        algorithm: 'sha512',
      },
    }),
  },
  {
    name: 'phpass (its own test vector)',
    password: 'test12345',
    body: async () => ({ hash_type: 'phpass', hash: '$P$9IQRaTwmfeRo7ud9Fh4E2PdI0S3r.L0' }),
  },
];

describe('passwords/migrate', () => {
  it.each(CASES)(
    '$name: creates the member, refuses a wrong password like an unknown address, signs in and re-hashes to argon2id',
    async ({ name, password, body }) => {
      const slug = name.toLowerCase().replace(/[^a-z0-9]+/g, '-');
      const email = `${slug}@acme.test`;
      const res = await migrate({ email_address: email, ...(await body()) });
      const data = expectOk(res);
      expect(data.member_created).toBe(true);
      expect(data.member).toMatchObject({
        email_address: email,
        status: 'active',
        email_address_verified: true,
      });
      expect(data.member.member_password_id).toMatch(/^member-password-test-/);
      const migrated = await storedHash(data.member_id);
      expect(migrated).toBeDefined();
      expect(migrated?.startsWith(currentPrefix())).toBe(false);
      expect(migrated).not.toContain(password);

      const wrong = await signIn(email, `${password}!`);
      const unknown = await signIn(`nobody-${slug}@acme.test`, password);
      expect(wrong.status).toBe(401);
      expect(wrong.error?.error_type).toBe('unauthorized_credentials');
      expect(wrong.error?.error_message).toBe(unknown.error?.error_message);
      expect(await storedHash(data.member_id)).toBe(migrated);

      const right = await signIn(email, password);
      expect(expectOk(right).member_id).toBe(data.member_id);
      const rehashed = await storedHash(data.member_id);
      expect(rehashed?.startsWith(currentPrefix())).toBe(true);
      expect(expectOk(await signIn(email, password)).member_id).toBe(data.member_id);
    },
  );

  it('refuses malformed and out-of-bounds hashes with 400 and a message, creating nobody', async () => {
    const junk = '$2b$16$' + 'a'.repeat(53);
    const scrypt = (n: number, r = 8, p = 1) => ({
      hash_type: 'scrypt' as const,
      hash: b64(randomBytes(32)),
      scrypt_config: {
        salt: b64(scryptSalt),
        n_parameter: n,
        r_parameter: r,
        p_parameter: p,
        key_length: 32,
      },
    });
    const argon2 = (memory: number, iterations = 2) => ({
      hash_type: 'argon_2id' as const,
      hash: randomBytes(32).toString('hex'),
      argon_2_config: {
        salt: argon2Salt,
        iteration_amount: iterations,
        memory,
        threads: 1,
        key_length: 32,
      },
    });
    const refused: [Omit<MigrateBody, 'organization_id' | 'email_address'>, RegExp][] = [
      [{ hash_type: 'bcrypt', hash: junk }, /bcrypt cost must be 4 to 15/],
      [{ hash_type: 'bcrypt', hash: 'not-bcrypt' }, /not a bcrypt hash/],
      [scrypt(2 ** 21), /scrypt N must be a power of two/],
      [scrypt(1000), /scrypt N must be a power of two/],
      [scrypt(2 ** 20, 32), /scrypt memory .* 256 MiB/],
      [scrypt(2 ** 17, 8, 16), /scrypt work .* 1 GiB/],
      [argon2(4 * 1024 * 1024), /argon2 memory must be/],
      [argon2(256 * 1024, 32), /argon2 memory times iterations/],
      [
        {
          hash_type: 'argon_2id',
          hash: '$argon2id$v=19$m=4194304,t=2,p=1$c2FsdHNhbHRzYWx0c2FsdA$aGFzaGhhc2hoYXNoaGFzaGhhc2hoYXNoaGFzaGhhc2g',
        },
        /argon2 memory must be/,
      ],
      [{ ...argon2(1024), hash: 'zz' }, /argon2 key in hex/],
      [
        {
          hash_type: 'pbkdf_2',
          hash: b64(randomBytes(32)),
          pbkdf_2_config: {
            salt: b64(pbkdf2Salt),
            iteration_amount: 50_000_000,
            key_length: 32,
            algorithm: 'sha256',
          },
        },
        /pbkdf2 iterations must be 1 to 2000000/,
      ],
      [
        {
          hash_type: 'pbkdf_2',
          hash: b64(randomBytes(32)),
          pbkdf_2_config: {
            salt: b64(pbkdf2Salt),
            iteration_amount: 1000,
            key_length: 64,
            algorithm: 'sha256',
          },
        },
        /key_length is 64 but the hash holds 32 bytes/,
      ],
      [{ hash_type: 'pbkdf_2', hash: b64(randomBytes(32)) }, /pbkdf_2_config is required/],
      [{ hash_type: 'phpass', hash: '$P$Z' + 'a'.repeat(30) }, /phpass rounds must be/],
      [{ hash_type: 'md_5', hash: 'abcd' }, /16-byte md5 digest/],
      [
        {
          hash_type: 'md_5',
          hash: createHash('md5').update('x').digest('hex'),
          sha_1_config: { prepend_salt: 'x' },
        },
        /sha_1_config does not apply to hash_type md_5/,
      ],
    ];
    for (const [body, message] of refused) {
      const res = await migrate({ email_address: 'refused@acme.test', ...body });
      expect([res.status, res.error?.error_type], String(message)).toEqual([
        400,
        'invalid_request',
      ]);
      expect(res.error?.error_message).toMatch(message);
    }
    const members = await h.db
      .selectFrom('members')
      .select('id')
      .where('email', '=', 'refused@acme.test')
      .execute();
    expect(members).toEqual([]);
  });

  it("answers 404 organization_not_found for another project's organization", async () => {
    const other = await h.admin.createProject({ name: 'Elsewhere' });
    const org = await h.admin.createOrganization(other.project_id, {
      organization_name: 'Elsewhere Inc',
      organization_slug: 'elsewhere',
    });
    const res = await migrate({
      organization_id: org.organization_id,
      email_address: 'stray@acme.test',
      hash_type: 'bcrypt',
      hash: await bcryptHash(PASSWORD, { cost: 4 }),
    });
    expect([res.status, res.error?.error_type]).toEqual([404, 'organization_not_found']);
  });

  it("replaces an existing member's password and ends their sessions", async () => {
    const member = await h.admin.createMember(h.project.project_id, h.org.organization_id, {
      email_address: 'existing@acme.test',
    });
    await h.admin.setMemberPassword(h.project.project_id, member.member_id, { password: PASSWORD });
    const session = expectOk(await signIn('existing@acme.test', PASSWORD));
    const res = await migrate({
      email_address: 'Existing@Acme.test',
      hash_type: 'bcrypt',
      hash: await bcryptHash('Brand-New-Harbor-77', { cost: 4 }),
      name: 'Ex Isting',
      trusted_metadata: { plan: 'gold' },
      untrusted_metadata: { theme: 'dark' },
      mfa_phone_number: '+1 415 555 2671',
      set_phone_number_verified: true,
    });
    const data = expectOk(res);
    expect([data.member_created, data.member_id]).toEqual([false, member.member_id]);
    expect(data.member).toMatchObject({
      name: 'Ex Isting',
      trusted_metadata: { plan: 'gold' },
      untrusted_metadata: { theme: 'dark' },
      mfa_phone_number: '+14155552671',
      mfa_phone_number_verified: true,
    });
    expect((await signIn('existing@acme.test', PASSWORD)).status).toBe(401);
    expect((await signIn('existing@acme.test', 'Brand-New-Harbor-77')).status).toBe(200);
    const old = await h.call(ENDPOINTS.authenticateSession, {
      body: { session_token: session.session_token },
    });
    expect([old.status, old.error?.error_type]).toEqual([404, 'session_not_found']);
  });

  it('refuses an external_id, which members do not have', async () => {
    const res = await migrate({
      email_address: 'external@acme.test',
      hash_type: 'bcrypt',
      hash: await bcryptHash(PASSWORD, { cost: 4 }),
      external_id: 'crm-42',
    });
    expect([res.status, res.error?.error_type]).toEqual([400, 'invalid_request']);
    expect(res.error?.error_message).toMatch(/external_id/);
  });

  it('keeps the row valid when concurrent sign-ins re-hash the same migrated password', async () => {
    const migrated = expectOk(
      await migrate({
        email_address: 'racer@acme.test',
        hash_type: 'md_5',
        hash: createHash('md5').update(PASSWORD).digest('hex'),
      }),
    );
    const results = await Promise.all([1, 2, 3, 4].map(() => signIn('racer@acme.test', PASSWORD)));
    expect(results.map((r) => r.status)).toEqual([200, 200, 200, 200]);
    const rehashed = await storedHash(migrated.member_id);
    expect(rehashed?.startsWith(currentPrefix())).toBe(true);
    expect(expectOk(await signIn('racer@acme.test', PASSWORD)).member_id).toBe(migrated.member_id);
    expect((await signIn('racer@acme.test', 'wrong')).status).toBe(401);
  });
});
