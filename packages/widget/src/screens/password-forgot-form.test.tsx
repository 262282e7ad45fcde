import { cleanup, fireEvent, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { WidgetConfig } from '../config.js';
import {
  ACK,
  apiError,
  type FakeClient,
  member,
  organization,
  resetStarted,
} from '@gatehouse/testing';
import { renderWidget, settle } from '../test/render-widget.js';

afterEach(() => {
  cleanup();
  localStorage.clear();
});

const config: WidgetConfig = {
  products: ['passwords'],
  authFlowType: 'organization',
  passwordOptions: { resetPasswordRedirectURL: 'http://localhost:3000/reset' },
};

function acmeWith(found: ReturnType<typeof member> | null) {
  return (client: FakeClient) => {
    client.answer('organization.getBySlug', async () => ({
      ...ACK,
      organization: organization(),
    }));
    client.answer('organization.members.search', async () => ({ ...ACK, member: found }));
    client.answer('passwords.resetByEmailStart', async () => resetStarted());
    client.answer('magicLinks.email.loginOrSignup', async () => ACK);
  };
}

async function askForHelp(found: ReturnType<typeof member> | null, email: string) {
  const rendered = renderWidget(config, { prepare: acmeWith(found) });
  fireEvent.click(
    await screen.findByRole('button', { name: 'Having trouble signing in? Get help' }),
  );
  await screen.findByRole('heading', { name: 'Check your email for help signing in!' });
  fireEvent.input(screen.getByLabelText('Email'), { target: { value: email } });
  fireEvent.click(screen.getByRole('button', { name: 'Continue' }));
  return rendered;
}

describe('PasswordForgotForm', () => {
  it('explains itself and asks for the e-mail', async () => {
    renderWidget(config, { prepare: acmeWith(null) });
    fireEvent.click(
      await screen.findByRole('button', { name: 'Having trouble signing in? Get help' }),
    );
    await screen.findByRole('heading', { name: 'Check your email for help signing in!' });
    expect(
      screen.getByText(
        "We'll email you a login link to sign in to your account directly or reset your password if you have one.",
      ),
    ).toBeTruthy();
    expect(screen.getByLabelText<HTMLInputElement>('Email').autocomplete).toBe('email');
  });

  it('refuses a malformed address', async () => {
    const { client } = await askForHelp(null, 'ada@acme');
    expect((await screen.findByRole('alert')).textContent).toBe('Invalid email address');
    expect(client.callsTo('organization.members.search')).toEqual([]);
  });

  it('tells a newcomer the organization refuses that they have no access', async () => {
    await askForHelp(null, 'grace@elsewhere.test');
    expect((await screen.findByRole('alert')).textContent).toBe(
      'grace@elsewhere.test does not have access to Acme. If you think this is a mistake, contact your admin.',
    );
  });
});

describe('PasswordSetNewConfirmation', () => {
  it('confirms the reset e-mail and resends it with a toast', async () => {
    const { client, successToasts } = await askForHelp(
      member({ member_password_id: 'member-password-test-1' }),
      'ada@acme.test',
    );
    expect(await screen.findByRole('heading', { name: 'Check your email!' })).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Resend email' }));
    await settle();
    expect(client.callsTo('passwords.resetByEmailStart')).toHaveLength(2);
    expect(successToasts).toEqual(['Email resent']);
    expect(screen.getByRole<HTMLButtonElement>('button', { name: 'Resend email' }).disabled).toBe(
      false,
    );
  });
});

describe('PasswordResetVerifyConfirmation', () => {
  it('asks a member without a password to verify the e-mail, with web-mail links', async () => {
    const { client } = await askForHelp(null, 'grace@acme.test');
    expect(await screen.findByRole('heading', { name: 'Verify your email first.' })).toBeTruthy();
    expect(screen.getByText('A login link was sent to you at grace@acme.test.')).toBeTruthy();
    expect(screen.getByText("Didn't get it?", { exact: false })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Gmail' })).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Resend email' }));
    await settle();
    expect(client.callsTo('magicLinks.email.loginOrSignup')).toHaveLength(2);
  });

  it('says the e-mail could not be verified when the link cannot be sent', async () => {
    const rendered = renderWidget(config, {
      prepare: (c) => {
        acmeWith(null)(c);
        c.answer('magicLinks.email.loginOrSignup', () =>
          Promise.reject(apiError('internal_server_error', 'Boom', 500)),
        );
      },
    });
    fireEvent.click(
      await screen.findByRole('button', { name: 'Having trouble signing in? Get help' }),
    );
    fireEvent.input(await screen.findByLabelText('Email'), {
      target: { value: 'grace@acme.test' },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Continue' }));
    expect((await screen.findByRole('alert')).textContent).toBe(
      'We were unable to verify your email. Please contact your admin.',
    );
    expect(rendered.errors).toEqual([{ message: 'Boom', error_type: 'internal_server_error' }]);
  });
});
