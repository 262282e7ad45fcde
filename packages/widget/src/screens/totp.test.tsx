import { cleanup, fireEvent, screen } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  ACK,
  apiError,
  type FakeClient,
  fullSession,
  mfaPending,
  organization,
} from '@gatehouse/testing';
import { renderAtMfa } from '../test/mfa-flow.js';
import { settle } from '../test/render-widget.js';

beforeAll(async () => {
  await import('../machine/mfa.js');
});

afterEach(cleanup);

const TOTP = {
  ...ACK,
  totp_id: 'member-totp-test-1',
  secret: 'JBSWY3DPEHPK3PXP',
  qr_code: 'data:image/png;base64,iVBORw0KGgo=',
  recovery_codes: ['aaaa-bbbb-cccc', 'dddd-eeee-ffff'],
};
const totpOnly = organization({ mfa_methods: 'RESTRICTED', allowed_mfa_methods: ['totp'] });

async function openQr(
  prepare?: (c: FakeClient) => void,
  options: { clipboardFails?: boolean } = {},
) {
  const rendered = await renderAtMfa(mfaPending({}, totpOnly), {
    ...options,
    prepare: (c) => {
      c.answer('totp.create', async () => TOTP);
      prepare?.(c);
    },
  });
  await screen.findByRole('heading', { name: 'Scan the QR code to link your authenticator app' });
  await screen.findByRole('img');
  return rendered;
}

describe('TOTPEnrollmentQRCode', () => {
  it('creates the registration on entry, once, and shows its QR code', async () => {
    const { client } = await openQr();
    expect(screen.getByRole<HTMLImageElement>('img').src).toBe(TOTP.qr_code);
    expect(client.callsTo('totp.create')).toEqual([
      { organization_id: 'organization-test-acme', member_id: 'member-test-ada' },
    ]);
    fireEvent.click(screen.getByRole('button', { name: 'Having trouble scanning?' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Try to scan the QR code again' }));
    await screen.findByRole('img');
    expect(client.callsTo('totp.create')).toHaveLength(1);
  });

  it('toasts a creation that failed', async () => {
    const { toasts } = await renderAtMfa(mfaPending({}, totpOnly), {
      prepare: (c) =>
        c.answer('totp.create', () =>
          Promise.reject(apiError('mfa_method_not_allowed', 'Not allowed', 403)),
        ),
    });
    expect((await screen.findByRole('alert')).textContent).toBe('Not allowed');
    expect(toasts).toEqual(['Not allowed']);
    expect(screen.getByRole<HTMLButtonElement>('button', { name: 'Continue' }).disabled).toBe(true);
  });
});

describe('TOTPEnrollmentManual', () => {
  it('shows the secret in lowercase groups of four and copies it on click', async () => {
    const { clipboard, successToasts } = await openQr();
    fireEvent.click(screen.getByRole('button', { name: 'Having trouble scanning?' }));
    await screen.findByRole('heading', { name: 'Having trouble scanning the QR code?' });
    fireEvent.click(screen.getByRole('button', { name: 'jbsw y3dp ehpk 3pxp' }));
    await settle();
    expect(clipboard).toEqual(['JBSWY3DPEHPK3PXP']);
    expect(successToasts).toEqual(['Code copied']);
  });

  it('says so when the clipboard refuses', async () => {
    const { toasts } = await openQr(undefined, { clipboardFails: true });
    fireEvent.click(screen.getByRole('button', { name: 'Having trouble scanning?' }));
    fireEvent.click(await screen.findByRole('button', { name: 'jbsw y3dp ehpk 3pxp' }));
    await settle();
    expect(toasts).toEqual(["Couldn't copy code to clipboard"]);
  });
});

describe('TOTPEntry', () => {
  it('while enrolling: the hint, then the backup codes once the code is right', async () => {
    const { client, successes } = await openQr((c) =>
      c.answer('totp.authenticate', async () => fullSession()),
    );
    fireEvent.click(screen.getByRole('button', { name: 'Continue' }));
    await screen.findByRole('heading', { name: 'Enter verification code' });
    expect(screen.getByText('Enter the 6-digit code from your authenticator app.')).toBeTruthy();
    expect(
      screen.getByText(
        "If the verification code doesn't work, go back to your authenticator app to get a new code.",
      ),
    ).toBeTruthy();
    expect(screen.queryByRole('button', { name: /backup code/ })).toBeNull();
    fireEvent.input(screen.getByLabelText('Passcode'), { target: { value: '123456' } });
    await screen.findByRole('heading', { name: 'Save your backup codes!' });
    expect(client.callsTo('totp.authenticate')).toEqual([
      {
        organization_id: 'organization-test-acme',
        member_id: 'member-test-ada',
        code: '123456',
        session_duration_minutes: 60,
        set_mfa_enrollment: 'enroll',
      },
    ]);
    expect(successes).toEqual([]);
  });

  it('enrolled: offers a backup code and, with SMS enrolled, a text message', async () => {
    await renderAtMfa(
      mfaPending({
        totp_registration_id: 'member-totp-test-1',
        mfa_phone_number: '+12015550123',
        mfa_phone_number_verified: true,
        default_mfa_method: 'totp',
      }),
    );
    await screen.findByRole('heading', { name: 'Enter verification code' });
    fireEvent.click(screen.getByRole('button', { name: 'Text me a code instead' }));
    expect(await screen.findByRole('heading', { name: 'Enter passcode' })).toBeTruthy();
  });

  it('enrolled without SMS: no text message, and the way to a backup code', async () => {
    await renderAtMfa(mfaPending({ totp_registration_id: 'member-totp-test-1' }));
    await screen.findByRole('heading', { name: 'Enter verification code' });
    expect(screen.queryByRole('button', { name: 'Text me a code instead' })).toBeNull();
    fireEvent.click(
      screen.getByRole('button', {
        name: "Can't access your authenticator app? Use a backup code",
      }),
    );
    expect(await screen.findByRole('heading', { name: 'Enter backup code' })).toBeTruthy();
  });

  it('announces a wrong code', async () => {
    await renderAtMfa(mfaPending({ totp_registration_id: 'member-totp-test-1' }), {
      prepare: (c) =>
        c.answer('totp.authenticate', () =>
          Promise.reject(apiError('unauthorized_credentials', 'Unauthorized', 401)),
        ),
    });
    fireEvent.input(await screen.findByLabelText('Passcode'), { target: { value: '000000' } });
    expect((await screen.findByRole('alert')).textContent).toBe(
      'Invalid passcode, please try again.',
    );
  });
});
