// Each member's sign-in methods in the members section, read from the member object: password,
// SSO and OAuth identities, verified phone and authenticator app; e-mail link when nothing else.
import { cleanup, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { member } from '@gatehouse/testing';
import { adminFormat } from './admin-messages.js';
import { memberMethods } from './member-methods.js';
import { AdminMembers } from './portal.js';
import { membersPage, renderAdmin } from '../test/render-admin.js';

afterEach(cleanup);

const format = adminFormat();

describe('memberMethods', () => {
  it('says email link only for a member with nothing else, and no second factor', () => {
    expect(memberMethods(member(), format)).toEqual({ primary: ['email link only'], second: [] });
  });

  it('lists password, SSO, Google and Microsoft, then the second factors', () => {
    const everything = member({
      member_password_id: 'pw-1',
      sso_registrations: [
        { connection_id: 'saml-1', external_id: 'ada', registration_id: 'reg-1' },
        { connection_id: 'oidc-1', external_id: 'ada', registration_id: 'reg-2' },
      ],
      oauth_registrations: [
        { provider_type: 'microsoft', provider_subject: 'x', member_oauth_registration_id: 'o1' },
        { provider_type: 'google', provider_subject: 'y', member_oauth_registration_id: 'o2' },
      ],
      mfa_phone_number: '+14155550100',
      mfa_phone_number_verified: true,
      totp_registration_id: 'totp-1',
    });
    expect(memberMethods(everything, format)).toEqual({
      primary: ['password', 'single sign-on', 'Google', 'Microsoft'],
      second: ['text message', 'authenticator app'],
    });
  });

  it('leaves out a phone number not verified yet', () => {
    const pending = member({ mfa_phone_number: '+14155550100', mfa_phone_number_verified: false });
    expect(memberMethods(pending, format).second).toEqual([]);
  });
});

describe('the members section', () => {
  it("shows each member's sign-in methods in their row", async () => {
    const bob = member({
      member_id: 'member-bob',
      email_address: 'bob@acme.test',
      member_password_id: 'pw-bob',
      totp_registration_id: 'totp-bob',
    });
    renderAdmin((props) => <AdminMembers {...props} />, {
      prepare(admin) {
        admin.answer('organization.members.list', async () => membersPage([member(), bob]));
      },
    });
    const row = await screen.findByRole('listitem', { name: 'bob@acme.test' });
    expect(
      within(row).getByText('Signs in with password · Second factor: authenticator app'),
    ).toBeTruthy();
    const ada = screen.getByRole('listitem', { name: 'ada@acme.test' });
    expect(within(ada).getByText('Signs in with email link only · No second factor')).toBeTruthy();
  });
});
