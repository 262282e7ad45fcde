// The SAML worker pool on its own: the time budget terminates a worker and refuses the response,
// a fresh worker takes the next one, and a full queue refuses at once.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { SAML_POOL_DEFAULTS, SamlPool } from './saml-pool.js';
import type { SamlCheckInput } from './saml-verify.js';

const pools: SamlPool[] = [];

afterEach(async () => {
  await Promise.all(pools.splice(0).map((p) => p.close()));
});

function pool(options: Partial<typeof SAML_POOL_DEFAULTS>): SamlPool {
  const made = new SamlPool({ ...SAML_POOL_DEFAULTS, size: 1, ...options });
  pools.push(made);
  return made;
}

/** An unsigned response; `siblings` empty elements make its parsing slower. */
function input(siblings = 0): SamlCheckInput {
  const xml =
    '<samlp:Response xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol" ID="_r">' +
    '<x/>'.repeat(siblings) +
    '<saml:Assertion xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" ID="_a"/></samlp:Response>';
  return {
    xml,
    entityId: 'https://sp.example/saml',
    acsUrl: 'https://sp.example/acs',
    idpEntityId: 'https://idp.example',
    certificates: ['unused'],
    now: Date.now(),
    skewMs: 60_000,
  };
}

describe('SAML worker pool', () => {
  it('checks a response on a worker', async () => {
    const result = await pool({}).check(input());
    // The refusal names the check it failed, for a test sign-in's report.
    expect(result).toEqual({
      ok: false,
      reason: 'Neither the SAML response nor its assertion is signed.',
      check: 'signature',
    });
  });

  it('refuses a response over its time budget, and checks the next one on a fresh worker', async () => {
    const p = pool({ budgetMs: 30 });
    // Let the worker start first: the budget counts time on a worker, not the worker's start.
    await p.check(input());
    // The budget's clock is the test's: it runs out while the slow response is on the worker,
    // however fast or loaded the machine, and never runs out for the next one.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      const slow = p.check(input(200_000));
      await vi.advanceTimersByTimeAsync(30);
      expect(await slow).toEqual({
        ok: false,
        reason: 'The SAML response took more than 30 ms to check.',
      });
      const next = await p.check(input());
      expect(next.ok).toBe(false);
      expect(next.ok === false && next.reason).toBe(
        'Neither the SAML response nor its assertion is signed.',
      );
    } finally {
      vi.useRealTimers();
    }
  });

  it('refuses at once when the queue is full', async () => {
    const p = pool({ maxQueue: 1 });
    const first = p.check(input());
    const second = await p.check(input());
    expect(second).toMatchObject({ ok: false, busy: true });
    expect((await first).ok).toBe(false);
  });

  it('refuses a response that waited too long for a worker, but not the wait for the first boot', async () => {
    const p = pool({ budgetMs: 5_000, maxWaitMs: 1 });
    // Queued while the only worker boots (far longer than 1 ms): still checked.
    const first = await p.check(input());
    expect(first.ok === false && 'reason' in first && first.reason).toBe(
      'Neither the SAML response nor its assertion is signed.',
    );
    const slow = p.check(input(200_000));
    const waiting = p.check(input());
    await slow;
    expect(await waiting).toMatchObject({ ok: false, busy: true });
  });
});
