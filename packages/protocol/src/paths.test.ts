import { describe, expect, it } from 'vitest';
import { SDK_PREFIX } from './constants.js';
import { ENDPOINTS } from './endpoints/index.js';
import { CAPTCHA_PATHS } from './paths.js';

describe('CAPTCHA_PATHS', () => {
  it('names exactly the calls the endpoint table marks D', () => {
    const marked = Object.values(ENDPOINTS)
      .filter((e) => 'captcha' in e && e.captcha)
      .map((e) => e.path.slice(SDK_PREFIX.length))
      .sort();
    expect(marked).toHaveLength(20);
    expect([...CAPTCHA_PATHS].sort()).toEqual(marked);
  });
});
