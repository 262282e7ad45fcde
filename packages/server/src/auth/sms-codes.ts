/** Issuing SMS codes: limits, storage (keyed hash, 2 minutes, one live code per member) and delivery. */
import { randomUUID } from 'node:crypto';
import { isoAt, type Context, type Db } from '../context.js';
import { writeOutbox } from '../delivery/outbox.js';
import { SmsDeliveryError, smsText } from '../delivery/sms.js';
import { countHit, type RateRule } from '../store/rate-limits.js';
import { afterCommit } from '../store/transaction.js';
import type { Project } from '../tenancy/projects/service.js';
import { generateOtpCode, hashOtpCode, OTP_TTL_SECONDS } from './otp-code.js';

/** The send limits of one SMS: per number and per member (the route adds per IP). */
export function smsSendRules(ctx: Context, memberId: string, phone: string): RateRule[] {
  const limits = ctx.config.rateLimits;
  return [
    { key: `sms:number:${phone}`, limit: limits.smsSendsPerNumberPerHour, windowSeconds: 3600 },
    { key: `sms:member:${memberId}`, limit: limits.smsSendsPerMemberPerHour, windowSeconds: 3600 },
  ];
}

/**
 * Counts a send against the limits inside `db` (which may be an open transaction); false when
 * any is exceeded.
 */
export async function smsSendAllowed(
  ctx: Context,
  db: Db,
  memberId: string,
  phone: string,
): Promise<boolean> {
  let allowed = true;
  for (const rule of smsSendRules(ctx, memberId, phone)) {
    const hit = await countHit(db, rule.key, rule.limit, rule.windowSeconds, ctx.now());
    allowed &&= hit.allowed;
  }
  return allowed;
}

/**
 * Sends a text message through the provider once `db`'s transaction has committed (a slow
 * provider never holds a write lock), or, when the dev inbox was asked for, writes it to the dev
 * outbox through `db`, so that the message commits (or not) with the transaction. With neither,
 * the send fails at once (503 `sms_delivery_failed`): a code must never vanish silently. A
 * provider failure reaches `onFailure` when given, else the caller, after the commit.
 */
export async function deliverSms(
  ctx: Context,
  db: Db,
  to: string,
  text: string,
  onFailure?: (error: SmsDeliveryError) => void,
): Promise<void> {
  const { sms } = ctx;
  if (sms) {
    await afterCommit(db, async () => {
      try {
        await sms.send({ to, body: text });
      } catch (error) {
        if (!(onFailure && error instanceof SmsDeliveryError)) throw error;
        onFailure(error);
      }
    });
    return;
  }
  if (!ctx.config.devInbox) {
    throw new SmsDeliveryError('No SMS provider is configured (SMS_PROVIDER_URL).', null);
  }
  await writeOutbox(db, { channel: 'sms', to, subject: '', text, html: '', links: [] }, ctx.now());
}

/**
 * Creates a 6-digit code for the member, valid 2 minutes, and texts it to `phone` (E.164). Any
 * earlier live code of the member is voided: only the newest one works.
 */
export async function issueSmsCode(
  ctx: Context,
  db: Db,
  project: Project,
  memberId: string,
  phone: string,
  options: {
    /** The language of the text; English when the server has no copy for it. */
    locale?: string | null | undefined;
    onFailure?: (error: SmsDeliveryError) => void;
  } = {},
): Promise<void> {
  const now = ctx.now();
  const code = generateOtpCode();
  await db
    .updateTable('otp_codes')
    .set({ used_at: isoAt(now) })
    .where('member_id', '=', memberId)
    .where('used_at', 'is', null)
    .execute();
  await db
    .insertInto('otp_codes')
    .values({
      id: `otp-code-${project.environment}-${randomUUID()}`,
      project_id: project.id,
      member_id: memberId,
      phone_number: phone,
      code_hash: hashOtpCode(code, ctx.otpKey),
      created_at: isoAt(now),
      expires_at: isoAt(now + OTP_TTL_SECONDS * 1000),
      used_at: null,
    })
    .execute();
  const text = smsText(code, project.name, options.locale);
  await deliverSms(ctx, db, phone, text, options.onFailure);
}
