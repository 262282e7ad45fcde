import { cleanup, fireEvent, screen } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ACK, apiError, mfaPending, organization, type FakeClient } from '@gatehouse/testing';
import { renderAtMfa } from '../test/mfa-flow.js';

// The screen and libphonenumber's metadata load on first use; load them before the clock starts.
beforeAll(async () => {
  await import('./sms-otp-enrollment.js');
});

afterEach(cleanup);

const smsOnly = organization({ mfa_methods: 'RESTRICTED', allowed_mfa_methods: ['sms_otp'] });

async function openEnrollment(prepare?: (c: FakeClient) => void) {
  const rendered = await renderAtMfa(mfaPending({}, smsOnly), { prepare });
  await screen.findByRole('heading', {
    name: 'Enter your phone number to set up Multi-Factor Authentication',
  });
  return rendered;
}

const number = () => screen.getByLabelText<HTMLInputElement>('Phone number');
const country = () => screen.getByLabelText<HTMLSelectElement>('Country');

describe('SMSOTPEnrollment', () => {
  it('has a country select with dial codes, the US by default, and the placeholder', async () => {
    await openEnrollment();
    expect(country().value).toBe('US');
    const labels = Array.from(country().options, (o) => o.textContent);
    expect(labels).toContain('United States +1');
    expect(labels).toContain('United Kingdom +44');
    expect(number().placeholder).toBe('(123) 456-7890');
    expect(number().type).toBe('tel');
  });

  it('shows the country short, with its dial code, and names it in full to screen readers', async () => {
    await openEnrollment();
    const face = document.querySelector('.gh-phone-country-face');
    expect(face?.textContent).toBe('US +1');
    expect(face?.getAttribute('aria-hidden')).toBe('true');
    expect(country().selectedOptions[0]?.textContent).toBe('United States +1');
    fireEvent.change(country(), { target: { value: 'GB' } });
    expect(face?.textContent).toBe('GB +44');
    expect(country().value).toBe('GB');
  });

  it('formats the national number while typing, and lets formatting be deleted', async () => {
    await openEnrollment();
    fireEvent.input(number(), { target: { value: '201' } });
    fireEvent.input(number(), { target: { value: '2015550123' } });
    expect(number().value).toBe('(201) 555-0123');
    fireEvent.input(number(), { target: { value: '201555' } });
    expect(number().value).toBe('(201) 555');
    // Deleting only the bracket would come straight back: the digit before it goes with it.
    fireEvent.input(number(), { target: { value: '(201 555' } });
    expect(number().value).toBe('(201) 55');
    fireEvent.change(country(), { target: { value: 'GB' } });
    fireEvent.input(number(), { target: { value: '07400123456' } });
    expect(number().value).toBe('07400 123456');
  });

  it('refuses an invalid number with the spec message', async () => {
    const { client } = await openEnrollment();
    fireEvent.input(number(), { target: { value: '12' } });
    fireEvent.click(screen.getByRole('button', { name: 'Continue' }));
    expect((await screen.findByRole('alert')).textContent).toBe(
      'Invalid phone number, please try again.',
    );
    expect(client.callsTo('otps.sms.send')).toEqual([]);
  });

  it('shows the duplicate number message when another member has it', async () => {
    await openEnrollment((c) =>
      c.answer('otps.sms.send', () =>
        Promise.reject(apiError('duplicate_member_phone_number', 'Taken', 400)),
      ),
    );
    fireEvent.input(number(), { target: { value: '2015550123' } });
    fireEvent.click(screen.getByRole('button', { name: 'Continue' }));
    expect((await screen.findByRole('alert')).textContent).toBe(
      'A member with the specified phone number already exists for this organization.',
    );
  });

  it('texts the number in E.164 and asks for the code sent to it', async () => {
    const { client } = await openEnrollment((c) => c.answer('otps.sms.send', async () => ACK));
    fireEvent.input(number(), { target: { value: '2015550123' } });
    fireEvent.click(screen.getByRole('button', { name: 'Continue' }));
    await screen.findByRole('heading', { name: 'Enter passcode' });
    expect(client.callsTo('otps.sms.send')).toEqual([
      {
        organization_id: 'organization-test-acme',
        member_id: 'member-test-ada',
        mfa_phone_number: '+12015550123',
        locale: 'en',
      },
    ]);
    expect(screen.getByText('A 6-digit passcode was sent to you at +1 201 555 0123.')).toBeTruthy();
  });
});
