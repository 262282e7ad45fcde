// The operations tables: the outbox, the mail queue, telemetry events, rate-limit and back-off counters, and each
// project's captcha settings.
import type { Columns, Flag, Json, TableColumns, Timestamp } from './columns.js';

export interface OutboxTable {
  id: string;
  channel: string;
  recipient: string;
  subject: string;
  text_body: string;
  html_body: string;
  links: Json;
  created_at: Timestamp;
}

const outboxColumns = {
  id: 'text not null',
  channel: 'text not null',
  recipient: 'text not null',
  subject: 'text not null',
  text_body: 'text not null',
  html_body: 'text not null',
  links: 'text not null',
  created_at: 'text not null',
} satisfies Columns<OutboxTable>;

/**
 * E-mail accepted for delivery (delivery/mail-queue.ts): `pending` until a worker's attempt
 * succeeds (`sent`) or the message is given up (`failed`). The body is sealed with the server key
 * while pending and removed once the message is finished.
 */
export interface MailQueueTable {
  id: string;
  recipient: string;
  subject: string;
  /** `{text, html}` as JSON, sealed; null once sent or failed. */
  body_sealed: string | null;
  status: string;
  attempts: number;
  /** When a worker may next try it; while one is trying, the end of its lease. */
  next_attempt_at: Timestamp;
  /** The attempt under way, so that only the worker that claimed it records its outcome. */
  claim_id: string | null;
  last_error: string | null;
  created_at: Timestamp;
  finished_at: Timestamp | null;
}

const mailQueueColumns = {
  id: 'text not null',
  recipient: 'text not null',
  subject: 'text not null',
  body_sealed: 'text',
  status: 'text not null',
  attempts: 'integer not null',
  next_attempt_at: 'text not null',
  claim_id: 'text',
  last_error: 'text',
  created_at: 'text not null',
  finished_at: 'text',
} satisfies Columns<MailQueueTable>;

export interface EventsTable {
  id: string;
  project_id: string;
  event_name: string;
  payload: Json;
  created_at: Timestamp;
}

const eventsColumns = {
  id: 'text not null',
  project_id: 'text not null',
  event_name: 'text not null',
  payload: 'text not null',
  created_at: 'text not null',
} satisfies Columns<EventsTable>;

export interface RateLimitsTable {
  key: string;
  /** Start of the current fixed window, in whole seconds since the epoch. */
  window_start: number;
  count: number;
}

const rateLimitsColumns = {
  key: 'text not null',
  window_start: 'integer not null',
  count: 'integer not null',
} satisfies Columns<RateLimitsTable>;

/**
 * Back-off counters (`reserveWithBackoff`): attempts of one subject (a client IP) within one scope
 * (a password sign-in's organization and e-mail), and how long the next one must wait. Times in
 * whole seconds since the epoch.
 */
export interface RateLimitBackoffsTable {
  scope: string;
  subject: string;
  attempts: number;
  delay_seconds: number;
  blocked_until: number;
  last_attempt: number;
}

const rateLimitBackoffsColumns = {
  scope: 'text not null',
  subject: 'text not null',
  attempts: 'integer not null',
  delay_seconds: 'integer not null',
  blocked_until: 'integer not null',
  last_attempt: 'integer not null',
} satisfies Columns<RateLimitBackoffsTable>;

/** A project's captcha provider (docs/protocol.md §6); one row per project at most. */
export interface CaptchaSettingsTable {
  project_id: string;
  enabled: Flag;
  provider: string;
  site_key: string;
  /** The provider's secret key, sealed with the server key. */
  secret_encrypted: string | null;
  min_score: number;
  updated_at: Timestamp;
}

const captchaSettingsColumns = {
  project_id: 'text not null',
  enabled: 'integer not null',
  provider: 'text not null',
  site_key: 'text not null',
  secret_encrypted: 'text',
  min_score: 'double precision not null',
  updated_at: 'text not null',
} satisfies Columns<CaptchaSettingsTable>;

/** The tables of this area, by name (part of `Database`). */
export interface OperationsTables {
  outbox: OutboxTable;
  mail_queue: MailQueueTable;
  events: EventsTable;
  rate_limits: RateLimitsTable;
  rate_limit_backoffs: RateLimitBackoffsTable;
  captcha_settings: CaptchaSettingsTable;
}

/** Their columns as the migrations create them. */
export const OPERATIONS_COLUMNS = {
  outbox: outboxColumns,
  mail_queue: mailQueueColumns,
  events: eventsColumns,
  rate_limits: rateLimitsColumns,
  rate_limit_backoffs: rateLimitBackoffsColumns,
  captcha_settings: captchaSettingsColumns,
} satisfies TableColumns<OperationsTables>;
