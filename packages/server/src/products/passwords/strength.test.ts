// Password strength under the none, zxcvbn and LUDS policies, with the offline breach list.
import { describe, expect, it } from 'vitest';
import { offlineBreachChecker, type BreachChecker } from './breach.js';
import {
  BREACHED_PASSWORD_WARNING,
  checkPasswordStrength,
  type PasswordPolicy,
} from './strength.js';

const zxcvbn: PasswordPolicy = {
  strength_policy: 'zxcvbn',
  luds_complexity: 3,
  luds_minimum_count: 8,
};
const luds: PasswordPolicy = {
  strength_policy: 'luds',
  luds_complexity: 3,
  luds_minimum_count: 10,
};
const none: PasswordPolicy = { strength_policy: 'none', luds_complexity: 3, luds_minimum_count: 8 };

const offline = { breachCheck: offlineBreachChecker() };
const everything: BreachChecker = { isBreached: async () => true };

const STRONG = 'Umbrella-Quokka-Saxophone-73';

describe('zxcvbn policy', () => {
  it('accepts scores of 3 and 4 and reports the whole result shape', async () => {
    const result = await checkPasswordStrength(STRONG, zxcvbn, offline);
    expect(result).toEqual({
      valid_password: true,
      score: 4,
      breached_password: false,
      breach_detection_on_create: true,
      strength_policy: 'zxcvbn',
      zxcvbn_feedback: { warning: '', suggestions: [] },
      luds_feedback: {
        has_lower_case: true,
        has_upper_case: true,
        has_digit: true,
        has_symbol: true,
        missing_complexity: 0,
        missing_characters: 0,
      },
    });
  });

  it('refuses low scores with zxcvbn warning and suggestions', async () => {
    const result = await checkPasswordStrength('Kitten2019', zxcvbn, offline);
    expect(result.valid_password).toBe(false);
    expect(result.score).toBeLessThan(3);
    expect(result.breached_password).toBe(false);
    expect(result.zxcvbn_feedback.warning).not.toBe('');
    expect(result.zxcvbn_feedback.suggestions.length).toBeGreaterThan(0);
  });

  it("scores a password made of the member's e-mail low", async () => {
    const email = 'quillon.barraclough@vantagepoint.io';
    const withoutEmail = await checkPasswordStrength('Quillon.Barraclough1', zxcvbn, offline);
    const withEmail = await checkPasswordStrength('Quillon.Barraclough1', zxcvbn, {
      ...offline,
      email,
    });
    expect(withoutEmail.valid_password).toBe(true);
    expect(withEmail.valid_password).toBe(false);
    expect(withEmail.score).toBeLessThan(3);
    const domain = await checkPasswordStrength('vantagepoint2024!', zxcvbn, { ...offline, email });
    expect(domain.valid_password).toBe(false);
  });

  it('never accepts a breached password, whatever its score', async () => {
    const result = await checkPasswordStrength(STRONG, zxcvbn, { breachCheck: everything });
    expect(result).toMatchObject({
      valid_password: false,
      score: 4,
      breached_password: true,
      zxcvbn_feedback: { warning: BREACHED_PASSWORD_WARNING },
    });
    const common = await checkPasswordStrength('password', zxcvbn, offline);
    expect(common).toMatchObject({ valid_password: false, score: 0, breached_password: true });
  });
});

describe('LUDS policy', () => {
  it('counts missing characters and missing classes', async () => {
    const result = await checkPasswordStrength('abcdef', luds, offline);
    expect(result.strength_policy).toBe('luds');
    expect(result.valid_password).toBe(false);
    expect(result.luds_feedback).toEqual({
      has_lower_case: true,
      has_upper_case: false,
      has_digit: false,
      has_symbol: false,
      missing_complexity: 2,
      missing_characters: 4,
    });
  });

  it('accepts a long enough password with enough classes, whatever zxcvbn thinks', async () => {
    const result = await checkPasswordStrength('Aaaaaaaaa1', luds, offline);
    expect(result.luds_feedback).toMatchObject({ missing_complexity: 0, missing_characters: 0 });
    expect(result.score).toBeLessThan(3);
    expect(result.valid_password).toBe(true);
  });

  it('treats spaces and punctuation as symbols and counts code points', async () => {
    const spaced = await checkPasswordStrength('lower UPPER', luds, offline);
    expect(spaced.luds_feedback).toMatchObject({
      has_symbol: true,
      has_digit: false,
      missing_complexity: 0,
      missing_characters: 0,
    });
    const emoji = await checkPasswordStrength('Ab1🔒🔒🔒🔒🔒🔒', luds, offline);
    expect(emoji.luds_feedback.missing_characters).toBe(1);
  });

  it('never accepts a breached password even when the rules are met', async () => {
    // On the offline list; lower, upper and digit, 11 characters.
    const result = await checkPasswordStrength('Password123', luds, offline);
    expect(result.luds_feedback).toMatchObject({ missing_complexity: 0, missing_characters: 0 });
    expect(result).toMatchObject({ valid_password: false, breached_password: true });
    const breached = await checkPasswordStrength('Aaaaaaaaa1', luds, { breachCheck: everything });
    expect(breached).toMatchObject({ valid_password: false, breached_password: true });
  });
});

describe('no policy', () => {
  it('accepts any password that is not breached, still reporting zxcvbn', async () => {
    const weak = await checkPasswordStrength('zq', none, offline);
    expect(weak).toMatchObject({ valid_password: true, strength_policy: 'zxcvbn' });
    expect(weak.score).toBeLessThan(3);
    const breached = await checkPasswordStrength('qwerty', none, offline);
    expect(breached).toMatchObject({ valid_password: false, breached_password: true });
  });
});
