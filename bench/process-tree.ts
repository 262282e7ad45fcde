/** A process and its children on Linux: pinning them to cores and summing their CPU time. */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

/** The pids of a process's living children (`/proc/<pid>/task/<pid>/children`). */
function childrenOf(pid: number): number[] {
  try {
    return readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8')
      .split(' ')
      .filter(Boolean)
      .map(Number);
  } catch {
    return [];
  }
}

/** The fields of `/proc/<pid>/stat` after the command name, or null once the process is gone. */
function stat(pid: number | string): string[] | null {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name is in parentheses and may hold spaces.
    return text.slice(text.lastIndexOf(')') + 2).split(' ');
  } catch {
    return null;
  }
}

/**
 * Pins a process, its threads and its current children to `cpus` (`taskset -a -p -c`); children
 * it forks later inherit the setting (PostgreSQL's backends from its postmaster).
 *
 * @example
 * pinProcessTree(postmasterPid, '0');
 */
export function pinProcessTree(pid: number, cpus: string): void {
  for (const each of [pid, ...childrenOf(pid)]) {
    execFileSync('taskset', ['-a', '-p', '-c', cpus, String(each)], { stdio: 'ignore' });
  }
}

/**
 * User + system CPU time of a process, the children it has reaped and its living children, in
 * microseconds: a PostgreSQL cluster's CPU when given its postmaster.
 *
 * @example
 * const before = treeCpuMicros(postmasterPid);
 */
export function treeCpuMicros(pid: number): number {
  const ticks = (fields: string[] | null, reaped: boolean) =>
    fields
      ? Number(fields[11]) +
        Number(fields[12]) +
        (reaped ? Number(fields[13]) + Number(fields[14]) : 0)
      : 0;
  const total =
    ticks(stat(pid), true) + childrenOf(pid).reduce((sum, c) => sum + ticks(stat(c), true), 0);
  return (total * 1e6) / 100; // USER_HZ is 100 on Linux
}

/**
 * User + system CPU time of a process's main thread (the event loop), in microseconds: set
 * against the whole process's, it shows how much work ran on other threads (libuv's pool).
 *
 * @example
 * const onLoop = mainThreadCpuMicros(pid) / processCpuMicros(pid);
 */
export function mainThreadCpuMicros(pid: number): number {
  const fields = stat(`${pid}/task/${pid}`);
  return fields ? ((Number(fields[11]) + Number(fields[12])) * 1e6) / 100 : 0;
}

/**
 * User + system CPU time of a whole process, every thread included, in microseconds.
 *
 * @example
 * const before = processCpuMicros(pid);
 */
export function processCpuMicros(pid: number): number {
  const fields = stat(String(pid));
  return fields ? ((Number(fields[11]) + Number(fields[12])) * 1e6) / 100 : 0;
}
