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
