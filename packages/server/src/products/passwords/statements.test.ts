// The statements one password sign-in of an existing member sends, counted (bench/RESULTS.md):
// what a sign-in reads and writes, so that a statement more fails here.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { activeListeners } from '../../store/change-notices.js';
import { statementsSent } from '../../store/db.js';
import { expectOk, startHarness, type Harness } from '../../test/harness.js';
import { adaPasswordSignIn, giveAdaPassword } from '../../test/passwords.js';

/** On PostgreSQL remembered reads wait for the change listener (TEST_DATABASE_URL). */
const postgres = Boolean(process.env.TEST_DATABASE_URL);

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
  await giveAdaPassword(h);
});
afterAll(async () => {
  await h.close();
});

const signIn = () => adaPasswordSignIn(h);

async function until(condition: () => boolean) {
  for (let waited = 0; !condition(); waited += 20) {
    if (waited > 10_000) throw new Error('Timed out waiting for the change listeners.');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** The statements of one sign-in. */
async function counted() {
  const before = statementsSent();
  expectOk(await signIn());
  return statementsSent() - before;
}

describe('a password sign-in of an existing member', () => {
  // The per-IP counter, the organization, the address-and-IP back-off, the address's ceiling, the
  // member with its roles and password, then begin, the back-off forgotten, the ceiling refunded,
  // the session, the member's last sign-in and commit. The captcha settings, read by the
  // first sign-in, are remembered across the others' writes (products/captcha/store.ts).
  it('sends 11 statements once the captcha settings are remembered', async () => {
    expectOk(await signIn());
    if (postgres) await until(() => activeListeners().every((l) => l.version() !== null));
    expectOk(await signIn());
    expect(await counted()).toBe(11);
  });
});
