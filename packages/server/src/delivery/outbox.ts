/** The dev outbox: every message sent without a real provider, readable through the dev inbox. */
import { randomUUID } from 'node:crypto';
import { isoAt, type Db } from '../store/schema.js';

/** A message as stored in the outbox and listed by the dev inbox. */
export interface OutboxMessage {
  id: string;
  channel: 'email' | 'sms';
  to: string;
  subject: string;
  text: string;
  html: string;
  links: string[];
  created_at: string;
}

let sequence = 0;

/**
 * Ids sort in sending order (time, then a per-process sequence), so "newest first" holds even
 * for messages sent within the same millisecond.
 */
function messageId(now: number): string {
  sequence = (sequence + 1) % 1_000_000;
  return `message-${String(now).padStart(14, '0')}-${String(sequence).padStart(6, '0')}-${randomUUID().slice(0, 8)}`;
}

/** Stores a message in the outbox. */
export async function writeOutbox(
  db: Db,
  message: Omit<OutboxMessage, 'id' | 'created_at'>,
  now: number,
): Promise<OutboxMessage> {
  const stored: OutboxMessage = { ...message, id: messageId(now), created_at: isoAt(now) };
  await db
    .insertInto('outbox')
    .values({
      id: stored.id,
      channel: stored.channel,
      recipient: stored.to,
      subject: stored.subject,
      text_body: stored.text,
      html_body: stored.html,
      links: JSON.stringify(stored.links),
      created_at: stored.created_at,
    })
    .execute();
  return stored;
}

/** The newest messages first (at most `limit`, default 50). */
export async function listOutbox(db: Db, opts: { limit?: number } = {}): Promise<OutboxMessage[]> {
  const rows = await db
    .selectFrom('outbox')
    .selectAll()
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(Math.max(1, Math.min(opts.limit ?? 50, 1000)))
    .execute();
  return rows.map((r) => ({
    id: r.id,
    channel: r.channel as OutboxMessage['channel'],
    to: r.recipient,
    subject: r.subject,
    text: r.text_body,
    html: r.html_body,
    links: JSON.parse(r.links) as string[],
    created_at: r.created_at,
  }));
}
