/**
 * "Test connection": a test sign-in at the IdP in a popup, then the report of each check
 * (docs/widget.md §15). The popup is opened on the click itself (so no blocker stops it) and sent
 * to the IdP once the server has the test; the report is polled until the IdP has answered.
 */
import { useEffect, useId, useRef, useState } from 'react';
import type { SsoConnectionTest, SsoTestCheck } from '@gatehouse/protocol';
import { Button } from '../parts/button.js';
import { FormError } from '../parts/form-error.js';
import { useAdmin } from './admin-context.js';
import type { AdminFormat, AdminMessageKey } from './admin-messages.js';
import { errorMessage } from './use-action.js';

/** How often the report is asked for while the IdP has not answered. */
const POLL_MS = 1_000;

type Phase =
  | { kind: 'idle' }
  | { kind: 'waiting'; test: SsoConnectionTest; idpUrl: string; blocked: boolean }
  | { kind: 'done'; test: SsoConnectionTest };

export function SsoTest({
  connectionId,
  kind = 'saml',
  connectionRoles = [],
  onPassed,
}: {
  connectionId: string;
  kind?: 'saml' | 'oidc';
  /** The roles the connection gives everyone who signs in through it (SAML). */
  connectionRoles?: readonly string[];
  /** Called when a test passes. */
  onPassed?: () => void;
}) {
  const { admin, format } = useAdmin();
  const id = useId();
  const [phase, setPhase] = useState<Phase>({ kind: 'idle' });
  const [error, setError] = useState<string | null>(null);
  const popup = useRef<Window | null>(null);
  const report = useRef<HTMLDivElement>(null);

  const start = async () => {
    setError(null);
    // Opened now, within the click, and pointed at the IdP once the test exists.
    popup.current = window.open(
      '',
      `gatehouse-sso-test-${connectionId}`,
      'popup,width=520,height=680',
    );
    try {
      const started = await admin.sso[kind].testConnection({ connection_id: connectionId });
      const blocked = popup.current === null;
      if (popup.current) popup.current.location.href = started.idp_url;
      setPhase({ kind: 'waiting', test: started.test, idpUrl: started.idp_url, blocked });
    } catch (e) {
      popup.current?.close();
      setError(errorMessage(format, e));
    }
  };

  const waiting = phase.kind === 'waiting' ? phase.test.test_id : null;
  useEffect(() => {
    if (waiting === null) return;
    let stopped = false;
    const poll = async () => {
      try {
        const { test } = await admin.sso[kind].getTest({
          connection_id: connectionId,
          test_id: waiting,
        });
        if (stopped) return;
        if (test.status === 'pending') {
          timer = setTimeout(() => void poll(), POLL_MS);
          return;
        }
        popup.current?.close();
        setPhase({ kind: 'done', test });
        if (test.status === 'passed') onPassed?.();
      } catch (e) {
        if (!stopped) {
          setError(errorMessage(format, e));
          setPhase({ kind: 'idle' });
        }
      }
    };
    let timer = setTimeout(() => void poll(), POLL_MS);
    return () => {
      stopped = true;
      clearTimeout(timer);
    };
  }, [admin, connectionId, format, kind, onPassed, waiting]);

  // The report takes the focus when it arrives, so a screen reader reads it next.
  useEffect(() => {
    if (phase.kind === 'done') report.current?.focus();
  }, [phase.kind]);

  const cancel = () => {
    popup.current?.close();
    setPhase({ kind: 'idle' });
  };

  return (
    <div className="gh-admin-form" aria-labelledby={`${id}-heading`} role="group">
      <h4 id={`${id}-heading`} className="gh-admin-subheading">
        {format('sso.test')}
      </h4>
      <p className="gh-text-secondary gh-admin-hint">{format('sso.testIntro')}</p>
      <p role="status" className="gh-admin-notice">
        {phase.kind === 'waiting' ? format('sso.testWaiting') : ''}
      </p>
      {phase.kind === 'waiting' ? (
        <div className="gh-admin-actions">
          {phase.blocked && (
            <a href={phase.idpUrl} target="_blank" rel="noopener noreferrer">
              {format('sso.testOpen')}
            </a>
          )}
          <Button variant="secondary" onClick={cancel}>
            {format('sso.testCancel')}
          </Button>
        </div>
      ) : (
        <Button variant="secondary" onClick={() => void start()}>
          {format(phase.kind === 'done' ? 'sso.testAgain' : 'sso.testStart')}
        </Button>
      )}
      <FormError id={`${id}-error`} message={error} />
      {phase.kind === 'done' && (
        <div
          ref={report}
          tabIndex={-1}
          className="gh-admin-report"
          aria-labelledby={`${id}-result`}
        >
          <TestReport
            test={phase.test}
            connectionRoles={connectionRoles}
            headingId={`${id}-result`}
          />
        </div>
      )}
    </div>
  );
}

const STATUS_KEYS: Record<SsoTestCheck['status'], AdminMessageKey> = {
  passed: 'sso.check.passed',
  failed: 'sso.check.failed',
  warning: 'sso.check.warning',
  not_checked: 'sso.check.notChecked',
};

/**
 * What a passed test's sign-in would give, and from where: no role at all, only roles the
 * connection gives everyone (whatever the person's groups), or roles some of which came from
 * their groups.
 */
function rolesSentence(
  format: AdminFormat,
  roles: readonly string[],
  connectionRoles: readonly string[],
): string {
  if (roles.length === 0) return format('sso.testNoRoles');
  const values = { roles: roles.join(', ') };
  return roles.every((role) => connectionRoles.includes(role))
    ? format('sso.testConnectionRoles', values)
    : format('sso.testRoles', values);
}

/** The report of a finished test: the verdict, each check, and what the IdP sent. */
function TestReport({
  test,
  connectionRoles,
  headingId,
}: {
  test: SsoConnectionTest;
  connectionRoles: readonly string[];
  headingId: string;
}) {
  const { format } = useAdmin();
  const attributes = Object.entries(test.attributes);
  return (
    <>
      <p id={headingId} className="gh-admin-subheading">
        {format(test.status === 'passed' ? 'sso.testPassed' : 'sso.testFailed')}
      </p>
      <ul className="gh-admin-checks">
        {test.checks.map((c) => (
          <li key={c.check} className={`gh-admin-check-${c.status}`}>
            <strong>{format(`sso.check.${c.check}`)}</strong>
            {': '}
            <span className="gh-admin-badge">{format(STATUS_KEYS[c.status])}</span>{' '}
            <span className="gh-text-secondary">{c.message}</span>
          </li>
        ))}
      </ul>
      {attributes.length > 0 && (
        <table className="gh-admin-table">
          <caption>{format('sso.testAttributes')}</caption>
          <thead>
            <tr>
              <th scope="col">{format('sso.attributeName')}</th>
              <th scope="col">{format('sso.attributeValues')}</th>
            </tr>
          </thead>
          <tbody>
            {attributes.map(([name, values]) => (
              <tr key={name}>
                <th scope="row">{name}</th>
                <td>{values.join(', ')}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {test.status === 'passed' && (
        <p className="gh-text-secondary">{rolesSentence(format, test.roles, connectionRoles)}</p>
      )}
    </>
  );
}
