/**
 * The source of `gatehouse import`: the hosted provider's backend API (or another Gatehouse),
 * read with the project's secret key. Every call has a timeout; 429 and 5xx answers and network
 * failures are retried with backoff, honouring Retry-After. The secret never appears in an error.
 */
import type { Member, Organization, RbacPolicy } from '@gatehouse/protocol';
import type { OidcConnection, SamlConnection } from '@gatehouse/protocol';
import { UsageError } from './command.js';

/** A page of a search and the cursor of the next one (null on the last). */
export interface Page<T> {
  items: T[];
  nextCursor: string | null;
}

/** How a source is reached; the retry and timeout settings have defaults for operators. */
export interface SourceOptions {
  url: string;
  projectId: string;
  secret: string;
  /** Per attempt. Default 30 s. */
  timeoutMs?: number;
  /** Attempts per call, the first included. Default 5. */
  attempts?: number;
  /** The longest wait between attempts, whatever Retry-After says. Default 60 s. */
  maxDelayMs?: number;
  /** Ends every call in flight and refuses new ones: the run is over. */
  stop?: AbortSignal;
}

/** The source's answer to one call was a refusal or never came; `status` is 0 for no answer. */
export class SourceError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly errorType: string | null = null,
  ) {
    super(message);
    this.name = 'SourceError';
  }

  /** The source does not offer this call: no such path (not an object the path names missing). */
  get notOffered(): boolean {
    const noRoute = this.errorType === null || this.errorType === 'endpoint_not_found';
    return this.status === 405 || (this.status === 404 && noRoute);
  }
}

const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);

/**
 * The source's base URL: https, or http on a loopback host (a source on the same machine, as in
 * tests); anything else is a usage error naming `flag`.
 *
 * @example
 * sourceUrl('https://api.stytch.com/', '--from'); // 'https://api.stytch.com'
 */
export function sourceUrl(raw: string, flag: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new UsageError(`${flag} must be a URL`);
  }
  const loopback = LOOPBACK.has(url.hostname) || /^127\.\d+\.\d+\.\d+$/.test(url.hostname);
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && loopback)) {
    throw new UsageError(`${flag} must be an https URL (http only on a loopback host)`);
  }
  if (url.username || url.password || url.search || url.hash) {
    throw new UsageError(`${flag} takes no credentials, query or fragment`);
  }
  return url.href.replace(/\/+$/, '');
}

/**
 * How long to wait before attempt `attempt` (2, 3, …): Retry-After in seconds or as a date when
 * the source sent one, else 0.5 s doubling, with jitter; never more than `max`.
 */
