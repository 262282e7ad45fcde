// The hashing threads: answers, how many run, their priority, the process left free to exit, and
// the fallback to libuv's pool when worker threads cannot load the binding.
import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { getPriority, tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { Argon2Pool, HASH_THREAD_NICE, hashThreads } from './argon2-pool.js';

const CHEAP = { memoryCost: 1024, timeCost: 1 };

/** The nice value of each of this process's threads, by thread id. */
function threadNices(): Map<number, number> {
  const nices = new Map<number, number>();
  for (const id of readdirSync('/proc/self/task')) {
    try {
      // Field 19 of stat; the command name in parentheses may hold spaces, so count after it.
      const fields = readFileSync(`/proc/self/task/${id}/stat`, 'utf8').split(') ')[1]!.split(' ');
      nices.set(Number(id), Number(fields[16]));
    } catch {
      // The thread ended while being read.
    }
  }
  return nices;
}

const dirs: string[] = [];
function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'argon2-pool-'));
  dirs.push(dir);
  return dir;
}

const pools: Argon2Pool[] = [];
function pool(options: ConstructorParameters<typeof Argon2Pool>[0]): Argon2Pool {
  const made = new Argon2Pool(options);
  pools.push(made);
  return made;
}
afterEach(async () => {
  await Promise.all(pools.splice(0).map((made) => made.close()));
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('Argon2Pool', () => {
  it('hashes and verifies, and a wrong password or an unreadable hash is no match', async () => {
    const argon2 = pool({ size: 1 });
    const stored = await argon2.hash('Quartz-Lantern-42!', CHEAP);
    expect(stored).toMatch(/^\$argon2id\$v=19\$m=1024,t=1,p=1\$/);
    await expect(argon2.verify(stored, 'Quartz-Lantern-42!')).resolves.toBe(true);
    await expect(argon2.verify(stored, 'quartz-lantern-42!')).resolves.toBe(false);
    await expect(argon2.verify('$argon2id$garbage', 'x')).rejects.toThrow();
    // The thread that refused the garbage still answers.
    await expect(argon2.verify(stored, 'Quartz-Lantern-42!')).resolves.toBe(true);
  });

  it('runs at most its size of threads, each at the lower priority, and answers every job', async () => {
    const before = threadNices();
    const lowered = Math.min(19, getPriority() + HASH_THREAD_NICE);
    const argon2 = pool({ size: 2 });
    const passwords = Array.from({ length: 12 }, (_, i) => `password-${i}`);
    const stored = await Promise.all(passwords.map((password) => argon2.hash(password, CHEAP)));
    const checks = await Promise.all(
      stored.map((hash, i) => argon2.verify(hash, passwords[(i + i) % passwords.length]!)),
    );
    expect(checks).toEqual(passwords.map((_, i) => (i + i) % passwords.length === i));

    const started = [...threadNices()].filter(([id]) => !before.has(id));
    const hashing = started.filter(([, nice]) => nice === lowered);
    expect(hashing).toHaveLength(2);
  });

  it('leaves the process free to exit once its hashes are done', async () => {
    const script = join(tempDir(), 'hash-and-exit.mts');
    const source = fileURLToPath(new URL('./argon2-pool.ts', import.meta.url));
    writeFileSync(
      script,
      `import { Argon2Pool } from ${JSON.stringify(source)};\n` +
        `const stored = await new Argon2Pool({ size: 2 }).hash('x', ${JSON.stringify(CHEAP)});\n` +
        `console.log(stored.slice(0, 9));\n`,
    );
    const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', script], {
      timeout: 20_000,
    });
    expect(stdout.trim()).toBe('$argon2id');
  });

  it.each([
    ['cannot be found', (): string => 'gatehouse-no-such-binding'],
    [
      'fails as its threads load it',
      (): string => {
        const broken = join(tempDir(), 'broken-binding.cjs');
        writeFileSync(broken, "throw new Error('this binding does not load here');\n");
        return broken;
      },
    ],
  ])('hashes on libuv’s pool when the binding %s', async (_, binding) => {
    const argon2 = pool({ size: 2, argon2Module: binding() });
    const [a, b] = await Promise.all([argon2.hash('a', CHEAP), argon2.hash('b', CHEAP)]);
    await expect(argon2.verify(a, 'a')).resolves.toBe(true);
    await expect(argon2.verify(b, 'a')).resolves.toBe(false);
  });
});

describe('hashThreads', () => {
  it('follows HASH_THREADS when it is a positive whole number, else the usable cores', () => {
    expect(hashThreads({ HASH_THREADS: '3' })).toBe(3);
    const cores = hashThreads({});
    expect(cores).toBeGreaterThanOrEqual(1);
    expect(hashThreads({ HASH_THREADS: '0' })).toBe(cores);
    expect(hashThreads({ HASH_THREADS: 'two' })).toBe(cores);
  });
});
