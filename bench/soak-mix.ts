/**
 * The soak's mix, one operation at a time, every answer checked. Of the operations: password
 * sign-ins 4 %, magic-link sign-ins 4 % (send, read the link from the dev inbox over HTTP,
 * authenticate), MFA sign-ins 4 % (a password sign-in answering an intermediate session, then
 * `POST /b2b/totp/authenticate` with the member's code), refreshes 10 %, checks of revoked
 * sessions 6 %, and session checks for the rest; once 200 sessions are live, a check gives way to
 * the revoke of a session no request is using, so the live sessions stay about 200.
 */
import { createHistogram, type RecordableHistogram } from 'node:perf_hooks';
import { basic, type BenchTarget } from './load.js';
import {
  totpCode,
  totpStep,
  type SoakMember,
  type SoakMembers,
  type SoakMfaMember,
} from './soak-seed.js';

/** The kinds of request the soak counts. */
export const KINDS = [
  'check',
  'refresh',
  'revoke',
  'revoked check',
  'sign-in',
  'link send',
  'inbox read',
  'link sign-in',
  'MFA password',
  'MFA TOTP',
] as const;
type Kind = (typeof KINDS)[number];
/** The kinds that check, refresh or revoke a session: no password hashed. */
const SESSION_KINDS: ReadonlySet<Kind> = new Set(['check', 'refresh', 'revoke', 'revoked check']);
/** The kinds that hash a password: password sign-ins and the first step of MFA sign-ins. */
const PASSWORD_KINDS: ReadonlySet<Kind> = new Set(['sign-in', 'MFA password']);

/** A window's latency histograms, in µs: every request, session requests, password hashes. */
export interface WindowLatency {
  all: RecordableHistogram;
  session: RecordableHistogram;
  password: RecordableHistogram;
}

const windowLatency = (): WindowLatency => ({
  all: createHistogram(),
  session: createHistogram(),
  password: createHistogram(),
});

/** Requests per operation of the mix on average: a link sign-in is 3, an MFA sign-in 2. */
export const REQUESTS_PER_OPERATION = 1 + 0.04 * 2 + 0.04 * 1;
const POOL_HIGH = 200;
/** Failures kept with their text; the rest are only counted. */
const KEPT = 20;

/** A live session of the load: its token, its member and how many requests use it right now. */
interface Live {
  token: string;
  memberId: string;
  inFlight: number;
}

const tokenOf = (text: string) => /"session_token":"([^"]+)"/.exec(text)?.[1];

/** The mix against one seeded server, with its counts, failures and latency. */
export class Mix {
  readonly counts = new Map<Kind, number>();
  /** Answers that were not the expected one (status or body). */
  wrongCount = 0;
  /** Requests that got no answer, and operations the load could not start. */
  errorCount = 0;
  readonly failures: string[] = [];
  requests = 0;
  operations = 0;
  /** Every request's latency since the last `takeWindow`, in microseconds. */
  private latency = windowLatency();
  private readonly live: Live[];
  private readonly revoked: string[] = [];
  private readonly members: SoakMembers;
  /** MFA members not in use, the longest unused first. */
  private readonly mfaQueue: SoakMfaMember[];
  private nextPassword = 0;
  private nextLink = 0;

  constructor(private readonly target: BenchTarget) {
    if (!target.soak) throw new Error('the bench server was started without SOAK_MEMBERS');
    this.members = target.soak;
    this.mfaQueue = [...target.soak.mfa].sort((a, b) => a.step - b.step);
    this.live = [{ token: target.sessionToken, memberId: target.memberId, inFlight: 0 }];
  }

  /** The latency histograms of the requests since the previous call, and fresh ones. */
  takeWindow(): WindowLatency {
    const window = this.latency;
    this.latency = windowLatency();
    return window;
  }

  /** Counts an error of the load itself (an operation it could not start). */
  error(reason: string): void {
    this.errorCount += 1;
    if (this.failures.length < KEPT) this.failures.push(`error: ${reason}`);
  }

  /** One operation of the mix. */
  next(): Promise<void> {
    this.operations += 1;
    const roll = Math.random();
    if (roll < 0.04) return this.signIn();
    if (roll < 0.08) return this.linkSignIn();
    if (roll < 0.12) return this.mfaSignIn();
    if (roll < 0.18) return this.revokedCheck();
    if (roll < 0.28) return this.useSession('refresh');
    if (this.live.length > POOL_HIGH) return this.revoke();
    return this.useSession('check');
  }

  private async call(
    kind: Kind,
    path: string,
    init: { token?: string; body?: unknown },
    expect: (status: number, text: string) => boolean,
  ): Promise<string | null> {
    const t0 = performance.now();
    let status = 0;
    let text: string;
    try {
      const response = await fetch(`${this.target.url}${path}`, {
        method: init.body === undefined ? 'GET' : 'POST',
        headers: {
          authorization: basic(this.target.publicToken, init.token ?? this.target.publicToken),
          'content-type': 'application/json',
        },
        ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
      });
      status = response.status;
      text = await response.text();
    } catch (error) {
      text = String(error);
    }
    const micros = Math.max(1, Math.round((performance.now() - t0) * 1000));
    this.latency.all.record(micros);
    if (SESSION_KINDS.has(kind)) this.latency.session.record(micros);
    if (PASSWORD_KINDS.has(kind)) this.latency.password.record(micros);
    this.requests += 1;
    this.counts.set(kind, (this.counts.get(kind) ?? 0) + 1);
    if (status !== 0 && expect(status, text)) return text;
    if (status === 0) this.errorCount += 1;
    else this.wrongCount += 1;
    if (this.failures.length < KEPT) this.failures.push(`${kind}: ${status} ${text.slice(0, 200)}`);
    return null;
  }

