import { act, cleanup, fireEvent, screen } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { WidgetConfig } from '../config.js';
import { resetEmailKey } from '../machine/reset-email.js';
import {
  PUBLIC_TOKEN,
  apiError,
  type FakeClient,
  fullSession,
  strengthVerdict,
} from '@gatehouse/testing';
import { renderWidget, settle } from '../test/render-widget.js';

// The widget loads the password effects on first use; have them ready so that only the debounce
// timer stands between a key and the check.
beforeAll(async () => {
  await import('../machine/passwords.js');
});

afterEach(() => {
  vi.useRealTimers();
  cleanup();
  localStorage.clear();
});

const config: WidgetConfig = { products: ['passwords'], authFlowType: 'passwordReset' };
const RESET_LINK = 'http://localhost:3000/reset?stytch_token_type=multi_tenant_passwords&token=rt';

/** Opens the reset page, then lets the test drive the debounce with fake timers. */
async function openResetForm(options: { pageUrl?: string; prepare?(c: FakeClient): void } = {}) {
  const rendered = renderWidget(config, { pageUrl: options.pageUrl ?? RESET_LINK, ...options });
  await screen.findByRole('heading', { name: 'Set a new password' });
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
  return rendered;
}

async function type(password: string, waitMs = 500) {
  fireEvent.input(screen.getByLabelText('New password'), { target: { value: password } });
  await pass(waitMs);
}

/** Moves the fake clock on, then lets what its timers started (the strength check) finish. */
async function pass(ms: number) {
  await act(async () => {
    vi.advanceTimersByTime(ms);
  });
  await settle();
}

function segments() {
  return Array.from(document.querySelectorAll('.gh-strength-segment'), (el) =>
    el.classList.contains('gh-strength-weak')
      ? 'red'
      : el.classList.contains('gh-strength-strong')
        ? 'green'
        : 'off',
  );
}

const submit = () => screen.getByRole<HTMLButtonElement>('button', { name: 'Continue' });

