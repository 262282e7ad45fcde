/** Reads a Gatehouse server's own process figures from its `/metrics` (open to loopback). */

/** The process figures the benchmarks watch, from prom-client's default metrics. */
export interface ProcessFigures {
  rssBytes: number;
  heapUsedBytes: number;
  /** Longest event-loop delay since the previous scrape (prom-client resets it on each one). */
  loopDelayMaxMs: number;
  loopDelayP99Ms: number;
}

const value = (text: string, name: string): number => {
  const line = text.split('\n').find((l) => l.startsWith(`${name} `) || l.startsWith(`${name}{`));
  return line ? Number(line.slice(line.lastIndexOf(' ') + 1)) : Number.NaN;
};

/**
 * Scrapes `/metrics` once.
 *
 * @example
 * await scrapeProcess(url); // reset the event-loop figures
 * const { loopDelayMaxMs } = await scrapeProcess(url); // their maximum since
 */
export async function scrapeProcess(url: string): Promise<ProcessFigures> {
  const response = await fetch(`${url}/metrics`);
  if (!response.ok) throw new Error(`/metrics answered ${response.status}`);
  const text = await response.text();
  return {
    rssBytes: value(text, 'process_resident_memory_bytes'),
    heapUsedBytes: value(text, 'nodejs_heap_size_used_bytes'),
    loopDelayMaxMs: value(text, 'nodejs_eventloop_lag_max_seconds') * 1000,
    loopDelayP99Ms: value(text, 'nodejs_eventloop_lag_p99_seconds') * 1000,
  };
}
