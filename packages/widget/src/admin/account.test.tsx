// The account section: any member sets up and removes their authenticator app and phone, gets
// new backup codes (shown once), and changes their password with the current one.
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { Member, Organization } from '@gatehouse/protocol';
import {
  apiError,
  fullSession,
  member,
  organization,
  strengthVerdict,
  type FakeAdminClient,
  type FakeClient,
} from '@gatehouse/testing';
import { AdminAccount, AdminPortal } from './portal.js';
import { ADMIN_PERMISSIONS, MEMBER_PERMISSIONS, renderAdmin } from '../test/render-admin.js';

afterEach(cleanup);

const ack = { request_id: 'r', status_code: 200 };
const CODES = Array.from({ length: 10 }, (_, i) => `code-${i}-abcd`);
const IDS = { organization_id: member().organization_id, member_id: member().member_id };

/** Answers `self.get` with the member as each call finds them: the first, then the next, … */
function selfAnswers(admin: FakeAdminClient, ...states: Member[]) {
  let call = 0;
  admin.answer('self.get', async () => {
    const found = states[Math.min(call, states.length - 1)]!;
    call += 1;
    return { ...ack, member_id: found.member_id, member: found, organization: organization() };
  });
}

function renderAccount(
  states: Member[],
  prepare?: (admin: FakeAdminClient, client: FakeClient) => void,
  org?: Organization,
) {
  return renderAdmin((props) => <AdminAccount {...props} />, {
    roles: [],
    permissions: MEMBER_PERMISSIONS,
    prepare(admin, client) {
      selfAnswers(admin, ...states);
      if (org) {
        admin.answer('self.get', async () => ({
          ...ack,
          member_id: states[0]!.member_id,
          member: states[0]!,
          organization: org,
        }));
      }
      prepare?.(admin, client);
    },
  });
}

const card = (name: string) => screen.getByRole('group', { name });
/** Waits until the member has loaded and the section's parts show. */
const loaded = () => screen.findByText('How you sign in as ada@acme.test.');

