// `gatehouse outbox list` against a temporary SQLite database: what waits, what was sent and what
// was given up, with attempts and errors, and never a message body.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SecretBox } from '../crypto/secret-box.js';
import { claimDueMail, enqueueMail, recordAttempt } from '../delivery/mail-queue.js';
import { openStore, type Store } from '../store/db.js';
import { isoAt } from '../store/schema.js';
import { cliOnTempDatabase } from '../test/cli.js';

const { cli, databaseUrl } = cliOnTempDatabase('gatehouse-cli-outbox-');
const start = Date.parse('2026-03-01T10:00:00.000Z');
let store: Store;

beforeAll(async () => {
  expect((await cli('outbox', 'list')).stdout).toBe('The e-mail queue is empty.\n');
  store = openStore(databaseUrl);
  // The bodies are never read here: any key seals them.
  const box = new SecretBox(Buffer.alloc(32, 7));
  const email = { subject: 'Your login link', text: 'SECRET-LINK', html: 'SECRET-LINK', links: [] };
  for (const [i, to] of ['sent@acme.test', 'gone@acme.test', 'later@acme.test'].entries()) {
    await enqueueMail(store.db, box, to, email, start + i);
  }
  for (const mail of (await claimDueMail(store.db, box, start + 10, 10)).claimed) {
    const outcome =
      mail.to === 'sent@acme.test'
        ? ({ kind: 'sent' } as const)
        : mail.to === 'gone@acme.test'
          ? ({
              kind: 'failed',
              reason: 'permanent',
              error: 'rejected with 550 at RCPT TO',
            } as const)
          : ({ kind: 'retry', error: 'connection refused', at: start + 30_010 } as const);
    await recordAttempt(store.db, mail, outcome, start + 20);
  }
});

afterAll(async () => {
  await store.close();
});

describe('gatehouse outbox list', () => {
  it('lists the queue newest first, with status, attempts, times, recipient and error', async () => {
    const listed = await cli('outbox', 'list');
    expect(listed.code).toBe(0);
    const lines = listed.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^mail_id +status +attempts +created_at +due_or_finished +to$/);
    const cells = lines.slice(1).map((l) => l.split(/ {2,}/));
    expect(cells.map((c) => c.slice(1))).toEqual([
      [
        'pending',
        '1',
        isoAt(start + 2),
        isoAt(start + 30_010),
        'later@acme.test',
        '(connection refused)',
      ],
      [
        'failed',
        '1',
        isoAt(start + 1),
        isoAt(start + 20),
        'gone@acme.test',
        '(rejected with 550 at RCPT TO)',
      ],
      ['sent', '1', isoAt(start), isoAt(start + 20), 'sent@acme.test'],
    ]);
    expect(listed.stdout).not.toContain('SECRET-LINK');
  });

  it('lists one status, up to a limit, and refuses a bad limit', async () => {
    const failed = await cli('outbox', 'list', '--status', 'failed');
    expect(failed.stdout.trimEnd().split('\n').slice(1)).toEqual([
      expect.stringContaining('gone@acme.test'),
    ]);
    const one = await cli('outbox', 'list', '--limit', '1');
    expect(one.stdout.trimEnd().split('\n').slice(1)).toEqual([
      expect.stringContaining('later@acme.test'),
    ]);
    const bad = await cli('outbox', 'list', '--limit', '0');
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--limit must be a whole number from 1 to 1000');
  });
});
