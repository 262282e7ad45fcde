import { act, cleanup, fireEvent, screen } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
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

// The screen and libphonenumber's metadata load on first use; load them before the clock starts.
beforeAll(async () => {
  await Promise.all([import('./sms-otp-entry.js'), import('../machine/mfa.js')]);
});

afterEach(() => {
  vi.useRealTimers();
  cleanup();
});

const IDS = { organization_id: 'organization-test-acme', member_id: 'member-test-ada' };
const phone = { mfa_phone_number: '+12015550123', mfa_phone_number_verified: true };
const initiated = () => mfaPending(phone, organization(), 'sms_otp');

/** A clock the test moves by hand, alongside fake intervals. */
function manualClock() {
  const clock = { now: 0 };
  return {
    now: () => clock.now,
    async advance(ms: number) {
      clock.now += ms;
      await act(async () => {
        vi.advanceTimersByTime(ms);
      });
    },
  };
}

async function openEntry(
  result = initiated(),
  prepare?: (c: FakeClient) => void,
  now?: () => number,
) {
  const rendered = await renderAtMfa(result, { prepare, now });
  await screen.findByRole('heading', { name: 'Enter passcode' });
  return rendered;
}

describe('SMSOTPEntry', () => {
  it('shows where the code went, without sending another when the server sent one', async () => {
    const { client } = await openEntry();
    expect(screen.getByText('A 6-digit passcode was sent to you at +1 201 555 0123.')).toBeTruthy();
    expect(client.callsTo('otps.sms.send')).toEqual([]);
  });

  it('sends a code on entry when none is pending', async () => {
    const { client } = await openEntry(mfaPending(phone), (c) =>
      c.answer('otps.sms.send', async () => ACK),
    );
    await screen.findByText(/Your code expires in/);
    expect(client.callsTo('otps.sms.send')).toEqual([{ ...IDS, locale: 'en' }]);
  });

  it('counts down every second in m:ss, then says the code has expired', async () => {
    const clock = manualClock();
    // Only intervals are faked: the screen's countdown ticks when the test says so.
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    await openEntry(initiated(), undefined, clock.now);
    expect(screen.getByText('Your code expires in 2:00.')).toBeTruthy();
    await clock.advance(1000);
    expect(screen.getByText('Your code expires in 1:59.')).toBeTruthy();
    await clock.advance(58_000);
    expect(screen.getByText('Your code expires in 1:01.')).toBeTruthy();
    await clock.advance(61_000);
    expect(screen.getByText('Your code has expired.')).toBeTruthy();
  });

  it('submits by itself at the sixth digit and logs in', async () => {
    const { client, successes } = await openEntry(initiated(), (c) =>
      c.answer('otps.sms.authenticate', async () => fullSession()),
    );
    fireEvent.input(screen.getByLabelText('Passcode'), { target: { value: '12345' } });
    expect(client.callsTo('otps.sms.authenticate')).toEqual([]);
    fireEvent.input(screen.getByLabelText('Passcode'), { target: { value: '123456' } });
    expect(await screen.findByRole('heading', { name: 'Success!' })).toBeTruthy();
    expect(client.callsTo('otps.sms.authenticate')).toEqual([
      { ...IDS, code: '123456', session_duration_minutes: 60 },
    ]);
    expect(successes).toHaveLength(1);
  });

  it('takes a pasted code and announces a wrong one', async () => {
    await openEntry(initiated(), (c) =>
      c.answer('otps.sms.authenticate', () =>
        Promise.reject(apiError('unauthorized_credentials', 'Unauthorized', 401)),
      ),
    );
    fireEvent.input(screen.getByLabelText('Passcode'), { target: { value: '123 456' } });
    expect((await screen.findByRole('alert')).textContent).toBe(
      'Invalid passcode, please try again.',
    );
  });

  it('resends the code', async () => {
    const { client } = await openEntry(initiated(), (c) =>
      c.answer('otps.sms.send', async () => ACK),
    );
    fireEvent.click(screen.getByRole('button', { name: 'Resend code' }));
    await settle();
    expect(client.callsTo('otps.sms.send')).toEqual([{ ...IDS, locale: 'en' }]);
  });

  it('offers the authenticator app only to a member who has it', async () => {
    await openEntry();
    expect(screen.queryByRole('button', { name: 'Use an authenticator app' })).toBeNull();
    cleanup();
    await openEntry(
      mfaPending(
        { ...phone, totp_registration_id: 'member-totp-test-1' },
        organization(),
        'sms_otp',
      ),
    );
    fireEvent.click(screen.getByRole('button', { name: 'Use an authenticator app' }));
    expect(await screen.findByRole('heading', { name: 'Enter verification code' })).toBeTruthy();
  });
});