function delayBefore(attempt: number, retryAfter: string | null, max: number, now: number) {
  if (retryAfter !== null) {
    const seconds = Number(retryAfter);
    const ms = Number.isFinite(seconds) ? seconds * 1000 : Date.parse(retryAfter) - now;
    if (Number.isFinite(ms)) return Math.min(Math.max(ms, 0), max);
  }
  const base = 500 * 2 ** (attempt - 2);
  return Math.min(base / 2 + Math.random() * (base / 2), max);
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The largest answer read: a page of a thousand members is a few megabytes. */
const MAX_ANSWER_BYTES = 64 * 1024 * 1024;

/** The body as text, or null once it passes `max` bytes (the rest is never read). */
async function readCapped(res: Response, max: number): Promise<string | null> {
  if (!res.body) return '';
  const reader = res.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > max) {
      await reader.cancel();
      return null;
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** The reader of one source project. */
export interface Source {
  organizations(cursor: string | null, limit: number): Promise<Page<Organization>>;
  members(organizationId: string, cursor: string | null, limit: number): Promise<Page<Member>>;
  ssoConnections(organizationId: string): Promise<{
    saml: SamlConnection[];
    oidc: OidcConnection[];
    /** Connection kinds the import cannot take (external connections), with their ids. */
    other: { kind: string; id: string }[];
  }>;
  rbacPolicy(): Promise<RbacPolicy>;
}

/**
 * A reader of the source's management API with HTTP Basic `project_id:secret`.
 *
 * @example
 * const source = openSource({ url: 'https://api.stytch.com', projectId, secret });
 * const first = await source.organizations(null, 100);
 */
export function openSource(options: SourceOptions): Source {
  const authorization = `Basic ${Buffer.from(`${options.projectId}:${options.secret}`).toString('base64')}`;
  const timeoutMs = options.timeoutMs ?? 30_000;
  const attempts = options.attempts ?? 5;
  const maxDelay = options.maxDelayMs ?? 60_000;

  async function call(method: 'GET' | 'POST', path: string, body?: unknown) {
    const what = `${method} ${path}`;
    let last: SourceError | null = null;
    for (let attempt = 1; attempt <= attempts; attempt++) {
      if (options.stop?.aborted) throw new SourceError(0, `${what}: the import stopped`);
      let res: Response;
      try {
        res = await fetch(`${options.url}${path}`, {
          method,
          headers: {
            authorization,
            accept: 'application/json',
            ...(body === undefined ? {} : { 'content-type': 'application/json' }),
          },
          body: body === undefined ? undefined : JSON.stringify(body),
          signal: options.stop
            ? AbortSignal.any([AbortSignal.timeout(timeoutMs), options.stop])
            : AbortSignal.timeout(timeoutMs),
          redirect: 'error',
        });
      } catch (error) {
        const why =
          error instanceof Error && error.name === 'TimeoutError' ? 'timed out' : 'failed';
        last = new SourceError(0, `${what} ${why}`);
        if (attempt < attempts) await sleep(delayBefore(attempt + 1, null, maxDelay, Date.now()));
        continue;
      }
      const text = await readCapped(res, MAX_ANSWER_BYTES);
      if (text === null) {
        throw new SourceError(res.status, `${what}: the answer is over ${MAX_ANSWER_BYTES} bytes`);
      }
      if (res.ok) {
        try {
          return JSON.parse(text) as Record<string, unknown>;
        } catch {
          throw new SourceError(res.status, `${what}: the source answered something not JSON`);
        }
      }
      const refusal = reason(text);
      last = new SourceError(
        res.status,
        `${what}: the source answered ${res.status}${refusal ? ` (${refusal.type}: ${refusal.message})` : ''}`,
        refusal?.type ?? null,
      );
      if (res.status !== 429 && res.status < 500) throw last;
      if (attempt < attempts) {
        await sleep(delayBefore(attempt + 1, res.headers.get('retry-after'), maxDelay, Date.now()));
      }
    }
    const message = `${last?.message ?? what} after ${attempts} attempts`;
    throw new SourceError(last?.status ?? 0, message, last?.errorType ?? null);
  }

  return {
    async organizations(cursor, limit) {
      const body = await call('POST', '/v1/b2b/organizations/search', { ...page(cursor), limit });
      return pageOf<Organization>(body, 'organizations');
    },
    async members(organizationId, cursor, limit) {
      const body = await call('POST', '/v1/b2b/organizations/members/search', {
        organization_ids: [organizationId],
        ...page(cursor),
        limit,
      });
      return pageOf<Member>(body, 'members');
    },
    async ssoConnections(organizationId) {
      const body = await call('GET', `/v1/b2b/sso/${encodeURIComponent(organizationId)}`);
      const other = listOf<{ connection_id?: unknown }>(body, 'external_connections').map((c) => ({
        kind: 'external',
        id: typeof c.connection_id === 'string' ? c.connection_id : '?',
      }));
      return {
        saml: listOf<SamlConnection>(body, 'saml_connections'),
        oidc: listOf<OidcConnection>(body, 'oidc_connections'),
        other,
      };
    },
    async rbacPolicy() {
      const body = await call('GET', '/v1/b2b/rbac/policy');
      const policy = body.policy as RbacPolicy | undefined;
      if (!policy || !Array.isArray(policy.roles) || !Array.isArray(policy.resources)) {
        throw new SourceError(200, 'GET /v1/b2b/rbac/policy: the answer has no policy');
      }
      return { roles: policy.roles, resources: policy.resources };
    },
  };
}

/** The `error_type` and message of a flat error body, when it is one. */
function reason(text: string): { type: string; message: string } | null {
  try {
    const body = JSON.parse(text) as { error_type?: unknown; error_message?: unknown };
    if (typeof body.error_type === 'string') {
      const message = typeof body.error_message === 'string' ? body.error_message : '';
      return { type: body.error_type.slice(0, 100), message: message.slice(0, 300) };
    }
  } catch {
    // Not JSON: the status says enough.
  }
  return null;
}

function listOf<T>(body: Record<string, unknown>, field: string): T[] {
  const value = body[field];
  return Array.isArray(value) ? (value as T[]) : [];
}

/** The cursor field of a request: none on the first page. */
const page = (cursor: string | null) => (cursor === null ? {} : { cursor });

function pageOf<T>(body: Record<string, unknown>, field: string): Page<T> {
  const meta = body.results_metadata as { next_cursor?: unknown } | undefined;
  const next = meta?.next_cursor;
  return {
    items: listOf<T>(body, field),
    nextCursor: typeof next === 'string' && next !== '' ? next : null,
  };
}
