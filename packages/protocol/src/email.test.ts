// The shared e-mail rule: what it accepts and what it refuses.
import { describe, expect, it } from 'vitest';
import { isValidEmail } from './email.js';

describe('isValidEmail', () => {
  it('accepts local@domain.tld with a top-level domain of two letters or more', () => {
    for (const good of [
      'ada@acme.io',
      'ada.lovelace+x@mail.acme.com',
      'a_b-c@sub-domain.acme.co.uk',
      "o'brien@acme.ie",
      'ADA@ACME.IO',
    ]) {
      expect(isValidEmail(good), good).toBe(true);
    }
  });

  it('refuses what is not an address', () => {
    for (const bad of [
      '',
      'ada',
      'ada@acme',
      'ada@acme.c',
      '@acme.com',
      'ada@',
      'ada@@acme.com',
      'a da@acme.com',
      'ada@acme.c0m',
      ' ada@acme.io',
      'ada@acme.io ',
    ]) {
      expect(isValidEmail(bad), JSON.stringify(bad)).toBe(false);
    }
  });

  it('refuses quotes, brackets and separators in the local part', () => {
    for (const bad of [
      '"ada"@acme.io',
      '<ada>@acme.io',
      'ada(x)@acme.io',
      'a,b@acme.io',
      'a;b@acme.io',
      'a:b@acme.io',
      '[ada]@acme.io',
    ]) {
      expect(isValidEmail(bad), bad).toBe(false);
    }
  });

  it('refuses domains with empty labels or labels that start or end with a hyphen', () => {
    for (const bad of [
      'ada@.acme.io',
      'ada@acme..io',
      'ada@acme.io.',
      'ada@-acme.io',
      'ada@acme-.io',
      'ada@ac_me.io',
    ]) {
      expect(isValidEmail(bad), bad).toBe(false);
    }
  });

  it('accepts up to 254 characters and no more', () => {
    const domain = '@acme.io';
    const longest = 'a'.repeat(254 - domain.length) + domain;
    expect(longest).toHaveLength(254);
    expect(isValidEmail(longest)).toBe(true);
    expect(isValidEmail('a' + longest)).toBe(false);
  });
});
