// The request metrics write what prom-client's own counter and histogram would write for the
// same answers, in both of its formats.
import { Counter, Histogram, Registry, type RegistryContentType } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { RequestMetrics } from './request-metrics.js';

const BUCKETS = [0.001, 0.01, 0.1, 1];
const REQUESTS = { name: 'test_requests_total', help: 'Requests.' };
const DURATION = { name: 'test_request_duration_seconds', help: 'Latency.' };

const answers: [route: string, method: string, status: number, seconds: number][] = [
  ['/sdk/v1/b2b/sessions/authenticate', 'POST', 200, 0.0004],
  ['/sdk/v1/b2b/sessions/authenticate', 'POST', 200, 0.001],
  ['/sdk/v1/b2b/sessions/authenticate', 'POST', 404, 0.02],
  ['/healthz', 'GET', 200, 0.5],
  ['/sdk/v1/b2b/sessions/authenticate', 'OPTIONS', 204, 3],
  ['unmatched', 'GET', 404, 0.00001],
  ['/a "quoted" \\ route', 'POST', 500, 0.1],
];

function registries(contentType: RegistryContentType) {
  const ours = new Registry<RegistryContentType>();
  ours.setContentType(contentType);
  const metrics = new RequestMetrics(ours, {
    requests: REQUESTS,
    duration: { ...DURATION, buckets: BUCKETS },
  });
  const theirs = new Registry<RegistryContentType>();
  theirs.setContentType(contentType);
  const requests = new Counter({
    ...REQUESTS,
    labelNames: ['route', 'method', 'status'],
    registers: [theirs],
  });
  const duration = new Histogram({
    ...DURATION,
    labelNames: ['route', 'method'],
    buckets: BUCKETS,
    registers: [theirs],
  });
  for (const [route, method, status, seconds] of answers) {
    metrics.observe(route, method, status, seconds);
    requests.inc({ route, method, status: String(status) });
    duration.observe({ route, method }, seconds);
  }
  return { ours, theirs };
}

describe('RequestMetrics', () => {
  it('writes the text exposition prom-client writes, in both formats', async () => {
    for (const format of [Registry.PROMETHEUS_CONTENT_TYPE, Registry.OPENMETRICS_CONTENT_TYPE]) {
      const { ours, theirs } = registries(format);
      expect(await ours.metrics()).toBe(await theirs.metrics());
    }
  });

  it('answers as JSON as prom-client does, and starts over when reset', async () => {
    const { ours, theirs } = registries(Registry.PROMETHEUS_CONTENT_TYPE);
    expect(await ours.getMetricsAsJSON()).toEqual(await theirs.getMetricsAsJSON());
    ours.resetMetrics();
    theirs.resetMetrics();
    expect(await ours.metrics()).toBe(await theirs.metrics());
  });
});
