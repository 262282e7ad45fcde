/**
 * The request counter and latency histogram of `GET /metrics`, kept in plain numbers per route
 * and method: every answer bumps them, so each observation is two map lookups and a few
 * additions, where prom-client's own metrics build and hash a label string per call (about 6 % of
 * a session check: bench/RESULTS.md, 2026-11-26 evening). They are written out in prom-client's
 * exposition, registered in its registry beside the other metrics.
 */
import type { Registry, RegistryContentType } from 'prom-client';

/** One route and method: its answers by status code and its latency histogram. */
interface Series {
  labels: { route: string; method: string };
  statuses: Map<number, Count>;
  /** Answers per bucket, not cumulative: index i counts latencies in (bound i-1, bound i]. */
  buckets: number[];
  sum: number;
  count: number;
}

/** The answers of one route, method and status code. */
interface Count {
  labels: { route: string; method: string; status: string };
  value: number;
}

/** A sample as prom-client's registry formats it: `sharedLabels` after `labels`. */
interface Sample {
  value: number;
  labels: Record<string, string | number>;
  sharedLabels?: Record<string, string>;
  metricName?: string;
  exemplar?: null;
}

/** What prom-client's registry reads of a metric. */
interface Exposed {
  name: string;
  help: string;
  type: 'counter' | 'histogram';
  aggregator: 'sum';
  get(): Promise<{ name: string; help: string; type: string; values: Sample[]; aggregator: 'sum' }>;
  getForPromString(): Promise<{
    name: string;
    help: string;
    type: string;
    values: Sample[];
    aggregator: 'sum';
  }>;
  reset(): void;
}

/** Counts answered requests and their latency; see the module's comment. */
export class RequestMetrics {
  readonly #series = new Map<string, Map<string, Series>>();
  // In the order they first showed, as prom-client writes its series.
  readonly #seriesInOrder: Series[] = [];
  readonly #countsInOrder: Count[] = [];
  readonly #bounds: readonly number[];

  constructor(
    registry: Pick<Registry<RegistryContentType>, 'registerMetric'>,
    options: {
      requests: { name: string; help: string };
      duration: { name: string; help: string; buckets: readonly number[] };
    },
  ) {
    this.#bounds = options.duration.buckets;
    registry.registerMetric(
      this.#exposed(options.requests, 'counter', () => this.#requestSamples()) as never,
    );
    registry.registerMetric(
      this.#exposed(options.duration, 'histogram', () =>
        this.#durationSamples(options.duration.name),
      ) as never,
    );
  }

  /**
   * Counts one answer of `route` (its declared path) and `method` with `status`, which took
   * `seconds` from its request.
   *
   * @example
   * metrics.observe('/sdk/v1/b2b/sessions/authenticate', 'POST', 200, 0.0004);
   */
  observe(route: string, method: string, status: number, seconds: number): void {
    let byMethod = this.#series.get(route);
    if (byMethod === undefined) {
      byMethod = new Map();
      this.#series.set(route, byMethod);
    }
    let series = byMethod.get(method);
    if (series === undefined) {
      series = {
        labels: { route, method },
        statuses: new Map(),
        buckets: this.#bounds.map(() => 0),
        sum: 0,
        count: 0,
      };
      byMethod.set(method, series);
      this.#seriesInOrder.push(series);
    }
    let count = series.statuses.get(status);
    if (count === undefined) {
      count = { labels: { route, method, status: String(status) }, value: 0 };
      series.statuses.set(status, count);
      this.#countsInOrder.push(count);
    }
    count.value += 1;
    series.sum += seconds;
    series.count += 1;
    const bounds = this.#bounds;
    for (let i = 0; i < bounds.length; i++) {
      if (seconds <= (bounds[i] as number)) {
        (series.buckets[i] as number)++;
        break;
      }
    }
  }

  #requestSamples(): Sample[] {
    return this.#countsInOrder.map(({ labels, value }) => ({ value, labels }));
  }

  #durationSamples(name: string): Sample[] {
    const samples: Sample[] = [];
    for (const series of this.#seriesInOrder) {
      const shared = series.labels;
      let cumulative = 0;
      this.#bounds.forEach((le, i) => {
        cumulative += series.buckets[i] as number;
        const bucket = `${name}_bucket`;
        samples.push({
          value: cumulative,
          labels: { le },
          sharedLabels: shared,
          metricName: bucket,
          exemplar: null,
        });
      });
      samples.push(
        {
          value: series.count,
          labels: { le: '+Inf' },
          sharedLabels: shared,
          metricName: `${name}_bucket`,
          exemplar: null,
        },
        { value: series.sum, labels: {}, sharedLabels: shared, metricName: `${name}_sum` },
        { value: series.count, labels: {}, sharedLabels: shared, metricName: `${name}_count` },
      );
    }
    return samples;
  }

  #exposed(
    { name, help }: { name: string; help: string },
    type: 'counter' | 'histogram',
    samples: () => Sample[],
  ): Exposed {
    // The registry renames a counter for OpenMetrics (`name` without `_total`): read it each time.
    const data = (splay: boolean) => ({
      name: exposed.name,
      help,
      type,
      aggregator: 'sum' as const,
      values: splay
        ? samples().map(({ sharedLabels, ...sample }) => ({
            ...sample,
            labels: { ...sample.labels, ...sharedLabels },
          }))
        : samples(),
    });
    const exposed: Exposed = {
      name,
      help,
      type,
      aggregator: 'sum',
      get: () => Promise.resolve(data(true)),
      getForPromString: () => Promise.resolve(data(false)),
      reset: () => {
        this.#series.clear();
        this.#seriesInOrder.length = 0;
        this.#countsInOrder.length = 0;
      },
    };
    return exposed;
  }
}
