/**
 * The daily re-check of verified domains (docs/protocol.md §7.12): a domain whose record is gone
 * for {@link FAILURES_BEFORE_UNVERIFY} checks in a row is no longer verified, and leaves its
 * organization's claimed domains. Runs in the background of the server, a bounded batch per tick,
 * one lookup at a time, and stops with it.
 */
import { isoAt, type Context } from '../../context.js';
import { transaction } from '../../store/transaction.js';
import { holdsToken, lookupTxt, verificationRecord } from './dns.js';
import { syncClaimedDomains } from './service.js';
import {
  domainsDueForRecheck,
  markVerified,
  recordFailedCheck,
  unverify,
  type DomainRow,
} from './store.js';

/** How long a verified domain goes unchecked. */
export const RECHECK_INTERVAL_MS = 24 * 60 * 60 * 1000;
/** How often the job looks for domains due. */
const TICK_MS = 60 * 60 * 1000;
/** The most domains one tick checks: the rest wait for the next. */
const BATCH = 50;
/** Checks in a row that miss the record before the domain is no longer verified. */
export const FAILURES_BEFORE_UNVERIFY = 3;

/** What the job needs of the context. */
type RecheckContext = Pick<Context, 'db' | 'config' | 'now' | 'log'>;

/**
 * Re-checks the verified domains due, at most one batch; answers how many it checked. A lookup
 * that fails (DNS unreachable) counts against no domain: the next tick tries it again.
 *
 * @example
 * await recheckDueDomains(ctx, new AbortController().signal);
 */
export async function recheckDueDomains(ctx: RecheckContext, signal: AbortSignal): Promise<number> {
  const due = await domainsDueForRecheck(ctx.db, isoAt(ctx.now() - RECHECK_INTERVAL_MS), BATCH);
  let checked = 0;
  for (const row of due) {
    if (signal.aborted) break;
    const record = verificationRecord(row.domain, row.token);
    const found = await lookupTxt(record.name, ctx.config.dnsServers, signal);
    if (found.kind === 'failed' || signal.aborted) continue;
    checked += 1;
    const at = isoAt(ctx.now());
    if (found.kind === 'found' && holdsToken(found.values, record.value)) {
      await markVerified(ctx.db, row, at);
    } else {
      await recordMiss(ctx, row, at);
    }
  }
  return checked;
}

async function recordMiss(ctx: RecheckContext, row: DomainRow, at: string): Promise<void> {
  await transaction(ctx.db, async (trx) => {
    const failures = await recordFailedCheck(trx, row.id, at);
    if (failures < FAILURES_BEFORE_UNVERIFY) return;
    await unverify(trx, row.id);
    await syncClaimedDomains(trx, row.project_id, row.organization_id);
  });
  ctx.log.info({ domain: row.domain, organization_id: row.organization_id }, 'domain check missed');
}

/** The running job; `stop` ends it and waits for the tick under way. */
export interface DomainRecheck {
  stop(): Promise<void>;
}

/**
 * Starts the hourly tick of {@link recheckDueDomains}; the timer never keeps the process alive,
 * ticks never overlap, and `stop` cancels the lookup under way.
 *
 * @example
 * const recheck = startDomainRecheck(ctx);
 * await recheck.stop();
 */
export function startDomainRecheck(ctx: RecheckContext): DomainRecheck {
  const abort = new AbortController();
  let running: Promise<unknown> | null = null;
  const timer = setInterval(() => {
    if (running) return;
    running = recheckDueDomains(ctx, abort.signal)
      .catch((error: unknown) => {
        ctx.log.error({ err: error }, 'domain re-check failed');
      })
      .finally(() => {
        running = null;
      });
  }, TICK_MS);
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      abort.abort();
      await running;
    },
  };
}
