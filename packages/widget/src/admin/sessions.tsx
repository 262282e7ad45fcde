/**
 * The sessions section: the organization's live sessions for members who may end them (`stytch.member`
 * `revoke-sessions`), otherwise the member's own, each with when and from which browser it began.
 */
import { useCallback, useEffect, useId, useState } from 'react';
import type { AuthenticationFactor, ListedSession } from '@gatehouse/protocol';
import { Button } from '../parts/button.js';
import { FormError } from '../parts/form-error.js';
import { Spinner } from '../parts/spinner.js';
import { useAdmin } from './admin-context.js';
import type { AdminFormat, AdminMessageKey } from './admin-messages.js';
import { PAGE_SIZE } from './members-query.js';
import { Notice, useNotice } from './notice.js';
import { useAction } from './use-action.js';

/** A moment as the member's browser writes dates and times. */
const when = (iso: string) => new Date(iso).toLocaleString();

/** The ways a session's factors were proven, each once, in the portal's words. */
function methodsOf(factors: readonly AuthenticationFactor[], format: AdminFormat): string {
  const keys = new Set<AdminMessageKey>();
  for (const factor of factors) {
    if (factor.type === 'magic_link') keys.add('sessions.method.email');
    else if (factor.type === 'password') keys.add('members.method.password');
    else if (factor.type === 'sso') keys.add('members.method.sso');
    else if (factor.type === 'oauth') {
      const microsoft = factor.delivery_method === 'oauth_microsoft';
      keys.add(microsoft ? 'members.method.microsoft' : 'members.method.google');
    } else if (factor.type === 'otp') keys.add('members.method.sms');
    else if (factor.type === 'totp') keys.add('members.method.totp');
    else if (factor.type === 'recovery_code') keys.add('sessions.method.recovery');
  }
  return [...keys].map((key) => format(key)).join(', ');
}

/**
 * The sessions section, or with `own` the member's own sessions whatever their rights, as a part
 * of their account (under a heading one level down).
 */
export function SessionsSection({ own = false }: { own?: boolean }) {
  const { admin, format, rights } = useAdmin();
  const id = useId();
  const whole = rights.revokeSessions && !own;
  const Heading = own ? 'h3' : 'h2';
  const [sessions, setSessions] = useState<ListedSession[] | null>(null);
  const [total, setTotal] = useState(0);
  const [cursor, setCursor] = useState<string | null>(null);
  const notice = useNotice();

  const load = useAction(format, async (after: string | null) => {
    if (!whole) {
      const own = await admin.self.sessions.list();
      setSessions(own.member_sessions);
      setTotal(own.member_sessions.length);
      return;
    }
    const page = await admin.organization.sessions.list({
      limit: PAGE_SIZE,
      ...(after ? { cursor: after } : {}),
    });
    setSessions((shown) =>
      after && shown ? [...shown, ...page.member_sessions] : page.member_sessions,
    );
    setTotal(page.results_metadata.total);
    setCursor(page.results_metadata.next_cursor);
  });
  const { run } = load;
  useEffect(() => {
    void run(null);
  }, [run]);

  const ended = useCallback(
    (ids: readonly string[], text: string) => {
      setSessions((shown) => shown?.filter((s) => !ids.includes(s.member_session_id)) ?? null);
      setTotal((n) => Math.max(0, n - ids.length));
      notice.show(text);
    },
    [notice],
  );
  const endOthers = useAction(format, async () => {
    const answer = await admin.self.sessions.revoke({ all_others: true });
    ended(answer.revoked_session_ids, format('sessions.othersEnded'));
  });
  const others = (sessions ?? []).filter((s) => !s.current);

  return (
    <section className="gh-admin-section" aria-labelledby={`${id}-heading`}>
      <Heading id={`${id}-heading`} className={own ? 'gh-admin-subheading' : 'gh-admin-heading'}>
        {format(whole ? 'sessions.heading' : 'sessions.ownHeading')}
      </Heading>
      <Notice notice={notice} />
      <FormError id={`${id}-error`} message={load.error ?? endOthers.error} />
      {!sessions ? (
        !load.error && <Spinner />
      ) : (
        <>
          <p className="gh-text-secondary gh-admin-count" aria-live="polite">
            {sessions.length === 0
              ? format('sessions.empty')
              : format('sessions.count', { shown: String(sessions.length), total: String(total) })}
          </p>
          {!whole && others.length > 0 && (
            <div className="gh-admin-actions">
              <Button
                variant="secondary"
                loading={endOthers.busy}
                onClick={() => void endOthers.run()}
              >
                {format('sessions.endOthers')}
              </Button>
            </div>
          )}
          {sessions.length > 0 && (
            <ul className="gh-admin-list">
              {sessions.map((session) => (
                <SessionRow
                  key={session.member_session_id}
                  session={session}
                  own={!whole}
                  onEnded={(ids, allOf) =>
                    ended(
                      ids,
                      allOf
                        ? format('sessions.allEnded', { email: allOf })
                        : format('sessions.ended'),
                    )
                  }
                />
              ))}
            </ul>
          )}
          {cursor && (
            <Button variant="secondary" loading={load.busy} onClick={() => void run(cursor)}>
              {format('members.more')}
            </Button>
          )}
        </>
      )}
    </section>
  );
}