describe('PasswordResetForm', () => {
  it('shows the stored reset e-mail disabled, paired for password managers', async () => {
    localStorage.setItem(resetEmailKey(PUBLIC_TOKEN), '"ada@acme.test"');
    await openResetForm();
    const email = screen.getByLabelText<HTMLInputElement>('Email');
    expect(email.value).toBe('ada@acme.test');
    expect(email.disabled).toBe(true);
    expect(email.autocomplete).toBe('username');
    const password = screen.getByLabelText<HTMLInputElement>('New password');
    expect(password.autocomplete).toBe('new-password');
    expect(screen.queryByRole('heading', { name: 'Sign up or log in' })).toBeNull();
  });

  it('has no e-mail field when none is stored', async () => {
    await openResetForm();
    expect(screen.queryByLabelText('Email')).toBeNull();
  });

  it('checks the strength 500 ms after the last key only', async () => {
    const { client } = await openResetForm({
      prepare: (c) => c.answer('passwords.strengthCheck', async () => strengthVerdict()),
    });
    await type('a', 300);
    await type('ab', 499);
    expect(client.callsTo('passwords.strengthCheck')).toEqual([]);
    await pass(1);
    expect(client.callsTo('passwords.strengthCheck')).toEqual([{ password: 'ab' }]);
  });

  it('lights the zxcvbn bar by score, in red then green, with the warning', async () => {
    let answer = strengthVerdict();
    await openResetForm({
      prepare: (c) => c.answer('passwords.strengthCheck', async () => answer),
    });
    const cases: [number, string[]][] = [
      [0, ['red', 'off', 'off', 'off']],
      [1, ['red', 'off', 'off', 'off']],
      [2, ['red', 'red', 'off', 'off']],
      [3, ['green', 'green', 'green', 'off']],
      [4, ['green', 'green', 'green', 'green']],
    ];
    for (const [score, expected] of cases) {
      answer = strengthVerdict({
        score,
        zxcvbn_feedback: { warning: `Warning ${score}`, suggestions: [] },
      });
      await type(`password-${score}`);
      expect(segments()).toEqual(expected);
      expect(
        screen.getByRole('meter', { name: 'Password strength' }).getAttribute('aria-valuenow'),
      ).toBe(String(score));
      expect(screen.getByText(`Warning ${score}`)).toBeTruthy();
    }
  });

  it("shows zxcvbn's suggestions when it has no warning, and only the warning when it has one", async () => {
    let answer = strengthVerdict({
      score: 2,
      zxcvbn_feedback: { warning: '', suggestions: ['Add more words that are less common.'] },
    });
    await openResetForm({
      prepare: (c) => c.answer('passwords.strengthCheck', async () => answer),
    });
    await type('orbitlantern');
    expect(screen.getByText('Add more words that are less common.')).toBeTruthy();
    expect(submit().disabled).toBe(true);

    answer = strengthVerdict({
      score: 2,
      zxcvbn_feedback: {
        warning: 'Common names and surnames are easy to guess.',
        suggestions: ['Add more words that are less common.'],
      },
    });
    await type('mapletrain');
    expect(screen.getByText('Common names and surnames are easy to guess.')).toBeTruthy();
    expect(screen.queryByText('Add more words that are less common.')).toBeNull();
  });

  it('says the check is running while Continue waits for it', async () => {
    await openResetForm({
      prepare: (c) =>
        c.answer('passwords.strengthCheck', async () => strengthVerdict({ valid_password: true })),
    });
    expect(screen.queryByText('Checking your password…')).toBeNull();
    await type('Quartz-Lantern-Orbit-42', 200);
    expect(screen.getByText('Checking your password…')).toBeTruthy();
    expect(submit().disabled).toBe(true);
    await pass(300);
    expect(screen.queryByText('Checking your password…')).toBeNull();
    expect(submit().disabled).toBe(false);
  });

  it('keeps Continue disabled until the password is valid, then resets and logs in', async () => {
    const { client, successes } = await openResetForm({
      prepare: (c) => {
        c.answer('passwords.strengthCheck', async (args: { password: string }) =>
          strengthVerdict(
            args.password.length > 10 ? { valid_password: true, score: 4 } : { score: 1 },
          ),
        );
        c.answer('passwords.resetByEmail', async () => fullSession());
      },
    });
    expect(submit().disabled).toBe(true);
    await type('weak');
    expect(submit().disabled).toBe(true);
    await type('a much stronger one', 200);
    expect(submit().disabled).toBe(true);
    await pass(300);
    expect(submit().disabled).toBe(false);
    vi.useRealTimers();
    fireEvent.click(submit());
    expect(await screen.findByRole('heading', { name: 'Success!' })).toBeTruthy();
    expect(client.callsTo('passwords.resetByEmail')).toEqual([
      {
        password_reset_token: 'rt',
        password: 'a much stronger one',
        session_duration_minutes: 30,
        locale: 'en',
      },
    ]);
    expect(successes).toHaveLength(1);
  });

  it('lists the LUDS rules from the start and ticks them from the feedback', async () => {
    const { client } = await openResetForm({
      prepare: (c) => {
        c.setBootstrap({ passwordConfig: { ludsMinimumCount: 10, ludsComplexity: 3 } });
        c.answer('passwords.strengthCheck', async () =>
          strengthVerdict({
            strength_policy: 'luds',
            breached_password: true,
            luds_feedback: { ...strengthVerdict().luds_feedback, missing_characters: 0 },
          }),
        );
      },
    });
    const items = () =>
      Array.from(document.querySelectorAll('.gh-luds-item'), (li) => [
        li.classList.contains('gh-luds-met'),
        li.textContent,
      ]);
    expect(items()).toEqual([
      [false, 'Requirement not met:Must be at least 10 characters long'],
      [
        false,
        'Requirement not met:Must contain 3 of the following: uppercase letter, lowercase letter, number, symbol',
      ],
    ]);
    await type('longenough1');
    expect(client.callsTo('passwords.strengthCheck')).toHaveLength(1);
    expect(items()).toEqual([
      [true, 'Requirement met:Must be at least 10 characters long'],
      [
        false,
        'Requirement not met:Must contain 3 of the following: uppercase letter, lowercase letter, number, symbol',
      ],
    ]);
    expect(
      screen.getByText(
        'This password may have been used on a different site that experienced a security issue. Please choose another password.',
      ),
    ).toBeTruthy();
    expect(submit().disabled).toBe(true);
  });

  it('leaves the verdict to the server on submit when the check cannot be made', async () => {
    await openResetForm({
      prepare: (c) =>
        c.answer('passwords.strengthCheck', () => Promise.reject(new Error('offline'))),
    });
    await type('anything at all');
    expect(submit().disabled).toBe(false);
    expect(document.querySelector('.gh-strength-segment')).toBeNull();
  });

  it('announces a failed reset with the server message', async () => {
    await openResetForm({
      prepare: (c) => {
        c.answer('passwords.strengthCheck', async () => strengthVerdict({ valid_password: true }));
        c.answer('passwords.resetByEmail', () =>
          Promise.reject(apiError('member_not_found', 'The member was removed', 404)),
        );
      },
    });
    await type('a valid password');
    vi.useRealTimers();
    fireEvent.click(submit());
    expect((await screen.findByRole('alert')).textContent).toBe('The member was removed');
  });

  it('replaces the form with the way to a new link when the link turns out used', async () => {
    await openResetForm({
      prepare: (c) => {
        c.answer('passwords.strengthCheck', async () => strengthVerdict({ valid_password: true }));
        c.answer('passwords.resetByEmail', () =>
          Promise.reject(apiError('password_reset_token_not_found', 'Unknown link', 404)),
        );
      },
    });
    await type('a valid password');
    vi.useRealTimers();
    fireEvent.click(submit());
    await screen.findByText(
      /This password reset link is unknown, has expired or has already been used/,
    );
    expect(screen.queryByLabelText('New password')).toBeNull();
  });

  it('checks the link as it opens, and a used one shows the way to a new link at once', async () => {
    const { client } = renderWidget(config, {
      pageUrl: RESET_LINK,
      prepare: (c) =>
        c.answer('passwords.checkResetToken', () =>
          Promise.reject(apiError('password_reset_token_not_found', 'Unknown link', 404)),
        ),
    });
    await screen.findByText(
      /This password reset link is unknown, has expired or has already been used/,
    );
    expect(client.callsTo('passwords.checkResetToken')).toEqual([{ password_reset_token: 'rt' }]);
    expect(screen.queryByLabelText('New password')).toBeNull();
  });

  it('opened without a link or a session, says where the link comes from instead of a form', async () => {
    renderWidget(config, { pageUrl: 'http://localhost:3000/reset' });
    await screen.findByText(/To set a new password, open the link in your password reset email/);
    expect(screen.queryByLabelText('New password')).toBeNull();
  });

  it('says so when the login link of a reset cannot be verified', async () => {
    renderWidget(config, {
      pageUrl: 'http://localhost:3000/reset?stytch_token_type=multi_tenant_magic_links&token=m',
      prepare: (c) =>
        c.answer('magicLinks.authenticate', () =>
          Promise.reject(apiError('magic_link_not_found', 'Not found', 404)),
        ),
    });
    expect((await screen.findByRole('alert')).textContent).toBe(
      'We were unable to verify your email. Please contact your admin for help.',
    );
  });
});
