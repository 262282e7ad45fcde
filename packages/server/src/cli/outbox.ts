/** `gatehouse outbox list`: the e-mail queue, to see what is waiting and what was given up. */
import type { MailStatus } from '../delivery/mail-queue.js';
import { choice, defineCommand, option, UsageError, type Parser } from './command.js';
import { DATABASE_SETTINGS } from './environment.js';
import { withRuntime } from './open.js';

const STATUSES = ['pending', 'sent', 'failed'] as const satisfies readonly MailStatus[];

/** A whole number from 1 to 1000. */
const listLimit: Parser<number> = (raw, flag) => {
  const n = Number(raw);
  if (!/^\d+$/.test(raw) || n < 1 || n > 1000) {
    throw new UsageError(`${flag} must be a whole number from 1 to 1000`);
  }
  return n;
};

/** Lists queued e-mail, newest first: status, attempts, times, recipient and the last error. */
export const outboxList = defineCommand({
  name: ['outbox', 'list'],
  summary: 'List queued e-mail: pending, sent and given up',
  usage: '[--status pending|sent|failed] [--limit N]',
  description:
    'Lists the e-mail queue, newest first: each message id, status, the attempts made, when it ' +
    'was accepted, when the next attempt is due (pending) or when it was finished (sent or ' +
    'failed), the recipient and the last error. Pending messages are retried for an hour; ' +
    'failed ones were refused for good (5xx) or not delivered in time, and stay listed a week. ' +
    'Never the bodies: they hold sign-in links, and are deleted once a message is finished.',
  options: {
    status: choice(STATUSES, 'Only messages with this status'),
    limit: option('N', 'How many to list (default 50, at most 1000)', { parse: listLimit }),
  },
  environment: DATABASE_SETTINGS,
  async run(values, io) {
    await withRuntime(io, async ({ admin }) => {
      const mail = await admin.listMail({
        ...(values.status ? { status: values.status } : {}),
        ...(values.limit ? { limit: values.limit } : {}),
      });
      if (mail.length === 0) {
        io.stdout(values.status ? `No ${values.status} e-mail.\n` : 'The e-mail queue is empty.\n');
        return;
      }
      const header = ['mail_id', 'status', 'attempts', 'created_at', 'due_or_finished', 'to'];
      const rows = mail.map((m) => [
        m.id,
        m.status,
        String(m.attempts),
        m.created_at,
        m.next_attempt_at ?? m.finished_at ?? '',
        m.last_error ? `${m.to}  (${m.last_error})` : m.to,
      ]);
      const widths = header.map((title, i) =>
        Math.max(title.length, ...rows.map((row) => row[i]?.length ?? 0)),
      );
      const line = (cells: string[]) =>
        `${cells.map((cell, i) => (i < cells.length - 1 ? cell.padEnd(widths[i] ?? 0) : cell)).join('  ')}\n`;
      io.stdout(line(header) + rows.map(line).join(''));
    });
  },
});
