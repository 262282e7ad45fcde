/**
 * The CPU of a soak's window: the machine's steal time and how busy the server's core was
 * (`/proc/stat`), and the server process's CPU time (`/proc/<pid>/stat`, every thread, argon2's
 * included, and its main thread apart), so that a slow stretch can be told apart: a host that took
 * the cores away, other processes on the server's core, a server that worked harder.
 */
import { readFileSync } from 'node:fs';
import { mainThreadCpuMicros, processCpuMicros } from './process-tree.js';

/** A window's CPU: what `CpuSampler.take` adds to the soak's window. */
export interface WindowCpu {
  /** The machine's steal time, in % of all its cores' time in the window (null: off Linux). */
  stealPercent: number | null;
  /** The server's core busy (not idle, waiting or stolen), by any process, in % (null: off Linux). */
  coreBusyPercent: number | null;
  /** The server's CPU time (user + system, every thread), in % of one core. */
  serverCpuPercent: number;
  /** Of it, the main thread's (the event loop), in % of one core. */
  serverLoopCpuPercent: number;
  /** The server's CPU time per request answered in the window, in µs (null: no request). */
  serverCpuPerRequest: number | null;
}

interface Ticks {
  busy: number;
  steal: number;
  total: number;
}

/** The ticks of all cores and of one (`cpu` and `cpu<n>` lines of `/proc/stat`), or null. */
function procStat(core: number): { machine: Ticks; core: Ticks | null } | null {
  const ticks = (line: string): Ticks => {
    // user nice system idle iowait irq softirq steal (guest time is counted in user already).
    const [user, nice, system, idle, iowait, irq, softirq, steal] = line
      .trim()
      .split(/\s+/)
      .slice(1, 9)
      .map(Number) as [number, number, number, number, number, number, number, number];
    const busy = user + nice + system + irq + softirq;
    return { busy, steal, total: busy + idle + iowait + steal };
  };
  try {
    const lines = readFileSync('/proc/stat', 'utf8').split('\n');
    const coreLine = lines.find((l) => l.startsWith(`cpu${core} `));
    return { machine: ticks(lines[0]!), core: coreLine ? ticks(coreLine) : null };
  } catch {
    return null;
  }
}

/** The share of a difference of ticks, in %, or null without both samples. */
function share(
  now: Ticks | null | undefined,
  before: Ticks | null | undefined,
  key: 'busy' | 'steal',
): number | null {
  if (!now || !before || now.total <= before.total) return null;
  return ((now[key] - before[key]) / (now.total - before.total)) * 100;
}

/** Takes a process's, its core's and the machine's CPU since the previous call. */
export class CpuSampler {
  private stat: ReturnType<typeof procStat>;
  private process: number;
  private loop: number;
  private at = performance.now();

  /** `core`: the core the process is pinned to. */
  constructor(
    private readonly pid: number,
    private readonly core: number,
  ) {
    this.stat = procStat(core);
    this.process = processCpuMicros(pid);
    this.loop = mainThreadCpuMicros(pid);
  }

  /**
   * The CPU since the previous call (or the construction), with the requests answered meanwhile.
   *
   * @example
   * const cpu = sampler.take(window.requests);
   */
  take(requests: number): WindowCpu {
    const now = performance.now();
    const stat = procStat(this.core);
    const process = processCpuMicros(this.pid);
    const loop = mainThreadCpuMicros(this.pid);
    const wallMicros = Math.max(1, (now - this.at) * 1000);
    const spent = Math.max(0, process - this.process);
    const cpu: WindowCpu = {
      stealPercent: share(stat?.machine, this.stat?.machine, 'steal'),
      coreBusyPercent: share(stat?.core, this.stat?.core, 'busy'),
      serverCpuPercent: (spent / wallMicros) * 100,
      serverLoopCpuPercent: (Math.max(0, loop - this.loop) / wallMicros) * 100,
      serverCpuPerRequest: requests > 0 ? spent / requests : null,
    };
    this.stat = stat;
    this.process = process;
    this.loop = loop;
    this.at = now;
    return cpu;
  }
}
