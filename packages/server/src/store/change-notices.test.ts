// The change listener (store/change-notices.ts): its version moves with every notice of its own
// schema, and it answers null (remembered reads unused) until it listens, when its connection
// drops, and when its own notices come back later than HEARD_WITHIN_MS. Against PostgreSQL when
// TEST_DATABASE_URL names one; otherwise against a stand-in client that delivers notices as
// PostgreSQL does, in the order they were sent.
import { EventEmitter } from 'node:events';
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import {
  CHANGES_CHANNEL,
  HEARD_WITHIN_MS,
  listenForChanges,
  type ChangeNotices,
} from './change-notices.js';

const url = process.env.TEST_DATABASE_URL;

/** The stand-in: one bus for every client, as one database is for every connection. */
const bus = new EventEmitter();
let nextPid = 1;
const fakes = new Map<number, FakeClient>();

class FakeClient extends EventEmitter {
  processID = nextPid++;
  connect() {
    fakes.set(this.processID, this);
    return Promise.resolve();
  }
  query(text: string, values: string[] = []) {
    if (text.startsWith('SELECT current_schema'))
      return Promise.resolve({ rows: [{ schema: 'public' }] });
    if (text.startsWith('LISTEN')) {
      bus.on('notice', (message: unknown) => this.emit('notification', message));
    }
    if (text.startsWith('SELECT pg_notify')) {
      setImmediate(() => bus.emit('notice', { channel: values[0], payload: values[1] }));
    }
    return Promise.resolve({ rows: [] });
  }
  end() {
    bus.removeAllListeners('notice');
    return Promise.resolve();
  }
}

const Client = (url ? pg.Client : FakeClient) as typeof pg.Client;
let clock = 0;
let open: ChangeNotices[] = [];

function listener(): ChangeNotices {
  const notices = listenForChanges(Client, url ?? 'postgres://stand-in', () => clock);
  open.push(notices);
  return notices;
}

afterEach(async () => {
  for (const notices of open) await notices.close();
  open = [];
});

/** Sends a notice as a trigger of `schema` would, from another connection. */
async function notify(schema: string) {
  if (!url) {
    bus.emit('notice', { channel: CHANGES_CHANNEL, payload: schema });
    return;
  }
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  await client.query('SELECT pg_notify($1, $2)', [CHANGES_CHANNEL, schema]);
  await client.end();
}

/** Ends the listener's connection from the database's side. */
async function dropConnection(pid: number) {
  if (!url) {
    fakes.get(pid)?.emit('error', new Error('terminating connection'));
    return;
  }
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  await client.query('SELECT pg_terminate_backend($1)', [pid]);
  await client.end();
}

async function until(condition: () => boolean) {
  for (let waited = 0; !condition(); waited += 10) {
    if (waited > 10_000) throw new Error('Timed out waiting for the listener.');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe('listenForChanges', () => {
  it('answers null until it listens and has heard its own notice, then a version', async () => {
    const notices = listener();
    expect(notices.version()).toBeNull();
    await until(() => notices.version() !== null);
    expect(await notices.heardUpToNow()).toBe(true);
  });

  it("moves its version on a notice of its schema, not on another schema's", async () => {
    const notices = listener();
    await until(() => notices.version() !== null);
    const before = notices.version();
    await notify('some_other_schema');
    await notices.heardUpToNow();
    expect(notices.version()).toBe(before);
    await notify('public');
    await notices.heardUpToNow();
    expect(notices.version()).not.toBe(before);
    expect(notices.version()).not.toBeNull();
  });

  it("moves a table's version on a notice naming it and a write of it, never on the schema's", async () => {
    const notices = listener();
    await until(() => notices.version('captcha_settings') !== null);
    const before = notices.version('captcha_settings');
    const all = notices.version();
    await notify('public');
    notices.wrote();
    await notify('public.sessions');
    await notify('some_other_schema.captcha_settings');
    await notices.heardUpToNow();
    expect(notices.version('captcha_settings')).toBe(before);
    await notify('public.captcha_settings');
    await notices.heardUpToNow();
    const heard = notices.version('captcha_settings');
    expect(heard).not.toBe(before);
    notices.wrote('captcha_settings');
    expect(notices.version('captcha_settings')).not.toBe(heard);
    expect(notices.version()).not.toBe(all);
  });

  it('moves its version before and after a write of this process', async () => {
    const notices = listener();
    await until(() => notices.version() !== null);
    const before = notices.version();
    notices.wrote();
    const during = notices.version();
    notices.wrote();
    expect(new Set([before, during, notices.version()]).size).toBe(3);
  });

  it(`answers null once its own notice is older than ${HEARD_WITHIN_MS} ms, until one comes back`, async () => {
    const notices = listener();
    await until(() => notices.version() !== null);
    await notices.heardUpToNow();
    clock += HEARD_WITHIN_MS;
    expect(notices.version()).not.toBeNull();
    clock += 1;
    expect(notices.version()).toBeNull();
    await notices.heardUpToNow();
    expect(notices.version()).not.toBeNull();
  });

  it('answers null when its connection drops, and a new version once it listens again', async () => {
    const notices = listener();
    await until(() => notices.version() !== null);
    const before = notices.version();
    const pid = notices.backendPid();
    expect(pid).not.toBeNull();
    await dropConnection(pid!);
    await until(() => notices.version() === null);
    expect(await notices.heardUpToNow()).toBe(false);
    await until(() => notices.version() !== null);
    expect(notices.version()).not.toBe(before);
    expect(notices.backendPid()).not.toBe(pid);
  });

  it('stops listening when closed', async () => {
    const notices = listener();
    await until(() => notices.version() !== null);
    await notices.close();
    expect(notices.version()).toBeNull();
    expect(await notices.heardUpToNow()).toBe(false);
  });
});
