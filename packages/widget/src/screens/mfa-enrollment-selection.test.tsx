import { cleanup, fireEvent, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { mfaPending, organization } from '@gatehouse/testing';
import { renderAtMfa } from '../test/mfa-flow.js';

afterEach(cleanup);

const options = () =>
  screen.getAllByRole('button').filter((b) => !['Continue'].includes(b.textContent ?? ''));

describe('MFAEnrollmentSelection', () => {
  it('explains itself and offers both methods in the spec order', async () => {
    await renderAtMfa(mfaPending());
    await screen.findByRole('heading', { name: 'Set up Multi-Factor Authentication' });
    expect(
      screen.getByText(
        'Your organization requires an additional form of verification to make your account more secure.',
      ),
    ).toBeTruthy();
    expect(options().map((b) => b.textContent)).toEqual([
      'Use an authenticator app',
      'Text me a code',
    ]);
  });

  it('follows the configured order and the widget list', async () => {
    await renderAtMfa(mfaPending(), {
      config: { mfaProductOrder: ['sms_otp'], mfaProductInclude: ['totp', 'sms_otp'] },
    });
    await screen.findByRole('heading', { name: 'Set up Multi-Factor Authentication' });
    expect(options().map((b) => b.textContent)).toEqual([
      'Text me a code',
      'Use an authenticator app',
    ]);
  });

  it('keeps to the methods the organization supports and the widget includes', async () => {
    await renderAtMfa(
      mfaPending(
        {},
        organization({ mfa_methods: 'RESTRICTED', allowed_mfa_methods: ['sms_otp', 'totp'] }),
      ),
      { config: { mfaProductInclude: ['sms_otp'] } },
    );
    await screen.findByRole('heading', { name: 'Set up Multi-Factor Authentication' });
    expect(options().map((b) => b.textContent)).toEqual(['Text me a code']);
  });

  it('leads to the enrollment of the chosen method', async () => {
    await renderAtMfa(mfaPending());
    fireEvent.click(await screen.findByRole('button', { name: 'Text me a code' }));
    expect(
      await screen.findByRole('heading', {
        name: 'Enter your phone number to set up Multi-Factor Authentication',
      }),
    ).toBeTruthy();
  });
});
