// What a linked identity keeps of what its provider said: an IdP's attributes within bounds, so
// no IdP can make every answer about its members large.
import { describe, expect, it } from 'vitest';
import { boundedAttributes } from './registrations.js';

describe('boundedAttributes', () => {
  it('keeps ordinary attributes as they came', () => {
    const attributes = { email: ['ada@acme.test'], groups: ['a', 'b'], verified: true };
    expect(JSON.parse(boundedAttributes(attributes))).toEqual(attributes);
  });

  it('leaves out a value too large, a name too long and undefined values, keeping the rest', () => {
    const kept = JSON.parse(
      boundedAttributes({
        huge: 'x'.repeat(5000),
        ['n'.repeat(300)]: 'long name',
        missing: undefined,
        department: 'Engines',
      }),
    ) as Record<string, unknown>;
    expect(kept).toEqual({ department: 'Engines' });
  });

  it('keeps at most 64 attributes and 16 KB in all', () => {
    const many = Object.fromEntries(Array.from({ length: 100 }, (_, i) => [`a${i}`, i]));
    expect(Object.keys(JSON.parse(boundedAttributes(many)) as object)).toHaveLength(64);
    const wide = Object.fromEntries(
      Array.from({ length: 40 }, (_, i) => [`a${i}`, 'y'.repeat(1500)]),
    );
    const stored = boundedAttributes(wide);
    expect(stored.length).toBeLessThanOrEqual(16 * 1024);
    expect(Object.keys(JSON.parse(stored) as object).length).toBeGreaterThan(5);
  });
});
