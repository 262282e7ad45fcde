// The screens of a password the organization requires be reset, and of a discovery reset link.
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { WidgetConfig } from '../config.js';
import {
  ACK,
  apiError,
  discovered,
  discoveryResult,
  member,
  organization,
  resetStarted,
  strengthVerdict,
} from '@gatehouse/testing';
import { renderWidget } from '../test/render-widget.js';

afterEach(() => {
  cleanup();
  localStorage.clear();
});

const RESET_URL = 'http://localhost:3000/reset';
const passwordsOnly: WidgetConfig = {
  products: ['passwords'],
  authFlowType: 'organization',
  passwordOptions: { resetPasswordRedirectURL: RESET_URL },
};
const EXPLANATION =
  'Your organization requires a new password before you can log in. Use the link we sent to set one.';

describe('a password the organization requires be reset', () => {
  it('shows the reset e-mail as sent, with the reason, once the right password is typed', async () => {
    const { client, successes } = renderWidget(passwordsOnly, {
      prepare: (c) => {
        c.answer('organization.getBySlug', async () => ({ ...ACK, organization: organization() }));
        c.answer('passwords.authenticate', () =>
          Promise.reject(apiError('reset_password', 'The password must be reset.', 400)),
        );
        c.answer('passwords.resetByEmailStart', async () => resetStarted());
      },
    });
    fireEvent.input(await screen.findByLabelText('Email'), {
      target: { value: 'ada@acme.test' },
    });
    fireEvent.input(screen.getByLabelText('Password'), { target: { value: 'right one' } });
    fireEvent.click(screen.getByRole('button', { name: 'Continue' }));
    expect(await screen.findByRole('heading', { name: 'Check your email!' })).toBeTruthy();
    expect(screen.getByText('An email was sent to ada@acme.test.')).toBeTruthy();
    expect(screen.getByText(EXPLANATION)).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Resend email' })).toBeTruthy();
    expect(client.callsTo('passwords.resetByEmailStart')).toMatchObject([
      { email_address: 'ada@acme.test', reset_password_redirect_url: RESET_URL },
    ]);
    expect(screen.queryByRole('alert')).toBeNull();
    expect(successes).toEqual([]);
  });

  it('does not give the reason after a forgotten-password reset', async () => {
    renderWidget(passwordsOnly, {
      prepare: (c) => {
        c.answer('organization.getBySlug', async () => ({ ...ACK, organization: organization() }));
        c.answer('organization.members.search', async () => ({
          ...ACK,
          member: member({ member_password_id: 'member-password-test-1' }),
        }));
        c.answer('passwords.resetByEmailStart', async () => resetStarted());
      },
    });
    fireEvent.click(
      await screen.findByRole('button', { name: 'Having trouble signing in? Get help' }),
    );
    await screen.findByRole('heading', { name: 'Check your email for help signing in!' });
    fireEvent.input(screen.getByLabelText('Email'), {
      target: { value: 'ada@acme.test' },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Continue' }));
    expect(await screen.findByRole('heading', { name: 'Check your email!' })).toBeTruthy();
    expect(screen.queryByText(EXPLANATION)).toBeNull();
  });
});

describe('a discovery reset link on the reset page', () => {
  it('sets the new password, then shows the organizations of the address', async () => {
    const { client, url } = renderWidget(
      { products: ['passwords'], authFlowType: 'passwordReset' },
      {
        pageUrl: `${RESET_URL}?stytch_token_type=discovery&token=dt`,
        prepare: (c) => {
          c.answer('passwords.strengthCheck', async () =>
            strengthVerdict({ valid_password: true, score: 4 }),
          );
          c.answer('passwords.discovery.resetByEmail', async () =>
            discoveryResult([
              discovered('active_member', { organization_id: 'o1', organization_name: 'Acme' }),
              discovered('invited_member', {
                organization_id: 'o2',
                organization_name: 'Globex',
              }),
            ]),
          );
        },
      },
    );
    await screen.findByRole('heading', { name: 'Set a new password' });
    fireEvent.input(screen.getByLabelText('New password'), {
      target: { value: 'a much stronger one' },
    });
    const submit = screen.getByRole<HTMLButtonElement>('button', { name: 'Continue' });
    // Continue is enabled by the strength check's verdict, 500 ms after the last key.
    await waitFor(() => expect(submit.disabled).toBe(false), { timeout: 3000 });
    fireEvent.click(submit);
    expect(
      await screen.findByRole('heading', { name: 'Select an organization to continue' }),
    ).toBeTruthy();
    const rows = screen.getAllByRole('listitem').map((li) => within(li).getByRole('button'));
    expect(rows.map((row) => row.textContent)).toEqual(['AAcme', 'GGlobexAccept Invite']);
    expect(client.callsTo('passwords.discovery.resetByEmail')).toEqual([
      { password_reset_token: 'dt', password: 'a much stronger one' },
    ]);
    expect(url.current).toBe(RESET_URL);
  });
});
