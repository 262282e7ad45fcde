/** The thread pool size servers are started with. */
import { availableParallelism } from 'node:os';
import { describe, expect, it } from 'vitest';
import { threadPoolSize } from './threadpool.js';

describe('threadPoolSize', () => {
  it('follows UV_THREADPOOL_SIZE when it is a positive integer', () => {
    expect(threadPoolSize({ UV_THREADPOOL_SIZE: '6' })).toBe(6);
  });

  it('is one thread per core, at least two, when the variable is unset or unusable', () => {
    const expected = Math.max(2, availableParallelism());
    expect(threadPoolSize({})).toBe(expected);
    expect(threadPoolSize({ UV_THREADPOOL_SIZE: '0' })).toBe(expected);
    expect(threadPoolSize({ UV_THREADPOOL_SIZE: 'many' })).toBe(expected);
  });
});