describe('the account section', () => {
  it('sets up an authenticator app from its QR code and key, then shows the backup codes once', async () => {
    const { client } = renderAccount(
      [member(), member({ totp_registration_id: 'totp-1', mfa_enrolled: true })],
      (_, c) => {
        c.answer('totp.create', async () => ({
          ...ack,
          totp_id: 'totp-1',
          secret: 'JBSWY3DPEHPK3PXP',
          qr_code: 'data:image/png;base64,AAAA',
          recovery_codes: CODES,
          member_id: IDS.member_id,
          organization_id: IDS.organization_id,
        }));
        c.answer('totp.authenticate', async () => fullSession());
      },
    );
    await loaded();
    const totp = card('Authenticator app');
    expect(within(totp).getByText('Not set up')).toBeTruthy();
    fireEvent.click(within(totp).getByRole('button', { name: 'Set up authenticator app' }));
    const qr = await within(totp).findByRole('img', { name: 'QR code for your authenticator app' });
    expect(qr.getAttribute('src')).toBe('data:image/png;base64,AAAA');
    expect(within(totp).getByLabelText<HTMLInputElement>('Key to enter by hand').value).toBe(
      'JBSWY3DPEHPK3PXP',
    );
    fireEvent.input(within(totp).getByLabelText('Six-digit code'), {
      target: { value: '123456' },
    });
    fireEvent.click(within(totp).getByRole('button', { name: 'Verify' }));
    const codes = await within(totp).findByRole('group', { name: 'Your backup codes' });
    expect(
      within(codes)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(CODES);
    expect(client.callsTo('totp.create')).toEqual([IDS]);
    expect(client.callsTo('totp.authenticate')).toEqual([{ ...IDS, code: '123456' }]);
    expect(within(totp).getByText('Set up')).toBeTruthy();
    expect(screen.getAllByRole('status').map((s) => s.textContent)).toContain(
      'Authenticator app set up',
    );
    fireEvent.click(within(codes).getByRole('button', { name: 'I have saved them' }));
    expect(within(totp).queryByRole('group', { name: 'Your backup codes' })).toBeNull();
  });

  it('shows a wrong code as an alert and keeps the setup open', async () => {
    renderAccount([member()], (_, c) => {
      c.answer('totp.create', async () => ({
        ...ack,
        totp_id: 'totp-1',
        secret: 'S',
        qr_code: 'data:image/png;base64,AAAA',
        recovery_codes: CODES,
        member_id: IDS.member_id,
        organization_id: IDS.organization_id,
      }));
      c.answer('totp.authenticate', () =>
        Promise.reject(apiError('unauthorized_credentials', 'The code is wrong.')),
      );
    });
    await loaded();
    const totp = card('Authenticator app');
    fireEvent.click(within(totp).getByRole('button', { name: 'Set up authenticator app' }));
    fireEvent.input(await within(totp).findByLabelText('Six-digit code'), {
      target: { value: '000000' },
    });
    fireEvent.click(within(totp).getByRole('button', { name: 'Verify' }));
    expect((await within(totp).findByRole('alert')).textContent).toBe('The code is wrong.');
    expect(within(totp).getByRole('img')).toBeTruthy();
  });

  it('removes the authenticator app after a confirmation', async () => {
    const enrolled = member({ totp_registration_id: 'totp-1', mfa_enrolled: true });
    const { admin } = renderAccount([enrolled], (a) => {
      a.answer('self.deleteTotp', async () => ({
        ...ack,
        member_id: IDS.member_id,
        member: member(),
        organization: organization(),
      }));
    });
    await loaded();
    const totp = card('Authenticator app');
    fireEvent.click(within(totp).getByRole('button', { name: 'Remove authenticator app' }));
    expect(within(totp).getByText(/Your backup codes stop working too/)).toBeTruthy();
    fireEvent.click(within(totp).getByRole('button', { name: 'Confirm' }));
    await waitFor(() => expect(within(totp).getByText('Not set up')).toBeTruthy());
    expect(admin.callsTo('self.deleteTotp')).toHaveLength(1);
    expect(screen.getAllByRole('status').map((s) => s.textContent)).toContain(
      'Authenticator app removed',
    );
  });

  it('gets new backup codes after a confirmation and shows them once', async () => {
    const enrolled = member({ totp_registration_id: 'totp-1', mfa_enrolled: true });
    const { client } = renderAccount([enrolled], (_, c) => {
      c.answer('recoveryCodes.rotate', async () => ({ ...ack, recovery_codes: CODES }));
    });
    await loaded();
    const totp = card('Authenticator app');
    fireEvent.click(within(totp).getByRole('button', { name: 'Get new backup codes' }));
    expect(client.callsTo('recoveryCodes.rotate')).toHaveLength(0);
    fireEvent.click(within(totp).getByRole('button', { name: 'Confirm' }));
    const codes = await within(totp).findByRole('group', { name: 'Your backup codes' });
    expect(within(codes).getAllByRole('listitem')).toHaveLength(10);
    expect(within(codes).getByRole('button', { name: 'Download' })).toBeTruthy();
    expect(client.callsTo('recoveryCodes.rotate')).toHaveLength(1);
  });

  it('adds a phone number with the code texted to it, then removes it', async () => {
    const phone = '+14155550100';
    const withPhone = member({ mfa_phone_number: phone, mfa_phone_number_verified: true });
    const { client, admin } = renderAccount([member(), withPhone], (a, c) => {
      c.answer('otps.sms.send', async () => ack);
      c.answer('otps.sms.authenticate', async () => fullSession());
      a.answer('self.deleteMfaPhoneNumber', async () => ({
        ...ack,
        member_id: IDS.member_id,
        member: member(),
        organization: organization(),
      }));
    });
    await loaded();
    const sms = card('Text message');
    fireEvent.input(within(sms).getByLabelText('Phone number with country code'), {
      target: { value: ` ${phone} ` },
    });
    fireEvent.click(within(sms).getByRole('button', { name: 'Send code' }));
    fireEvent.input(await within(sms).findByLabelText('Six-digit code'), {
      target: { value: '654321' },
    });
    fireEvent.click(within(sms).getByRole('button', { name: 'Verify' }));
    await within(sms).findByText(`Codes go to ${phone}`);
    expect(client.callsTo('otps.sms.send')).toEqual([{ ...IDS, mfa_phone_number: phone }]);
    expect(client.callsTo('otps.sms.authenticate')).toEqual([{ ...IDS, code: '654321' }]);
    fireEvent.click(within(sms).getByRole('button', { name: 'Remove phone number' }));
    fireEvent.click(within(sms).getByRole('button', { name: 'Confirm' }));
    await within(sms).findByText('No phone number');
    expect(admin.callsTo('self.deleteMfaPhoneNumber')).toHaveLength(1);
  });

  it('offers no method the organization does not allow', async () => {
    renderAccount(
      [member()],
      undefined,
      organization({ mfa_methods: 'RESTRICTED', allowed_mfa_methods: ['totp'] }),
    );
    await loaded();
    const sms = card('Text message');
    expect(within(sms).getByText('Your organization does not allow this method.')).toBeTruthy();
    expect(within(sms).queryByRole('textbox')).toBeNull();
    expect(
      within(card('Authenticator app')).getByRole('button', { name: 'Set up authenticator app' }),
    ).toBeTruthy();
  });

  it('changes the password with the current one once the new one is strong enough', async () => {
    const { client } = renderAccount([member({ member_password_id: 'pw-1' })], (_, c) => {
      c.answer('passwords.strengthCheck', async ({ password }) =>
        strengthVerdict({
          valid_password: password.length > 12,
          score: password.length > 12 ? 4 : 1,
        }),
      );
      c.answer('passwords.resetBySession', async () => fullSession());
    });
    await loaded();
    const pw = card('Password');
    const submit = within(pw).getByRole('button', { name: 'Change password' });
    fireEvent.input(within(pw).getByLabelText('Current password'), {
      target: { value: 'old secret' },
    });
    fireEvent.input(within(pw).getByLabelText('New password'), { target: { value: 'short' } });
    await waitFor(() => expect(client.callsTo('passwords.strengthCheck')).toHaveLength(1));
    expect((submit as HTMLButtonElement).disabled).toBe(true);
    fireEvent.input(within(pw).getByLabelText('New password'), {
      target: { value: 'a much longer passphrase' },
    });
    await waitFor(() => expect((submit as HTMLButtonElement).disabled).toBe(false));
    expect(within(pw).getByRole('meter', { name: /strength/i })).toBeTruthy();
    fireEvent.click(submit);
    await waitFor(() =>
      expect(client.callsTo('passwords.resetBySession')).toEqual([
        { password: 'a much longer passphrase', existing_password: 'old secret' },
      ]),
    );
    expect(await screen.findByText('Password saved. Your other sessions have ended.')).toBeTruthy();
    expect(within(pw).getByLabelText<HTMLInputElement>('Current password').value).toBe('');
  });

  it("shows the server's words when the current password is wrong", async () => {
    renderAccount([member({ member_password_id: 'pw-1' })], (_, c) => {
      c.answer('passwords.strengthCheck', async () =>
        strengthVerdict({ valid_password: true, score: 4 }),
      );
      c.answer('passwords.resetBySession', () =>
        Promise.reject(apiError('existing_password_mismatch', 'The current password is wrong.')),
      );
    });
    await loaded();
    const pw = card('Password');
    fireEvent.input(within(pw).getByLabelText('Current password'), { target: { value: 'x' } });
    fireEvent.input(within(pw).getByLabelText('New password'), {
      target: { value: 'a much longer passphrase' },
    });
    const submit = within(pw).getByRole('button', { name: 'Change password' });
    await waitFor(() => expect((submit as HTMLButtonElement).disabled).toBe(false));
    fireEvent.click(submit);
    expect((await within(pw).findByRole('alert')).textContent).toBe(
      'The current password is wrong.',
    );
  });

  it('lets a member without a password set one, with no current password asked', async () => {
    const { client } = renderAccount([member()], (_, c) => {
      c.answer('passwords.strengthCheck', async () =>
        strengthVerdict({ valid_password: true, score: 4 }),
      );
      c.answer('passwords.resetBySession', async () => fullSession());
    });
    await loaded();
    const pw = card('Password');
    expect(within(pw).queryByLabelText('Current password')).toBeNull();
    fireEvent.input(within(pw).getByLabelText('New password'), {
      target: { value: 'a much longer passphrase' },
    });
    const submit = within(pw).getByRole('button', { name: 'Set password' });
    await waitFor(() => expect((submit as HTMLButtonElement).disabled).toBe(false));
    fireEvent.click(submit);
    await waitFor(() =>
      expect(client.callsTo('passwords.resetBySession')).toEqual([
        { password: 'a much longer passphrase' },
      ]),
    );
  });

  it('is offered in the portal to a member without any admin right', async () => {
    renderAdmin((props) => <AdminPortal {...props} />, {
      roles: [],
      permissions: MEMBER_PERMISSIONS,
      prepare(admin) {
        selfAnswers(admin, member());
        admin.answer('organization.get', async () => ({ ...ack, organization: organization() }));
        admin.answer('organization.members.list', async () => ({
          ...ack,
          members: [],
          results_metadata: { total: 0, next_cursor: null },
        }));
      },
    });
    const nav = await screen.findByRole('navigation', { name: 'Sections' });
    fireEvent.click(within(nav).getByRole('button', { name: 'Your account' }));
    expect(await screen.findByRole('heading', { name: 'Your account' })).toBeTruthy();
  });

  it("lists an admin's own sessions in their account and ends all the others", async () => {
    const own = (id: string, current: boolean) => ({
      member_session_id: id,
      member_id: IDS.member_id,
      email_address: 'ada@acme.test',
      authentication_factors: [],
      started_at: '2030-01-01T00:00:00Z',
      last_accessed_at: '2030-01-01T00:05:00Z',
      expires_at: '2030-01-01T01:00:00Z',
      ip_address: '203.0.113.7',
      user_agent: current ? 'Firefox/140' : 'Safari/18',
      current,
    });
    const { admin } = renderAdmin((props) => <AdminAccount {...props} />, {
      permissions: {
        ...ADMIN_PERMISSIONS,
        'stytch.member': { ...ADMIN_PERMISSIONS['stytch.member'], 'revoke-sessions': true },
      },
      prepare(a) {
        selfAnswers(a, member());
        a.answer('self.sessions.list', async () => ({
          ...ack,
          member_sessions: [own('s1', true), own('s2', false)],
        }));
        a.answer('self.sessions.revoke', async () => ({
          ...ack,
          member_id: IDS.member_id,
          revoked_session_ids: ['s2'],
        }));
      },
    });
    await loaded();
    const part = (await screen.findByRole('heading', { name: 'Your active sessions' })).closest(
      'section',
    )!;
    expect(part.tagName).toBe('SECTION');
    await within(part).findByText('Safari/18');
    fireEvent.click(within(part).getByRole('button', { name: 'End all other sessions' }));
    await within(part).findByText('1 of 1 sessions');
    expect(within(part).queryByText('Safari/18')).toBeNull();
    expect(admin.callsTo('self.sessions.revoke')).toEqual([{ all_others: true }]);
    expect(admin.callsTo('organization.sessions.list')).toEqual([]);
  });

  it("leaves a plain member's sessions to the Sessions section", async () => {
    const { admin } = renderAccount([member()]);
    await loaded();
    expect(screen.queryByRole('heading', { name: 'Your active sessions' })).toBeNull();
    expect(admin.callsTo('self.sessions.list')).toEqual([]);
  });
});
