import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { WidgetConfig } from '../config.js';
import { ACK, apiError, type FakeClient, fullSession, organization } from '@gatehouse/testing';
import { renderWidget } from '../test/render-widget.js';

afterEach(cleanup);

const both: WidgetConfig = {
  products: ['emailMagicLinks', 'passwords'],
  authFlowType: 'organization',
};

function inAcme(org = organization()) {
  return (client: FakeClient) =>
    client.answer('organization.getBySlug', async () => ({ ...ACK, organization: org }));
}

/** Opens PasswordAuthenticate from Main with an address typed into the magic link form. */
async function openPasswordLogin() {
  const rendered = renderWidget(both, { prepare: inAcme() });
  fireEvent.input(await screen.findByLabelText('Email'), {
    target: { value: 'ada@acme.test' },
  });
  fireEvent.click(screen.getByRole('button', { name: 'Use a password instead' }));
  await screen.findByRole('heading', { name: 'Log in with email and password' });
  return rendered;
}

describe('Main with magic links and passwords', () => {
  it("offers 'Use a password instead' under the magic link form", async () => {
    renderWidget(both, { prepare: inAcme() });
    expect(await screen.findByRole('button', { name: 'Use a password instead' })).toBeTruthy();
    expect(screen.queryByLabelText('Password')).toBeNull();
  });

  it('does not offer passwords where the organization forbids them', async () => {
    renderWidget(both, {
      prepare: inAcme(
        organization({ auth_methods: 'RESTRICTED', allowed_auth_methods: ['magic_link'] }),
      ),
    });
    await screen.findByRole('button', { name: 'Continue with email' });
    expect(screen.queryByRole('button', { name: 'Use a password instead' })).toBeNull();
  });
});

describe('Main with passwords only', () => {
  it('shows the password form after the buttons, with the divider before it', async () => {
    const { container } = renderWidget(
      {
        products: ['oauth', 'passwords'],
        authFlowType: 'organization',
        oauthOptions: { providers: ['google'] },
      },
      { prepare: inAcme() },
    );
    await screen.findByLabelText('Password');
    const texts = Array.from(
      container.querySelectorAll('.gh-screen > *'),
      (el) => el.className || el.tagName,
    );
    expect(texts).toEqual(['gh-heading', 'gh-button-list', 'gh-divider', 'gh-form']);
    expect(screen.getByRole('button', { name: 'Continue' })).toBeTruthy();
  });
});

describe('PasswordAuthenticate', () => {
  it('fills in the e-mail and sets the fields up for password managers', async () => {
    await openPasswordLogin();
    const email = screen.getByLabelText<HTMLInputElement>('Email');
    const password = screen.getByLabelText<HTMLInputElement>('Password');
    expect(email.value).toBe('ada@acme.test');
    expect(email.autocomplete).toBe('username');
    expect(email.type).toBe('email');
    expect(password.autocomplete).toBe('current-password');
    expect(password.type).toBe('password');
    expect(password.required).toBe(true);
  });

  it('shows and hides the password with the toggle', async () => {
    await openPasswordLogin();
    const password = screen.getByLabelText<HTMLInputElement>('Password');
    const toggle = screen.getByRole('button', { name: 'Show password' });
    expect(toggle.getAttribute('aria-pressed')).toBe('false');
    fireEvent.click(toggle);
    expect(password.type).toBe('text');
    expect(toggle.getAttribute('aria-pressed')).toBe('true');
    fireEvent.click(toggle);
    expect(password.type).toBe('password');
  });

  it('logs in with the password', async () => {
    const { client, successes } = await openPasswordLogin();
    client.answer('passwords.authenticate', async () => fullSession());
    fireEvent.input(screen.getByLabelText('Password'), { target: { value: 'correct horse' } });
    fireEvent.click(screen.getByRole('button', { name: 'Continue' }));
    expect(await screen.findByRole('heading', { name: 'Success!' })).toBeTruthy();
    expect(client.callsTo('passwords.authenticate')).toEqual([
      {
        organization_id: 'organization-test-acme',
        email_address: 'ada@acme.test',
        password: 'correct horse',
        session_duration_minutes: 30,
        locale: 'en',
      },
    ]);
    expect(successes).toHaveLength(1);
  });

  it('announces the spec message when the password is wrong', async () => {
    const { client } = await openPasswordLogin();
    client.answer('passwords.authenticate', () =>
      Promise.reject(apiError('unauthorized_credentials', 'Unauthorized', 401)),
    );
    fireEvent.input(screen.getByLabelText('Password'), { target: { value: 'wrong' } });
    fireEvent.click(screen.getByRole('button', { name: 'Continue' }));
    expect((await screen.findByRole('alert')).textContent).toBe(
      'Invalid email or password. Please try again or use the link below to get help.',
    );
    expect(screen.getByLabelText('Password').getAttribute('aria-invalid')).toBe('true');
  });

  it('refuses a malformed e-mail and asks nothing of an empty password', async () => {
    const { client } = await openPasswordLogin();
    fireEvent.click(screen.getByRole('button', { name: 'Continue' }));
    await waitFor(() => expect(document.activeElement).toBe(screen.getByLabelText('Password')));
    fireEvent.input(screen.getByLabelText('Email'), { target: { value: 'ada@acme' } });
    fireEvent.click(screen.getByRole('button', { name: 'Continue' }));
    expect((await screen.findByRole('alert')).textContent).toBe('Invalid email address');
    expect(client.callsTo('passwords.authenticate')).toEqual([]);
  });

  it('leads to help with the e-mail filled in, and back to Main', async () => {
    await openPasswordLogin();
    fireEvent.click(screen.getByRole('button', { name: 'Having trouble signing in? Get help' }));
    await screen.findByRole('heading', { name: 'Check your email for help signing in!' });
    expect(screen.getByLabelText<HTMLInputElement>('Email').value).toBe('ada@acme.test');
    fireEvent.click(screen.getByRole('button', { name: 'Back' }));
    expect(await screen.findByRole('heading', { name: 'Continue to Acme' })).toBeTruthy();
  });
});
