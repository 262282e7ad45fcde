/** The `X-SDK-Client` identity and the batched event queue posted to `/sdk/v1/events`. */
import {
  TELEMETRY_BATCH_SIZE,
  TELEMETRY_FLUSH_MS,
  type TelemetryEvent,
  type TelemetryHeader,
} from '@gatehouse/protocol';
import { randomUuid } from './encoding.js';
import { readJson, writeJson } from './storage.js';

/** The `sdk.identifier` our client reports; the server treats it as informational. */
export const SDK_IDENTIFIER = 'gatehouse-client-js';
/** Kept in step with the package version. */
export const SDK_VERSION = '0.1.0';

/** Builds `X-SDK-Client` values: one app session per client, one persistent id per browser. */
export function createTelemetryIdentity(
  persistentIdKey: string,
  currentIds: () => { memberId?: string; memberSessionId?: string },
): () => TelemetryHeader {
  const appSessionId = `app-session-id-${randomUuid()}`;
  const stored = readJson(persistentIdKey);
  const persistentId =
    typeof stored === 'string' && stored.startsWith('persistent-id-')
      ? stored
      : `persistent-id-${randomUuid()}`;
  if (persistentId !== stored) writeJson(persistentIdKey, persistentId);

  return () => {
    const ids = currentIds();
    return {
      event_id: `event-id-${randomUuid()}`,
      app_session_id: appSessionId,
      persistent_id: persistentId,
      client_sent_at: new Date().toISOString(),
      timezone: Intl.DateTimeFormat().resolvedOptions().timeZone,
      ...(ids.memberId ? { stytch_member_id: ids.memberId } : {}),
      ...(ids.memberSessionId ? { stytch_member_session_id: ids.memberSessionId } : {}),
      app: { identifier: window.location.hostname },
      sdk: { identifier: SDK_IDENTIFIER, version: SDK_VERSION },
    };
  };
}

export interface TelemetryQueue {
  log(eventName: string, details?: Record<string, unknown>): void;
  /** Sends what is queued now (used when the client is torn down). */
  flush(): void;
  stop(): void;
}

/**
 * Queues events and posts them in batches of at most 15: immediately when 15 are waiting,
 * otherwise 800 ms after the first queued one. Failures are dropped: telemetry must never
 * disturb sign-in.
 */
export function createTelemetryQueue(options: {
  publicToken: string;
  header: () => TelemetryHeader;
  post(items: { telemetry: TelemetryHeader; event: TelemetryEvent }[]): Promise<void>;
}): TelemetryQueue {
  const queue: { telemetry: TelemetryHeader; event: TelemetryEvent }[] = [];
  let timer: ReturnType<typeof setTimeout> | undefined;

  const send = () => {
    clearTimeout(timer);
    timer = undefined;
    while (queue.length > 0) {
      const batch = queue.splice(0, TELEMETRY_BATCH_SIZE);
      options.post(batch).catch(() => undefined);
    }
  };

  return {
    log(eventName, details = {}) {
      queue.push({
        telemetry: options.header(),
        event: { public_token: options.publicToken, event_name: eventName, details },
      });
      if (queue.length >= TELEMETRY_BATCH_SIZE) send();
      else timer ??= setTimeout(send, TELEMETRY_FLUSH_MS);
    },
    flush: send,
    stop() {
      clearTimeout(timer);
      timer = undefined;
      queue.length = 0;
    },
  };
}
