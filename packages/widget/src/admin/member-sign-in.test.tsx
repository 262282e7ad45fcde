// Each member's last sign-in in the members section, read from the member object
// (`last_sign_in_at`): a date and time in the browser's format, or 'never', in the portal's language.
import { cleanup, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { member } from '@gatehouse/testing';
import { adminEs } from './admin-es.js';
import { adminFormat } from './admin-messages.js';
import { lastSignInText } from './member-sign-in.js';
import { AdminMembers } from './portal.js';
import { membersPage, renderAdmin } from '../test/render-admin.js';

afterEach(cleanup);

const AT = '2030-03-04T05:06:00Z';
const shown = new Date(AT).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });

describe('lastSignInText', () => {
  it('says never for a member who has not signed in', () => {
    expect(lastSignInText(member(), adminFormat())).toBe('Last sign-in: never');
    expect(lastSignInText(member(), adminFormat({}, adminEs))).toBe(
      'Último inicio de sesión: nunca',
    );
  });

  it('gives the date and time of the last sign-in', () => {
    const signedIn = member({ last_sign_in_at: AT });
    expect(shown).toMatch(/2030/);
    expect(lastSignInText(signedIn, adminFormat())).toBe(`Last sign-in: ${shown}`);
    expect(lastSignInText(signedIn, adminFormat({}, adminEs))).toBe(
      `Último inicio de sesión: ${shown}`,
    );
  });
});

describe('the members section', () => {
  it("shows each member's last sign-in in their row, deactivated members too", async () => {
    const bob = member({
      member_id: 'member-bob',
      email_address: 'bob@acme.test',
      last_sign_in_at: AT,
    });
    const eve = member({
      member_id: 'member-eve',
      email_address: 'eve@acme.test',
      status: 'deleted',
      last_sign_in_at: AT,
    });
    renderAdmin((props) => <AdminMembers {...props} />, {
      prepare(admin) {
        admin.answer('organization.members.list', async () => membersPage([member(), bob, eve]));
      },
    });
    const row = await screen.findByRole('listitem', { name: 'bob@acme.test' });
    expect(within(row).getByText(`Last sign-in: ${shown}`)).toBeTruthy();
    const ada = screen.getByRole('listitem', { name: 'ada@acme.test' });
    expect(within(ada).getByText('Last sign-in: never')).toBeTruthy();
    const gone = screen.getByRole('listitem', { name: 'eve@acme.test' });
    expect(within(gone).getByText(`Last sign-in: ${shown}`)).toBeTruthy();
  });
});
