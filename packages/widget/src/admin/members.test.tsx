// The members section: listing and searching, invitations, role changes, deactivation and
// reactivation, each through the admin client, with only the actions the member may take shown.
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { apiError, member } from '@gatehouse/testing';
import { AdminMembers } from './portal.js';
import { searchQuery } from './members-query.js';
import {
  MEMBER_PERMISSIONS,
  membersPage,
  renderAdmin,
  type RenderedAdmin,
} from '../test/render-admin.js';

afterEach(cleanup);

const ada = member();
const bob = member({
  member_id: 'member-test-bob',
  email_address: 'bob@acme.test',
  name: 'Bob',
  status: 'invited',
});
const cy = member({ member_id: 'member-test-cy', email_address: 'cy@acme.test', name: 'Cy' });

function renderMembers(options: Parameters<typeof renderAdmin>[1] = {}): RenderedAdmin {
  return renderAdmin((props) => <AdminMembers {...props} />, {
    ...options,
    prepare(admin, client) {
      admin.answer('organization.members.list', async () => membersPage([ada, bob, cy], 3));
      options.prepare?.(admin, client);
    },
  });
}

const row = (email: string) => screen.getByRole('listitem', { name: email });

describe('the member list', () => {
  it("shows each member's address, name, status and roles", async () => {
    renderMembers();
    expect(await screen.findByText('3 of 3 members')).toBeTruthy();
    expect(within(row('bob@acme.test')).getByText('Invited')).toBeTruthy();
    expect(within(row('ada@acme.test')).getByText('Active')).toBeTruthy();
    expect(within(row('ada@acme.test')).getByText('Ada')).toBeTruthy();
    expect(row('cy@acme.test').textContent).toContain('member');
  });

  it('searches by text, status and role with labelled controls', async () => {
    const { admin } = renderMembers();
    await screen.findByText('3 of 3 members');
    fireEvent.input(screen.getByLabelText('Search by email or name'), {
      target: { value: 'bo' },
    });
    fireEvent.change(screen.getByLabelText('Status'), { target: { value: 'invited' } });
    fireEvent.change(screen.getByLabelText('Role'), { target: { value: 'billing' } });
    admin.answer('organization.members.list', async () => membersPage([bob]));
    fireEvent.submit(screen.getByRole('search'));
    expect(await screen.findByText('1 of 1 members')).toBeTruthy();
    expect(admin.callsTo('organization.members.list').at(-1)).toEqual({
      limit: 20,
      query: {
        operator: 'AND',
        operands: [
          { filter_name: 'statuses', filter_value: ['invited'] },
          { filter_name: 'member_roles', filter_value: ['billing'] },
          { filter_name: 'member_email_fuzzy', filter_value: 'bo' },
        ],
      },
    });
    expect(screen.queryByRole('listitem', { name: 'ada@acme.test' })).toBeNull();
  });

  it('matches the text against the address or the name when nothing else narrows', () => {
    expect(searchQuery({ text: ' ada ', status: '', role: '' })).toEqual({
      operator: 'OR',
      operands: [
        { filter_name: 'member_email_fuzzy', filter_value: 'ada' },
        { filter_name: 'member_name_fuzzy', filter_value: 'ada' },
      ],
    });
    expect(searchQuery({ text: '', status: '', role: '' })).toBeUndefined();
  });

  it('loads the next page with the cursor and adds it to the list', async () => {
    const { admin } = renderMembers({
      prepare(a) {
        a.answer('organization.members.list', async (args) =>
          args?.cursor === '2' ? membersPage([cy], 3) : membersPage([ada, bob], 3, '2'),
        );
      },
    });
    fireEvent.click(await screen.findByRole('button', { name: 'Show more' }));
    expect(await screen.findByText('3 of 3 members')).toBeTruthy();
    expect(admin.callsTo('organization.members.list').at(-1)).toEqual({ limit: 20, cursor: '2' });
    expect(screen.queryByRole('button', { name: 'Show more' })).toBeNull();
  });

  it("shows the server's error in an alert", async () => {
    renderMembers({
      prepare(a) {
        a.answer('organization.members.list', () =>
          Promise.reject(apiError('unauthorized_action', 'You may not search members.')),
        );
      },
    });
    expect((await screen.findByRole('alert')).textContent).toBe('You may not search members.');
  });
});

