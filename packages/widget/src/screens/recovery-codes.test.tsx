import { cleanup, fireEvent, screen } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { RecoveryCodesRecoverResult } from '@gatehouse/protocol';
import { ACK, apiError, fullSession, mfaPending, organization } from '@gatehouse/testing';
import { renderAtMfa } from '../test/mfa-flow.js';
import { settle } from '../test/render-widget.js';

beforeAll(async () => {
  await import('../machine/mfa.js');
});

afterEach(cleanup);

const enrolled = () => mfaPending({ totp_registration_id: 'member-totp-test-1' });

async function openEntry(recover: () => Promise<RecoveryCodesRecoverResult>) {
  const rendered = await renderAtMfa(enrolled(), {
    prepare: (c) => c.answer('recoveryCodes.recover', recover),
  });
  fireEvent.click(
    await screen.findByRole('button', {
      name: "Can't access your authenticator app? Use a backup code",
    }),
  );
  await screen.findByRole('heading', { name: 'Enter backup code' });
  return rendered;
}

const submit = () => screen.getByRole<HTMLButtonElement>('button', { name: 'Continue' });

describe('RecoveryCodeEntry', () => {
  it('enables Continue only with a code, then logs in', async () => {
    const result = { ...fullSession(), recovery_codes_remaining: 9 };
    const { client, successes } = await openEntry(async () => result);
    const input = screen.getByPlaceholderText('Enter backup code');
    expect(submit().disabled).toBe(true);
    fireEvent.input(input, { target: { value: '   ' } });
    expect(submit().disabled).toBe(true);
    fireEvent.input(input, { target: { value: ' aaaa-bbbb-cccc ' } });
    expect(submit().disabled).toBe(false);
    fireEvent.click(submit());
    await screen.findByRole('heading', { name: 'Success!' });
    expect(client.callsTo('recoveryCodes.recover')).toEqual([
      {
        organization_id: 'organization-test-acme',
        member_id: 'member-test-ada',
        recovery_code: 'aaaa-bbbb-cccc',
        session_duration_minutes: 60,
      },
    ]);
    expect(successes).toEqual([result]);
  });

  it('announces a wrong code, and goes back to the authenticator code', async () => {
    await openEntry(() => Promise.reject(apiError('unauthorized_credentials', 'No', 401)));
    fireEvent.input(screen.getByPlaceholderText('Enter backup code'), {
      target: { value: 'nope' },
    });
    fireEvent.click(submit());
    expect((await screen.findByRole('alert')).textContent).toBe(
      'Invalid backup code, please try again.',
    );
    fireEvent.click(screen.getByRole('button', { name: 'Back' }));
    expect(await screen.findByRole('heading', { name: 'Enter verification code' })).toBeTruthy();
  });
});

describe('RecoveryCodeSave', () => {
  const TOTP = {
    ...ACK,
    totp_id: 'member-totp-test-1',
    secret: 'JBSWY3DPEHPK3PXP',
    qr_code: 'data:image/png;base64,iVBORw0KGgo=',
    recovery_codes: ['aaaa-bbbb-cccc', 'dddd-eeee-ffff'],
  };

  async function openSave(options: { clipboardFails?: boolean; name?: string } = {}) {
    const org = organization({
      mfa_methods: 'RESTRICTED',
      allowed_mfa_methods: ['totp'],
      organization_name: options.name ?? 'Acme',
    });
    const result = fullSession();
    const rendered = await renderAtMfa(mfaPending({}, org), {
      clipboardFails: options.clipboardFails,
      prepare: (c) => {
        c.answer('totp.create', async () => TOTP);
        c.answer('totp.authenticate', async () => result);
      },
    });
    await screen.findByRole('img');
    fireEvent.click(screen.getByRole('button', { name: 'Continue' }));
    fireEvent.input(await screen.findByLabelText('Passcode'), { target: { value: '123456' } });
    await screen.findByRole('heading', { name: 'Save your backup codes!' });
    return { ...rendered, result };
  }

  it('lists the codes and downloads them as a text file named after the organization', async () => {
    const { downloads } = await openSave();
    expect(
      screen.getByText(
        'This is the only time you will be able to access and save your backup codes.',
      ),
    ).toBeTruthy();
    expect(screen.getAllByRole('listitem').map((li) => li.textContent)).toEqual(
      TOTP.recovery_codes,
    );
    fireEvent.click(screen.getByRole('button', { name: 'Download file' }));
    await settle();
    expect(downloads).toEqual([
      { fileName: 'Acme-backup-codes.txt', text: 'aaaa-bbbb-cccc\ndddd-eeee-ffff\n' },
    ]);
  });

  it('copies all the codes, with the toast of each outcome', async () => {
    const ok = await openSave();
    fireEvent.click(screen.getByRole('button', { name: 'Copy all' }));
    await settle();
    expect(ok.clipboard).toEqual(['aaaa-bbbb-cccc\ndddd-eeee-ffff\n']);
    expect(ok.successToasts).toEqual(['Copied']);
    cleanup();
    const refused = await openSave({ clipboardFails: true });
    fireEvent.click(screen.getByRole('button', { name: 'Copy all' }));
    await settle();
    expect(refused.toasts).toEqual(["Couldn't copy codes to clipboard"]);
  });

  it('logs in on Done, reporting the session then', async () => {
    const { successes, result } = await openSave();
    expect(successes).toEqual([]);
    fireEvent.click(screen.getByRole('button', { name: 'Done' }));
    await screen.findByRole('heading', { name: 'Success!' });
    expect(successes).toEqual([result]);
  });
});
