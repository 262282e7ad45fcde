// Resetting a member's MFA and removing their password from the members section: shown only for
// what the member has and only with the `stytch.member` `update.info.delete.*` actions, each
// behind a confirmation.
import { cleanup, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { Member } from '@gatehouse/protocol';
import { member, organization } from '@gatehouse/testing';
import { AdminMembers } from './portal.js';
import { MEMBER_PERMISSIONS, membersPage, renderAdmin } from '../test/render-admin.js';

afterEach(cleanup);

const cy = member({
  member_id: 'member-test-cy',
  email_address: 'cy@acme.test',
  mfa_phone_number: '+14155552671',
  mfa_phone_number_verified: true,
  totp_registration_id: 'totp-test-cy',
  member_password_id: 'member-password-test-cy',
});
const dee = member({ member_id: 'member-test-dee', email_address: 'dee@acme.test' });

const answered = (m: Member) => ({
  request_id: 'r',
  status_code: 200 as const,
  member_id: m.member_id,
  member: m,
  organization: organization(),
});

function renderMembers(options: Parameters<typeof renderAdmin>[1] = {}) {
  return renderAdmin((props) => <AdminMembers {...props} />, {
    ...options,
    prepare(admin, client) {
      admin.answer('organization.members.list', async () => membersPage([cy, dee], 2));
      options.prepare?.(admin, client);
    },
  });
}

const row = (email: string) => screen.getByRole('listitem', { name: email });

describe("resetting a member's MFA and password", () => {
  it('removes the phone number and the authenticator app after a confirmation', async () => {
    const { admin } = renderMembers();
    await screen.findByText('2 of 2 members');
    expect(within(row('dee@acme.test')).queryByRole('button', { name: 'Reset MFA' })).toBeNull();
    const withoutPhone = { ...cy, mfa_phone_number: '', mfa_phone_number_verified: false };
    admin.answer('organization.members.deleteMfaPhoneNumber', async () => answered(withoutPhone));
    admin.answer('organization.members.deleteTotp', async () =>
      answered({ ...withoutPhone, totp_registration_id: '' }),
    );
    fireEvent.click(within(row('cy@acme.test')).getByRole('button', { name: 'Reset MFA' }));
    expect(admin.callsTo('organization.members.deleteMfaPhoneNumber')).toEqual([]);
    fireEvent.click(within(row('cy@acme.test')).getByRole('button', { name: 'Confirm' }));
    expect(await screen.findByText('MFA of cy@acme.test reset')).toBeTruthy();
    expect(admin.callsTo('organization.members.deleteMfaPhoneNumber')).toEqual([cy.member_id]);
    expect(admin.callsTo('organization.members.deleteTotp')).toEqual([cy.member_id]);
    expect(within(row('cy@acme.test')).queryByRole('button', { name: 'Reset MFA' })).toBeNull();
  });

  it('removes the password by its id after a confirmation; cancelling removes nothing', async () => {
    const { admin } = renderMembers();
    await screen.findByText('2 of 2 members');
    expect(
      within(row('dee@acme.test')).queryByRole('button', { name: 'Remove password' }),
    ).toBeNull();
    const button = () =>
      within(row('cy@acme.test')).getByRole('button', { name: 'Remove password' });
    fireEvent.click(button());
    fireEvent.click(within(row('cy@acme.test')).getByRole('button', { name: 'Cancel' }));
    fireEvent.click(button());
    admin.answer('organization.members.deletePassword', async () =>
      answered({ ...cy, member_password_id: '' }),
    );
    fireEvent.click(within(row('cy@acme.test')).getByRole('button', { name: 'Confirm' }));
    expect(await screen.findByText('Password of cy@acme.test removed')).toBeTruthy();
    expect(admin.callsTo('organization.members.deletePassword')).toEqual([cy.member_password_id]);
  });

  it('shows neither action to a member who may only search', async () => {
    renderMembers({
      roles: [],
      permissions: { ...MEMBER_PERMISSIONS, 'stytch.member': { search: true } },
    });
    await screen.findByText('2 of 2 members');
    for (const name of ['Reset MFA', 'Remove password']) {
      expect(screen.queryByRole('button', { name })).toBeNull();
    }
  });
});
