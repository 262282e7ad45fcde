import { describe, expect, it } from 'vitest';
import { parseForm } from './form.js';

describe('parseForm', () => {
  it('reads fields as URLSearchParams does', () => {
    const body = new URLSearchParams({
      SAMLResponse: 'PHNhbWw+/x==',
      RelayState: 'a b&c=d',
      ü: 'ÿ',
    }).toString();
    expect(parseForm(body)).toEqual(Object.fromEntries(new URLSearchParams(body)));
    expect(parseForm('a=1&a=2&b&&c=')).toEqual({ a: '2', b: '', c: '' });
  });

  it('refuses invalid percent-encoding', () => {
    expect(parseForm('SAMLResponse=%E0%A4%A')).toBeNull();
    expect(parseForm('%ZZ=1')).toBeNull();
  });

  it('keeps names out of the prototype', () => {
    const fields = parseForm('__proto__=x&constructor=y');
    expect(Object.getPrototypeOf(fields)).toBeNull();
    expect(fields?.constructor).toBe('y');
  });
});
