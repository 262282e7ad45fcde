/**
 * Transactions that hold work until they commit. Messages (e-mail, SMS) are sent only once the
 * rows they speak of are committed, so a slow provider never holds a write lock, and a rolled-back
 * sign-in sends nothing.
 */
import type { Db } from './schema.js';

/** Work queued by {@link afterCommit} in each open transaction of {@link transaction}. */
const queues = new WeakMap<Db, (() => Promise<void>)[]>();

/**
 * Runs `work` in a transaction, then, once it has committed, what it queued with
 * {@link afterCommit}, in order. A rollback drops the queue. An error of queued work reaches the
 * caller, after the commit. Inside an open transaction, `work` simply joins it.
 *
 * A `Failure` that `work` returns is a value like any other: the transaction commits what was
 * written before it. Use this where that is the point — a wrong code must still commit the attempt
 * it counted, a lockout, a code or token spent by the refusal (say which write, in a one-line
 * comment at the call) — or where `work` returns no failure at all. Where a returned failure must
 * undo the writes before it, use `allOrNothing()` (result.ts) instead
 * (docs/contributing.md, "Transactions").
 *
 * @example
 * await transaction(ctx.db, async (trx) => {
 *   await insertCode(trx, code);
 *   afterCommit(trx, () => sms.send(message));
 * });
 */
export async function transaction<T>(db: Db, work: (trx: Db) => Promise<T>): Promise<T> {
  if (db.isTransaction) return work(db);
  const queue: (() => Promise<void>)[] = [];
  const result = await db.transaction().execute(async (trx) => {
    queues.set(trx, queue);
    try {
      return await work(trx);
    } finally {
      queues.delete(trx);
    }
  });
  for (const task of queue) await task();
  return result;
}

/**
 * Runs `task` once `db`'s transaction has committed, or now when `db` is not a transaction. A
 * transaction opened other than by {@link transaction} has no queue, and sending inside it would
 * hold its locks for the provider's time: that is a programming error.
 */
export async function afterCommit(db: Db, task: () => Promise<void>): Promise<void> {
  if (!db.isTransaction) return task();
  const queue = queues.get(db);
  if (!queue) {
    throw new Error('afterCommit: open the transaction with transaction() from store/transaction');
  }
  queue.push(task);
}