  private keep(text: string | null, memberId: string): void {
    const token = text === null ? undefined : tokenOf(text);
    if (token) this.live.push({ token, memberId, inFlight: 0 });
  }

  private async signIn() {
    const member = this.members.password[this.nextPassword++ % this.members.password.length]!;
    const text = await this.call(
      'sign-in',
      '/sdk/v1/b2b/passwords/authenticate',
      {
        body: {
          organization_id: this.target.organizationId,
          email_address: member.email,
          password: this.target.password,
          session_duration_minutes: 60,
        },
      },
      signedIn(member),
    );
    this.keep(text, member.memberId);
  }

  private async linkSignIn() {
    const member = this.members.links[this.nextLink++ % this.members.links.length]!;
    const sent = await this.call(
      'link send',
      '/sdk/v1/b2b/magic_links/email/login_or_signup',
      { body: { email_address: member.email, organization_id: this.target.organizationId } },
      (status) => status === 200,
    );
    if (sent === null) return;
    const token = await this.inboxToken(member.email);
    if (token === null) return;
    const text = await this.call(
      'link sign-in',
      '/sdk/v1/b2b/magic_links/authenticate',
      { body: { magic_links_token: token, session_duration_minutes: 60 } },
      signedIn(member),
    );
    this.keep(text, member.memberId);
  }

  /**
   * The token of the newest login link to an address, from the dev inbox's JSON (newest first):
   * the few newest messages, then the last thousand if other sends came in between.
   */
  private async inboxToken(email: string): Promise<string | null> {
    for (const limit of [8, 1000]) {
      let found: string | undefined;
      await this.call('inbox read', `/_dev/inbox/messages?limit=${limit}`, {}, (status, text) => {
        if (status !== 200) return false;
        const messages = JSON.parse(text) as { to: string; links: string[] }[];
        const link = messages.find((m) => m.to === email)?.links[0];
        found = link ? (new URL(link).searchParams.get('token') ?? undefined) : undefined;
        return found !== undefined || limit < 1000;
      });
      if (found !== undefined) return found;
    }
    return null;
  }

  private async mfaSignIn() {
    // A code works once per 30-s step: only a member whose last code is of an earlier step.
    const member = this.mfaQueue[0];
    if (!member || member.step >= totpStep(Date.now())) {
      this.error('no MFA member free in this 30-s step: raise SOAK_MFA_MEMBERS');
      return;
    }
    this.mfaQueue.shift();
    const organization_id = this.members.mfaOrganizationId;
    try {
      const pending = await this.call(
        'MFA password',
        '/sdk/v1/b2b/passwords/authenticate',
        {
          body: {
            organization_id,
            email_address: member.email,
            password: this.target.password,
            session_duration_minutes: 60,
          },
        },
        (status, text) =>
          status === 200 &&
          text.includes(`"member_id":"${member.memberId}"`) &&
          text.includes('"member_session":null') &&
          /"intermediate_session_token":"[^"]+"/.test(text),
      );
      const ist = pending && /"intermediate_session_token":"([^"]+)"/.exec(pending)?.[1];
      if (!ist) return;
      const now = Date.now();
      member.step = totpStep(now);
      const text = await this.call(
        'MFA TOTP',
        '/sdk/v1/b2b/totp/authenticate',
        {
          body: {
            organization_id,
            member_id: member.memberId,
            intermediate_session_token: ist,
            code: totpCode(member.secret, now),
            session_duration_minutes: 60,
          },
        },
        signedIn(member),
      );
      this.keep(text, member.memberId);
    } finally {
      this.mfaQueue.push(member);
    }
  }

  private async useSession(kind: 'check' | 'refresh') {
    const session = this.live[Math.floor(Math.random() * this.live.length)]!;
    session.inFlight += 1;
    try {
      const body = kind === 'refresh' ? { session_duration_minutes: 60 } : {};
      await this.call(
        kind,
        '/sdk/v1/b2b/sessions/authenticate',
        { token: session.token, body },
        (status, text) => status === 200 && text.includes(`"member_id":"${session.memberId}"`),
      );
    } finally {
      session.inFlight -= 1;
    }
  }

  private async revoke() {
    // Only a session nothing else is using, taken out of the pool before the request leaves, so
    // that no check can race its revocation. The seeded session (first) stays.
    const index = this.live.findIndex((s, i) => i > 0 && s.inFlight === 0);
    if (index < 0) return this.useSession('check');
    const [session] = this.live.splice(index, 1);
    await this.call(
      'revoke',
      '/sdk/v1/b2b/sessions/revoke',
      { token: session!.token, body: {} },
      (status) => status === 200,
    );
    this.revoked.push(session!.token);
    if (this.revoked.length > 100) this.revoked.shift();
  }

  private async revokedCheck() {
    const token = this.revoked[Math.floor(Math.random() * this.revoked.length)];
    if (token === undefined) return this.useSession('check');
    await this.call(
      'revoked check',
      '/sdk/v1/b2b/sessions/authenticate',
      { token, body: {} },
      (status, text) =>
        status >= 400 && status < 500 && text.includes('"error_type":"session_not_found"'),
    );
  }
}

/** A full session of this member. */
const signedIn = (member: SoakMember) => (status: number, text: string) =>
  status === 200 &&
  text.includes(`"member_id":"${member.memberId}"`) &&
  tokenOf(text) !== undefined;
