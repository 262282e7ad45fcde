// TOTP: RFC 6238 vectors, the ±1 step window, replay refusal, URIs and QR codes.
import { Secret, TOTP, URI } from 'otpauth';
import { describe, expect, it } from 'vitest';
import { generateTotpSecret, totpQrCodeDataUrl, totpStep, totpUri, verifyTotp } from './totp.js';

// RFC 6238 appendix B's SHA-1 seed, "12345678901234567890", in base32.
const RFC_SECRET = 'GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ';
// A fixed instant in the middle of a step, so ±1 s of test latency cannot change the step.
const NOW = 1_700_000_015_000;

/** The code at `now + steps × 30 s`, computed by otpauth's own TOTP, independently of ours. */
function codeAt(secret: string, steps: number): string {
  return TOTP.generate({
    secret: Secret.fromBase32(secret),
    timestamp: NOW + steps * 30_000,
    digits: 6,
    period: 30,
    algorithm: 'SHA1',
  });
}

describe('generateTotpSecret', () => {
  it('makes distinct 20-byte base32 secrets', () => {
    const secret = generateTotpSecret();
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(Secret.fromBase32(secret).bytes).toHaveLength(20);
    expect(generateTotpSecret()).not.toBe(secret);
  });
});

describe('verifyTotp', () => {
  it('matches the RFC 6238 test vectors (truncated to 6 digits)', () => {
    // T = 59 s → 94287082; T = 1111111109 s → 07081804.
    expect(
      verifyTotp({ secret: RFC_SECRET, code: '287082', now: 59_000, lastUsedStep: null }),
    ).toEqual({
      valid: true,
      step: 1,
    });
    expect(
      verifyTotp({
        secret: RFC_SECRET,
        code: '081804',
        now: 1_111_111_109_000,
        lastUsedStep: null,
      }),
    ).toEqual({ valid: true, step: totpStep(1_111_111_109_000) });
  });

  it('accepts the previous, current and next step and nothing further', () => {
    const current = totpStep(NOW);
    for (const steps of [-1, 0, 1]) {
      expect(
        verifyTotp({
          secret: RFC_SECRET,
          code: codeAt(RFC_SECRET, steps),
          now: NOW,
          lastUsedStep: null,
        }),
      ).toEqual({ valid: true, step: current + steps });
    }
    for (const steps of [-3, -2, 2, 3]) {
      expect(
        verifyTotp({
          secret: RFC_SECRET,
          code: codeAt(RFC_SECRET, steps),
          now: NOW,
          lastUsedStep: null,
        }),
      ).toEqual({ valid: false, step: null });
    }
  });

  it('refuses a code whose step was already used, or an earlier one', () => {
    const current = totpStep(NOW);
    const code = codeAt(RFC_SECRET, 0);
    const first = verifyTotp({ secret: RFC_SECRET, code, now: NOW, lastUsedStep: null });
    expect(first).toEqual({ valid: true, step: current });
    expect(verifyTotp({ secret: RFC_SECRET, code, now: NOW, lastUsedStep: first.step })).toEqual({
      valid: false,
      step: null,
    });
    // Replayed 20 s later, when it is the previous step's code.
    expect(
      verifyTotp({ secret: RFC_SECRET, code, now: NOW + 20_000, lastUsedStep: current }),
    ).toEqual({ valid: false, step: null });
    const previous = codeAt(RFC_SECRET, -1);
    expect(
      verifyTotp({ secret: RFC_SECRET, code: previous, now: NOW, lastUsedStep: current }),
    ).toEqual({ valid: false, step: null });
    expect(
      verifyTotp({
        secret: RFC_SECRET,
        code: codeAt(RFC_SECRET, 1),
        now: NOW,
        lastUsedStep: current,
      }),
    ).toEqual({ valid: true, step: current + 1 });
  });

  it('refuses anything but six digits, and another secret’s code', () => {
    const code = codeAt(RFC_SECRET, 0);
    for (const bad of [
      '',
      'abcdef',
      code.slice(0, 5),
      `${code}0`,
      `${code.slice(0, 3)} ${code.slice(3)}`,
      '１２３４５６',
      '12345e',
    ]) {
      expect(
        verifyTotp({ secret: RFC_SECRET, code: bad, now: NOW, lastUsedStep: null }).valid,
      ).toBe(false);
    }
    expect(
      verifyTotp({ secret: RFC_SECRET, code: ` ${code} `, now: NOW, lastUsedStep: null }).valid,
    ).toBe(true);
    const other = 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP';
    expect(verifyTotp({ secret: other, code, now: NOW, lastUsedStep: null }).valid).toBe(false);
  });
});

describe('totpUri and totpQrCodeDataUrl', () => {
  it('builds an otpauth URI that authenticator apps understand', () => {
    const secret = generateTotpSecret();
    const text = totpUri({ secret, issuer: 'Acme Corp', account: 'ada@acme.com' });
    const uri = new URL(text);
    expect(uri.protocol).toBe('otpauth:');
    expect(uri.host).toBe('totp');
    expect(decodeURIComponent(uri.pathname)).toBe('/Acme Corp:ada@acme.com');
    expect(Object.fromEntries(uri.searchParams)).toEqual({
      issuer: 'Acme Corp',
      secret,
      algorithm: 'SHA1',
      digits: '6',
      period: '30',
    });
    // Read back as an app would, it generates the same codes.
    const parsed = URI.parse(text);
    expect(parsed).toBeInstanceOf(TOTP);
    expect(parsed.generate({ timestamp: NOW })).toBe(codeAt(secret, 0));
  });

  it('renders the URI as a PNG data URL', async () => {
    const url = await totpQrCodeDataUrl(
      totpUri({ secret: RFC_SECRET, issuer: 'Acme', account: 'a@b.co' }),
    );
    expect(url.startsWith('data:image/png;base64,')).toBe(true);
    const png = Buffer.from(url.slice('data:image/png;base64,'.length), 'base64');
    expect(png.subarray(0, 8)).toEqual(
      Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    );
    expect(png.length).toBeGreaterThan(200);
  });
});
