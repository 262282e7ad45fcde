/**
 * CPU profiles of a benchmark server over exactly the load it is measured under: the first
 * SIGUSR2 starts V8's profiler, the next writes `<dir>/<name>-<time>.cpuprofile` (the format of
 * `node --cpu-prof`, read by `profile-summary.ts`) and prints nothing, so startup and warm-up
 * stay out of it.
 */
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { join } from 'node:path';

/**
 * Profiles this process between two SIGUSR2 signals.
 *
 * @example
 * if (process.env.BENCH_PROFILE) profileOnSignal(process.env.BENCH_PROFILE, 'gatehouse');
 */
export function profileOnSignal(dir: string, name: string): void {
  const session = new Session();
  session.connect();
  let running = false;
  const toggle = async () => {
    if (!running) {
      running = true;
      await session.post('Profiler.enable');
      await session.post('Profiler.start');
      return;
    }
    running = false;
    const { profile } = await session.post('Profiler.stop');
    writeFileSync(join(dir, `${name}-${Date.now()}.cpuprofile`), JSON.stringify(profile));
  };
  process.on('SIGUSR2', () => {
    void toggle();
  });
}
