/** Commits on PostgreSQL heard by every instance (LISTEN/NOTIFY), so that reads may be remembered there too. */
import type pg from 'pg';

/**
 * The channel the change triggers notify (migration `0028_change_notices`): a commit that wrote
 * to a table a session check reads sends one notice naming the schema, whichever instance or tool
 * made it; a commit that wrote to a table announced on its own (migration
 * `0029_captcha_change_notices`) sends one naming the schema and the table (`public.captcha_settings`).
 */
export const CHANGES_CHANNEL = 'gatehouse_changes';

/** How often the listener sends itself a notice, to prove it still hears every commit. */
const PING_MS = 500;
/**
 * How recent the last notice the listener sent itself and heard back must be for remembered reads
 * to be used: the longest a commit on another instance can go unseen (docs/security.md,
 * "Session checks read what is stored now").
 */
export const HEARD_WITHIN_MS = 2_000;
/** The wait before listening again after the connection dropped. */
const RECONNECT_MS = 250;

/** The listener of one database's change notices. */
export interface ChangeNotices {
  /**
   * A value that changes whenever the database may have changed: a notice heard, a statement of
   * this process that could write (before it is sent and again once it is answered), the listener
   * connected again. Null while remembered reads must not be used: not listening yet, the
   * connection dropped, or no notice of its own heard back within {@link HEARD_WITHIN_MS}.
   * With `table` (one announced on its own), the same for that table alone: it moves with the
   * notices naming it, this process's writes to it and the listener connecting again, never with
   * writes to other tables.
   */
  version(table?: string): string | null;
  /**
   * Counts a statement of this process that could write (call before sending it and after), or
   * one that could write to `table`, a table announced on its own.
   */
  wrote(table?: string): void;
  /**
   * Resolves once every commit made before the call has been heard (a notice sent now has come
   * back: notices arrive in commit order); false when the listener is not connected.
   */
  heardUpToNow(): Promise<boolean>;
  /** The listening connection's backend process id, while connected. */
  backendPid(): number | null;
  close(): Promise<void>;
}

/** The listeners of this process that have started (each closed one leaves). */
const started = new Set<ChangeNotices>();

/**
 * The listeners of this process that have started listening: one per PostgreSQL database a
 * server of this process remembers reads of.
 *
 * @example
 * await Promise.all(activeListeners().map((l) => l.heardUpToNow()));
 */
export function activeListeners(): ChangeNotices[] {
  return [...started];
}

/**
 * Listens for change notices on a connection of its own, opened on the first call of
 * `version()` (a CLI command that never remembers a read never listens), and again after it
 * drops. A notice from the triggers of this schema changes the version; pings, other listeners'
 * and other schemas' notices do not. Nothing here holds the process open.
 *
 * @example
 * const notices = listenForChanges(Client, 'postgres://…');
 * const version = notices.version(); // null until listening
 */
export function listenForChanges(
  Client: typeof pg.Client,
  connectionString: string,
  now: () => number = () => performance.now(),
): ChangeNotices {
  const id = Math.random().toString(36).slice(2);
  const pingPrefix = `ping:${id}:`;
  let changes = 0;
  /** Notices and writes of this process, by table announced on its own. */
  const tableChanges = new Map<string, number>();
  /** Moves when the listener connects or drops: whatever was heard before may be incomplete. */
  let epoch = 0;
  const changed = (table: string) => tableChanges.set(table, (tableChanges.get(table) ?? 0) + 1);
  let client: pg.Client | null = null;
  let live = false;
  let listening = false;
  let closed = false;
  /** When the newest of our own pings heard back was sent. */
  let heardPingSentAt = -Infinity;
  /** The schema whose tables this database's are: notices name the schema they come from. */
  let schema = '';
  let pingTimer: NodeJS.Timeout | undefined;
  let reconnectTimer: NodeJS.Timeout | undefined;
  /** Pings waiting to come back, by number (in the order sent), with when each was sent. */
  const waiting = new Map<number, { sentAt: number; resolve: () => void }>();
  let pings = 0;

  const dropped = (failed: pg.Client) => {
    if (client !== failed) return;
    client = null;
    live = false;
    changes++;
    epoch++;
    clearInterval(pingTimer);
    for (const { resolve } of waiting.values()) resolve();
    waiting.clear();
    failed.removeAllListeners('notification');
    void failed.end().catch(() => undefined);
    if (!closed) reconnectTimer = setTimeout(connect, RECONNECT_MS).unref();
  };

  const ping = (target: pg.Client) => {
    const number = ++pings;
    const heard = new Promise<void>((resolve) => waiting.set(number, { sentAt: now(), resolve }));
    target
      .query('SELECT pg_notify($1, $2)', [CHANGES_CHANNEL, `${pingPrefix}${number}`])
      .catch(() => dropped(target));
    return heard;
  };

  const connect = () => {
    if (closed) return;
    const next = new Client({ connectionString });
    client = next;
    next.on('error', () => dropped(next));
    next.on('end', () => dropped(next));
    next.on('notification', (message) => {
      if (message.channel !== CHANGES_CHANNEL) return;
      const payload = message.payload ?? '';
      if (payload.startsWith(pingPrefix)) {
        const number = Number(payload.slice(pingPrefix.length));
        // Notices come in commit order: every ping sent before this one has come back too.
        for (const [sent, { sentAt, resolve }] of waiting) {
          if (sent > number) continue;
          heardPingSentAt = Math.max(heardPingSentAt, sentAt);
          resolve();
          waiting.delete(sent);
        }
      } else if (payload === schema) {
        changes++;
      } else if (payload.startsWith(`${schema}.`)) {
        changed(payload.slice(schema.length + 1));
      }
    });
    next
      .connect()
      .then(() => {
        // The listener alone must not keep a process alive (a CLI command that remembered a read).
        (
          next as unknown as { connection?: { stream?: { unref?: () => void } } }
        ).connection?.stream?.unref?.();
        return next.query<{ schema: string }>('SELECT current_schema() AS schema');
      })
      .then(({ rows }) => {
        schema = rows[0]?.schema ?? 'public';
        return next.query(`LISTEN ${CHANGES_CHANNEL}`);
      })
      .then(() => {
        if (client !== next) return;
        // Whatever was remembered before may have changed unheard.
        changes++;
        epoch++;
        live = true;
        void ping(next);
        pingTimer = setInterval(() => void ping(next), PING_MS).unref();
      })
      .catch(() => dropped(next));
  };

  const notices: ChangeNotices = {
    version(table) {
      if (!listening && !closed) {
        listening = true;
        started.add(notices);
        connect();
      }
      if (!live || now() - heardPingSentAt > HEARD_WITHIN_MS) return null;
      return table === undefined ? String(changes) : `${epoch}:${tableChanges.get(table) ?? 0}`;
    },
    wrote(table) {
      if (table === undefined) changes++;
      else changed(table);
    },
    async heardUpToNow() {
      if (!client || !live) return false;
      await ping(client);
      return live;
    },
    backendPid() {
      const pid = (client as { processID?: number } | null)?.processID;
      return live && typeof pid === 'number' ? pid : null;
    },
    async close() {
      closed = true;
      live = false;
      started.delete(notices);
      clearInterval(pingTimer);
      clearTimeout(reconnectTimer);
      const last = client;
      client = null;
      for (const { resolve } of waiting.values()) resolve();
      waiting.clear();
      if (last) await last.end().catch(() => undefined);
    },
  };
  return notices;
}
