// Bodies are parsed as their schema says, `{}` included, which most session checks send.
import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { ApiError } from './errors.js';
import { parseBody } from './validate.js';

describe('parseBody', () => {
  it('answers `{}` as the schema does, a fresh object each time', () => {
    const optional = z.object({ session_duration_minutes: z.number().int().optional() });
    const first = parseBody(optional, {});
    expect(first).toEqual({});
    (first as Record<string, unknown>).session_duration_minutes = 5;
    expect(parseBody(optional, {})).toEqual({});
    expect(parseBody(optional, undefined)).toEqual({});
    expect(parseBody(optional, { session_duration_minutes: 60 })).toEqual({
      session_duration_minutes: 60,
    });
  });

  it('keeps the defaults and the refusals a schema gives `{}`', () => {
    const defaulted = z.object({ limit: z.number().default(10) });
    expect(parseBody(defaulted, {})).toEqual({ limit: 10 });
    expect(parseBody(defaulted, {})).toEqual({ limit: 10 });
    const required = z.object({ email_address: z.string() });
    for (let i = 0; i < 2; i++) {
      expect(() => parseBody(required, {})).toThrow(ApiError);
    }
    const transformed = z.object({}).transform(() => ({ added: true }));
    expect(parseBody(transformed, {})).toEqual({ added: true });
  });

  it('leaves anything but a plain `{}` to the schema', () => {
    const optional = z.object({ a: z.string().optional() });
    const answer = (parse: () => unknown) => {
      try {
        return parse();
      } catch {
        return 'refused';
      }
    };
    const inputs = [Object.create({ a: 'inherited' }) as object, Object.create(null) as object, []];
    for (const input of inputs) {
      expect(answer(() => parseBody(optional, input))).toEqual(answer(() => optional.parse(input)));
    }
  });
});
