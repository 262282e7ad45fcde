/** `gatehouse serve` in a process of its own, from the sources, for tests that signal or kill it. */
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const entry = fileURLToPath(new URL('../cli.ts', import.meta.url));

export interface ServeProcess {
  child: ChildProcess;
  url: string;
  port: number;
  /** Everything it printed so far. */
  output(): string;
  /** Resolves with the exit code (or signal name) once it has exited. */
  exited: Promise<number | string>;
}

/**
 * Starts `gatehouse serve` on a free loopback port with `env` added to this process's
 * environment; resolves once it listens.
 *
 * @example
 * const server = await serveProcess({ DATABASE_URL: url, GATEHOUSE_DEV_INBOX: 'true' });
 * server.child.kill('SIGKILL');
 */
export async function serveProcess(env: Record<string, string>): Promise<ServeProcess> {
  // The sources run as they are: the `source` condition resolves the workspace packages to them.
  const child = spawn(
    process.execPath,
    [
      '--conditions=source',
      '--import',
      'tsx',
      entry,
      'serve',
      '--port',
      '0',
      '--host',
      '127.0.0.1',
    ],
    { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  const exited = new Promise<number | string>((resolve) =>
    child.once('exit', (code, signal) => resolve(code ?? signal ?? -1)),
  );
  const url = await new Promise<string>((resolve, reject) => {
    const poll = setInterval(() => {
      const match = /Gatehouse listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(output);
      if (match?.[1]) {
        clearInterval(poll);
        resolve(match[1]);
      }
    }, 50);
    void exited.then((code) => {
      clearInterval(poll);
      reject(new Error(`gatehouse serve exited with ${code}:\n${output}`));
    });
  });
  return { child, url, port: Number(new URL(url).port), output: () => output, exited };
}
