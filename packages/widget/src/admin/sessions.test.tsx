// The sessions section: the organization's live sessions for a member who may end them, else
// the member's own, each ended with its own button; the current one is never offered.
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { ListedSession } from '@gatehouse/protocol';
import { apiError } from '@gatehouse/testing';
import { AdminSessions } from './portal.js';
import { ADMIN_PERMISSIONS, MEMBER_PERMISSIONS, renderAdmin } from '../test/render-admin.js';

afterEach(cleanup);

const listed = (id: string, email: string, current = false): ListedSession => ({
  member_session_id: id,
  member_id: `member-of-${id}`,
  email_address: email,
  authentication_factors: [],
  started_at: '2030-01-01T00:00:00Z',
  last_accessed_at: '2030-01-01T00:05:00Z',
  expires_at: '2030-01-01T01:00:00Z',
  ip_address: '203.0.113.7',
  user_agent: 'Mozilla/5.0 (X11; Linux x86_64) Chrome/130',
  current,
});
const ack = { request_id: 'r', status_code: 200 };
const ADMIN_WITH_SESSIONS = {
  ...ADMIN_PERMISSIONS,
  'stytch.member': { ...ADMIN_PERMISSIONS['stytch.member'], 'revoke-sessions': true },
};

describe('the sessions section', () => {
  it("lists the organization's sessions for an admin and ends one", async () => {
    const { admin } = renderAdmin((props) => <AdminSessions {...props} />, {
      permissions: ADMIN_WITH_SESSIONS,
      prepare(a) {
        a.answer('organization.sessions.list', async () => ({
          ...ack,
          member_sessions: [listed('s1', 'ada@acme.test', true), listed('s2', 'bob@acme.test')],
          results_metadata: { total: 2, next_cursor: null },
        }));
        a.answer('organization.sessions.revoke', async () => ({
          ...ack,
          member_id: 'member-of-s2',
          revoked_session_ids: ['s2'],
        }));
      },
    });
    expect(await screen.findByRole('heading', { name: 'Active sessions' })).toBeTruthy();
    const mine = await screen.findByRole('listitem', { name: 'ada@acme.test' });
    expect(within(mine).getByText('This session')).toBeTruthy();
    expect(within(mine).queryByRole('button')).toBeNull();
    const bob = screen.getByRole('listitem', { name: 'bob@acme.test' });
    expect(within(bob).getByText('From 203.0.113.7')).toBeTruthy();
    expect(within(bob).getByText('Mozilla/5.0 (X11; Linux x86_64) Chrome/130')).toBeTruthy();
    fireEvent.click(within(bob).getByRole('button', { name: /^End session of bob@acme.test/ }));
    await waitFor(() =>
      expect(screen.queryByRole('listitem', { name: 'bob@acme.test' })).toBeNull(),
    );
    expect(admin.callsTo('organization.sessions.revoke')).toEqual([{ member_session_id: 's2' }]);
    expect(screen.getAllByRole('status').map((s) => s.textContent)).toContain('Session ended');
  });

  it("says how each session signed in and ends all of another member's sessions", async () => {
    const factor = (type: string, delivery_method: string) => ({
      type,
      delivery_method,
      last_authenticated_at: '2030-01-01T00:00:00Z',
      sequence_order: 'PRIMARY' as const,
    });
    const { admin } = renderAdmin((props) => <AdminSessions {...props} />, {
      permissions: ADMIN_WITH_SESSIONS,
      prepare(a) {
        a.answer('organization.sessions.list', async () => ({
          ...ack,
          member_sessions: [
            { ...listed('s1', 'ada@acme.test'), member_id: 'member-test-ada' },
            {
              ...listed('s2', 'bob@acme.test'),
              member_id: 'member-bob',
              authentication_factors: [
                factor('password', 'knowledge'),
                factor('totp', 'authenticator_app'),
              ],
            },
            {
              ...listed('s3', 'bob@acme.test'),
              member_id: 'member-bob',
              authentication_factors: [factor('oauth', 'oauth_microsoft')],
            },
            listed('s4', 'cy@acme.test'),
          ],
          results_metadata: { total: 4, next_cursor: null },
        }));
        a.answer('organization.sessions.revoke', async () => ({
          ...ack,
          member_id: 'member-bob',
          revoked_session_ids: ['s2', 's3'],
        }));
      },
    });
    await screen.findByText('4 of 4 sessions');
    const [first, second] = screen.getAllByRole('listitem', { name: 'bob@acme.test' });
    expect(within(first!).getByText('Signed in with password, authenticator app')).toBeTruthy();
    expect(within(second!).getByText('Signed in with Microsoft')).toBeTruthy();
    // The signed-in member's own sessions end through 'Your account', not all at once here.
    const ada = screen.getByRole('listitem', { name: 'ada@acme.test' });
    expect(within(ada).queryByRole('button', { name: /^End all sessions/ })).toBeNull();
    fireEvent.click(
      within(first!).getByRole('button', { name: 'End all sessions of bob@acme.test' }),
    );
    await screen.findByText('2 of 2 sessions');
    expect(screen.queryByRole('listitem', { name: 'bob@acme.test' })).toBeNull();
    expect(screen.getByRole('listitem', { name: 'cy@acme.test' })).toBeTruthy();
    expect(admin.callsTo('organization.sessions.revoke')).toEqual([{ member_id: 'member-bob' }]);
    expect(screen.getAllByRole('status').map((s) => s.textContent)).toContain(
      'All sessions of bob@acme.test ended',
    );
  });

  it('shows a plain member their own sessions and ends all the others', async () => {
    const { admin } = renderAdmin((props) => <AdminSessions {...props} />, {
      roles: [],
      permissions: MEMBER_PERMISSIONS,
      prepare(a) {
        a.answer('self.sessions.list', async () => ({
          ...ack,
          member_sessions: [listed('s1', 'ada@acme.test', true), listed('s3', 'ada@acme.test')],
        }));
        a.answer('self.sessions.revoke', async () => ({
          ...ack,
          member_id: 'member-test-ada',
          revoked_session_ids: ['s3'],
        }));
      },
    });
    expect(await screen.findByRole('heading', { name: 'Your active sessions' })).toBeTruthy();
    await screen.findByText('2 of 2 sessions');
    fireEvent.click(screen.getByRole('button', { name: 'End all other sessions' }));
    await screen.findByText('1 of 1 sessions');
    expect(admin.callsTo('self.sessions.revoke')).toEqual([{ all_others: true }]);
    expect(admin.callsTo('organization.sessions.list')).toEqual([]);
  });

  it("shows the server's refusal in an alert", async () => {
    renderAdmin((props) => <AdminSessions {...props} />, {
      permissions: ADMIN_WITH_SESSIONS,
      prepare(a) {
        a.answer('organization.sessions.list', () =>
          Promise.reject(apiError('unauthorized_action', 'You may not list sessions.')),
        );
      },
    });
    expect((await screen.findByRole('alert')).textContent).toBe('You may not list sessions.');
  });
});