function SessionRow({
  session,
  own,
  onEnded,
}: {
  session: ListedSession;
  /** Listed from the member's own sessions (ended through their own account). */
  own: boolean;
  /** The sessions ended; with the member's address when all of theirs were. */
  onEnded: (ids: readonly string[], allOf?: string) => void;
}) {
  const { admin, format, session: signedIn } = useAdmin();
  const id = useId();
  const endAll = useAction(format, async () => {
    const answer = await admin.organization.sessions.revoke({ member_id: session.member_id });
    onEnded(answer.revoked_session_ids, session.email_address);
  });
  const end = useAction(format, async () => {
    const args = { member_session_id: session.member_session_id };
    const answer = own
      ? await admin.self.sessions.revoke(args)
      : await admin.organization.sessions.revoke(args);
    onEnded(
      answer.revoked_session_ids.length ? answer.revoked_session_ids : [args.member_session_id],
    );
  });
  const started = when(session.started_at);
  const methods = methodsOf(session.authentication_factors, format);
  // Ending all of one's own would end this session too: 'End all other sessions' is for that.
  const othersMember = !own && session.member_id !== signedIn.member.member_id;
  return (
    <li className="gh-admin-row" aria-labelledby={`${id}-who`}>
      <div className="gh-admin-row-main">
        <span id={`${id}-who`} className="gh-admin-email">
          {session.email_address}
        </span>
        {session.current && <span className="gh-admin-badge">{format('sessions.current')}</span>}
        {methods && (
          <span className="gh-text-secondary">{format('sessions.method', { methods })}</span>
        )}
        <span className="gh-text-secondary">{format('sessions.started', { time: started })}</span>
        <span className="gh-text-secondary">
          {format('sessions.lastUsed', { time: when(session.last_accessed_at) })}
        </span>
        {session.ip_address && (
          <span className="gh-text-secondary">
            {format('sessions.from', { ip: session.ip_address })}
          </span>
        )}
        <span className="gh-text-secondary gh-admin-agent">
          {session.user_agent ?? format('sessions.unknownBrowser')}
        </span>
      </div>
      {!session.current && (
        <div className="gh-admin-actions">
          <Button
            variant="secondary"
            loading={end.busy}
            aria-label={format('sessions.endFor', { email: session.email_address, time: started })}
            onClick={() => void end.run()}
          >
            {format('sessions.end')}
          </Button>
          {othersMember && (
            <Button variant="secondary" loading={endAll.busy} onClick={() => void endAll.run()}>
              {format('sessions.endAllOf', { email: session.email_address })}
            </Button>
          )}
        </div>
      )}
      <FormError id={`${id}-error`} message={end.error ?? endAll.error} />
    </li>
  );
}
