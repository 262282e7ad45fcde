// Request bodies: nesting is bounded before parsing, so that a small, deeply nested body cannot
// hold the one thread every request shares.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENDPOINTS } from '@gatehouse/protocol/endpoints';
import { startHarness, type Harness } from '../test/harness.js';
import { MAX_JSON_DEPTH, nestsDeeperThan, parseJsonBody } from './json-body.js';

const nested = (depth: number, open = '[', close = ']') =>
  `${open.repeat(depth)}${close.repeat(depth)}`;

describe('nestsDeeperThan', () => {
  it('counts objects and arrays alike, up to the bound and past it', () => {
    expect(nestsDeeperThan(nested(3), 3)).toBe(false);
    expect(nestsDeeperThan(nested(4), 3)).toBe(true);
    expect(nestsDeeperThan('{"a":{"b":[{"c":1}]}}', 4)).toBe(false);
    expect(nestsDeeperThan('{"a":{"b":[{"c":[1]}]}}', 4)).toBe(true);
    // Siblings do not add up: depth is how deep, not how many.
    expect(nestsDeeperThan(`[${Array(100).fill('[[]]').join(',')}]`, 3)).toBe(false);
  });

  it('skips brackets inside strings, escaped quotes included', () => {
    expect(nestsDeeperThan(JSON.stringify({ a: '[[[[[[[[' }), 1)).toBe(false);
    expect(nestsDeeperThan(JSON.stringify({ a: 'say "[[[[" \\ ok' }), 1)).toBe(false);
    expect(nestsDeeperThan(`{"a":"\\\\"}`, 1)).toBe(false);
    expect(nestsDeeperThan(`{"a":"\\\\",  "b":[[1]]}`, 2)).toBe(true);
  });
});

describe('parseJsonBody', () => {
  it('parses what real requests send and refuses what is too deep or not JSON', () => {
    expect(parseJsonBody('{"email_address":"a@b.test"}')).toEqual({
      ok: true,
      value: { email_address: 'a@b.test' },
    });
    expect(parseJsonBody('  ')).toEqual({ ok: true, value: undefined });
    expect(parseJsonBody(nested(MAX_JSON_DEPTH))).toEqual({
      ok: true,
      value: expect.any(Array) as unknown,
    });
    expect(parseJsonBody(nested(MAX_JSON_DEPTH + 1))).toEqual({
      ok: false,
      message: `is nested deeper than ${MAX_JSON_DEPTH} levels`,
    });
    expect(parseJsonBody('{"a":')).toEqual({ ok: false, message: 'is not valid JSON' });
    // A route may take deeper bodies.
    expect(parseJsonBody(nested(100), 100)).toEqual({
      ok: true,
      value: expect.any(Array) as unknown,
    });
    expect(parseJsonBody(nested(101), 100)).toEqual({
      ok: false,
      message: 'is nested deeper than 100 levels',
    });
  });
});

describe('over HTTP', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(async () => {
    await h?.close();
  });

  it('answers a deeply nested body with a schema error, and the next request as usual', async () => {
    const path = ENDPOINTS.organizationsSearch.path;
    for (const body of [nested(100_000), nested(10_000, '{"a":', '}')]) {
      const deep = await h.request(path, { method: 'POST', rawBody: body });
      expect(deep.status).toBe(400);
      expect(deep.error?.error_type).toBe('invalid_request');
      expect(deep.error?.body?.[0]?.message).toBe(`is nested deeper than ${MAX_JSON_DEPTH} levels`);
    }
    const next = await h.request(path, {
      method: 'POST',
      rawBody: JSON.stringify({ organization_slug: h.org.organization_slug }),
    });
    expect(next.status).toBe(200);
  });
});