describe('inviting', () => {
  it('invites an address with the chosen roles and adds the member to the list', async () => {
    const { admin } = renderMembers({ roles: ['admin', 'billing'] });
    await screen.findByText('3 of 3 members');
    const form = screen.getByRole('heading', { name: 'Invite a member' }).closest('form')!;
    fireEvent.input(within(form).getByLabelText('Email'), { target: { value: 'new@acme.test ' } });
    fireEvent.click(within(form).getByRole('checkbox', { name: 'billing' }));
    const invited = member({
      member_id: 'member-test-new',
      email_address: 'new@acme.test',
      status: 'invited',
    });
    admin.answer('magicLinks.email.invite', async () => ({
      request_id: 'r',
      status_code: 200,
      member_id: invited.member_id,
      member: invited,
      organization: (await import('@gatehouse/testing')).organization(),
    }));
    fireEvent.submit(form);
    await waitFor(() =>
      expect(screen.getAllByRole('status').map((s) => s.textContent)).toContain(
        'Invitation sent to new@acme.test',
      ),
    );
    expect(admin.callsTo('magicLinks.email.invite')).toEqual([
      { email_address: 'new@acme.test', roles: ['billing'] },
    ]);
    expect(row('new@acme.test')).toBeTruthy();
    expect(within(form).getByLabelText<HTMLInputElement>('Email').value).toBe('');
  });

  it('offers only the roles the inviter holds, and refuses a malformed address before any call', async () => {
    const { admin } = renderMembers({ roles: ['admin'] });
    await screen.findByText('3 of 3 members');
    const form = screen.getByRole('heading', { name: 'Invite a member' }).closest('form')!;
    expect(within(form).queryByRole('checkbox', { name: 'billing' })).toBeNull();
    fireEvent.input(within(form).getByLabelText('Email'), { target: { value: 'not-an-address' } });
    fireEvent.submit(form);
    expect(within(form).getByRole('alert').textContent).toBe('Invalid email address');
    expect(within(form).getByLabelText('Email').getAttribute('aria-invalid')).toBe('true');
    expect(admin.callsTo('magicLinks.email.invite')).toEqual([]);
  });
});

