// Captcha settings remembered by two instances over one database (docs/security.md, "Captcha
// settings read what is stored now"): turned on or off on A, they show at the next password
// sign-in on A at once and on B once B has heard the commit. On SQLite that is at once (`PRAGMA
// data_version`); on PostgreSQL (run there with TEST_DATABASE_URL) B hears a notice naming
// `captcha_settings` (migration 0029_captcha_change_notices), and the writes of the sign-ins
// themselves, to other tables, leave the settings remembered.
import { ENDPOINTS } from '@gatehouse/protocol/endpoints';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { activeListeners } from '../../store/change-notices.js';
import { expectOk, startHarness, type CallResponse, type Harness } from '../../test/harness.js';
import { adaPasswordSignIn, giveAdaPassword } from '../../test/passwords.js';

const postgres = Boolean(process.env.TEST_DATABASE_URL);
let h: Harness;
/** Instance B: a sibling of the harness's server (A) over the same database. */
let b: string;

beforeAll(async () => {
  h = await startHarness();
  b = (await h.sibling()).url;
  await giveAdaPassword(h);
});
afterAll(async () => {
  await h.close();
});

/** A password sign-in without a captcha token, on A or on B. */
const signIn = (baseUrl?: string) => adaPasswordSignIn(h, baseUrl ? { baseUrl } : {});

const expectCaptchaRequired = (res: CallResponse<unknown>) =>
  expect([res.status, res.error?.error_type]).toEqual([400, 'captcha_required']);

/** Turns captcha on or off on A, through the management API. */
async function captchaOnA(enabled: boolean) {
  expectOk(
    await h.call(ENDPOINTS.setCaptcha, {
      body: { enabled, provider: 'turnstile', site_key: 'site-key', secret_key: 'secret-key' },
    }),
  );
}

async function until(condition: () => boolean) {
  for (let waited = 0; !condition(); waited += 20) {
    if (waited > 10_000) throw new Error('Timed out waiting for the change listeners.');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** Waits until every instance has heard every commit made so far (at once on SQLite). */
async function heard() {
  expect(await Promise.all(activeListeners().map((l) => l.heardUpToNow()))).not.toContain(false);
}

/** Signs in on B until it remembers the captcha settings (B reads through until it listens). */
async function rememberedOnB() {
  expectOk(await signIn(b));
  await until(() => activeListeners().every((l) => l.version('captcha_settings') !== null));
  await heard();
  expectOk(await signIn(b));
  expectOk(await signIn(b));
}

/** Turns captcha on with no change notice (PostgreSQL: triggers off for this transaction). */
async function turnOnUnheard() {
  await h.db.transaction().execute(async (trx) => {
    if (postgres) await sql`SET LOCAL session_replication_role = replica`.execute(trx);
    await trx
      .insertInto('captcha_settings')
      .values({
        project_id: h.project.project_id,
        enabled: 1,
        provider: 'turnstile',
        site_key: 'site-key',
        secret_encrypted: 'sealed elsewhere',
        min_score: 0.5,
        updated_at: new Date(h.clock.now).toISOString(),
      })
      .onConflict((oc) => oc.column('project_id').doUpdateSet({ enabled: 1 }))
      .execute();
  });
}

describe('a password sign-in after captcha is turned on or off on A', () => {
  it('is refused without a token on A at once, and taken again once captcha is off', async () => {
    expectOk(await signIn());
    expectOk(await signIn());
    await captchaOnA(true);
    expectCaptchaRequired(await signIn());
    await captchaOnA(false);
    expectOk(await signIn());
  });

  it('is refused without a token on B once B has heard, and taken again once captcha is off', async () => {
    await rememberedOnB();
    await captchaOnA(true);
    await heard();
    expectCaptchaRequired(await signIn(b));
    await captchaOnA(false);
    await heard();
    expectOk(await signIn(b));
  });
});

describe('what B remembers of the captcha settings', () => {
  it('outlives its own sign-ins: a change nothing announces stays unseen on PostgreSQL alone', async () => {
    await rememberedOnB();
    await turnOnUnheard();
    await heard();
    // SQLite sees every commit to the file; PostgreSQL only the ones its triggers announce, and
    // the sign-ins' own writes (counters, sessions) do not make B read the settings again.
    for (let i = 0; i < 2; i++) {
      const res = await signIn(b);
      if (postgres) expectOk(res);
      else expectCaptchaRequired(res);
    }
    await captchaOnA(false);
    await heard();
    expectOk(await signIn(b));
  });
});