describe('changing roles, deactivating and reactivating', () => {
  it('saves the checked roles; roles the admin does not hold cannot be changed', async () => {
    const { admin } = renderMembers({ roles: ['admin'] });
    await screen.findByText('3 of 3 members');
    fireEvent.click(within(row('cy@acme.test')).getByRole('button', { name: 'Change roles' }));
    const adminBox = within(row('cy@acme.test')).getByRole('checkbox', { name: /^admin/ });
    expect(document.activeElement).toBe(adminBox);
    expect(screen.getByRole<HTMLInputElement>('checkbox', { name: /^billing/ }).disabled).toBe(
      true,
    );
    fireEvent.click(adminBox);
    const promoted = member({
      ...cy,
      roles: [
        ...cy.roles,
        { role_id: 'admin', sources: [{ type: 'direct_assignment', details: {} }] },
      ],
    });
    admin.answer('organization.members.update', async () => ({
      request_id: 'r',
      status_code: 200,
      member_id: cy.member_id,
      member: promoted,
      organization: (await import('@gatehouse/testing')).organization(),
    }));
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(row('cy@acme.test').textContent).toContain('member, admin'));
    expect(admin.callsTo('organization.members.update')).toEqual([
      { member_id: cy.member_id, roles: ['admin'], updated_at: cy.updated_at },
    ]);
    expect(screen.getAllByRole('status').map((s) => s.textContent)).toContain(
      'Roles of cy@acme.test saved',
    );
  });

  it('shows a refused role change in an alert and keeps the editor open', async () => {
    const { admin } = renderMembers();
    await screen.findByText('3 of 3 members');
    fireEvent.click(within(row('cy@acme.test')).getByRole('button', { name: 'Change roles' }));
    admin.answer('organization.members.update', () =>
      Promise.reject(apiError('unauthorized_action', 'Only an admin may give the admin role.')),
    );
    fireEvent.click(within(row('cy@acme.test')).getByRole('checkbox', { name: /^admin/ }));
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect((await within(row('cy@acme.test')).findByRole('alert')).textContent).toBe(
      'Only an admin may give the admin role.',
    );
    expect(screen.getByRole('button', { name: 'Save' })).toBeTruthy();
  });

  it('deactivates after a confirmation, then offers to reactivate', async () => {
    const { admin } = renderMembers();
    await screen.findByText('3 of 3 members');
    // Nobody deactivates themselves from here.
    expect(within(row('ada@acme.test')).queryByRole('button', { name: 'Deactivate' })).toBeNull();
    fireEvent.click(within(row('cy@acme.test')).getByRole('button', { name: 'Deactivate' }));
    expect(
      within(row('cy@acme.test')).getByText('Deactivate cy@acme.test? Their sessions end now.'),
    ).toBeTruthy();
    admin.answer('organization.members.delete', async () => ({
      request_id: 'r',
      status_code: 200,
      member_id: cy.member_id,
    }));
    fireEvent.click(within(row('cy@acme.test')).getByRole('button', { name: 'Confirm' }));
    expect(await within(row('cy@acme.test')).findByText('Deactivated')).toBeTruthy();
    expect(admin.callsTo('organization.members.delete')).toEqual([cy.member_id]);

    admin.answer('organization.members.reactivate', async () => ({
      request_id: 'r',
      status_code: 200,
      member_id: cy.member_id,
      member: cy,
      organization: (await import('@gatehouse/testing')).organization(),
    }));
    fireEvent.click(within(row('cy@acme.test')).getByRole('button', { name: 'Reactivate' }));
    expect(await within(row('cy@acme.test')).findByText('Active')).toBeTruthy();
    expect(admin.callsTo('organization.members.reactivate')).toEqual([cy.member_id]);
  });

  it('shows a member who may only search the list without any admin action', async () => {
    renderMembers({
      roles: [],
      permissions: { ...MEMBER_PERMISSIONS, 'stytch.member': { search: true } },
    });
    await screen.findByText('3 of 3 members');
    expect(screen.queryByRole('heading', { name: 'Invite a member' })).toBeNull();
    for (const name of [
      'Change roles',
      'Deactivate',
      'Reactivate',
      'Resend invitation',
      'Revoke invitation',
    ]) {
      expect(screen.queryByRole('button', { name })).toBeNull();
    }
  });

  it('resends and revokes a pending invitation', async () => {
    const { admin } = renderMembers();
    await screen.findByText('3 of 3 members');
    expect(
      within(row('cy@acme.test')).queryByRole('button', { name: 'Resend invitation' }),
    ).toBeNull();
    admin.answer('magicLinks.email.resendInvite', async () => ({
      request_id: 'r',
      status_code: 200,
      member_id: bob.member_id,
      member: bob,
      organization: (await import('@gatehouse/testing')).organization(),
    }));
    fireEvent.click(
      within(row('bob@acme.test')).getByRole('button', { name: 'Resend invitation' }),
    );
    await waitFor(() =>
      expect(screen.getAllByRole('status').map((s) => s.textContent)).toContain(
        'Invitation sent again to bob@acme.test',
      ),
    );
    admin.answer('magicLinks.email.revokeInvite', async () => ({
      request_id: 'r',
      status_code: 200,
      member_id: bob.member_id,
    }));
    fireEvent.click(
      within(row('bob@acme.test')).getByRole('button', { name: 'Revoke invitation' }),
    );
    expect(await within(row('bob@acme.test')).findByText('Deactivated')).toBeTruthy();
    expect(admin.callsTo('magicLinks.email.resendInvite')).toEqual([{ member_id: bob.member_id }]);
    expect(admin.callsTo('magicLinks.email.revokeInvite')).toEqual([{ member_id: bob.member_id }]);
  });
});
