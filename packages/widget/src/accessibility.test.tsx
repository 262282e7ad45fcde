/**
 * The accessibility attributes of every screen (docs/widget.md §13): labelled fields, errors tied
 * to their fields and announced, the one-time-code field, toasts in live regions.
 */
import { cleanup, render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import {
  FIXTURE_CASES,
  SCREEN_CASES,
  fixtureClient,
  type FixtureCase,
} from './test/screen-cases.js';
import { WidgetApp } from './widget-app.js';

afterEach(cleanup);

/** Renders a case and waits until its screen (rather than the lazy-load spinner) is shown. */
async function renderCase(fixture: FixtureCase, real = false) {
  const result = render(
    <WidgetApp
      client={fixtureClient(fixture)}
      config={fixture.config}
      startState={fixture.state}
      // Toasts stay the browser's own when a test checks them.
      environment={real ? {} : { toastError: () => {}, toastSuccess: () => {} }}
    />,
  );
  await waitFor(() => {
    expect(
      result.container.querySelector('.gh-screen h1, .gh-screen p, .gh-centered:not(.gh-pending)'),
    ).not.toBe(null);
  });
  return result;
}

/** The visible or hidden label text of a form field, '' when it has none. */
function labelOf(field: Element, root: ParentNode): string {
  const ariaLabel = field.getAttribute('aria-label');
  if (ariaLabel) return ariaLabel;
  const labelledBy = field.getAttribute('aria-labelledby');
  if (labelledBy)
    return labelledBy
      .split(' ')
      .map((id) => textOf(id, root))
      .join(' ');
  const label = field.id ? root.querySelector(`label[for="${CSS.escape(field.id)}"]`) : null;
  return label?.textContent?.trim() ?? '';
}

function textOf(id: string, root: ParentNode): string {
  return root.querySelector(`[id="${CSS.escape(id)}"]`)?.textContent?.trim() ?? '';
}

const caseNames = Object.keys(FIXTURE_CASES);

describe.each(caseNames)('%s', (name) => {
  const fixture = FIXTURE_CASES[name]!;

  it('labels every field and ties every invalid one to its error', async () => {
    const { container } = await renderCase(fixture);
    for (const field of container.querySelectorAll('input, select, textarea')) {
      expect(labelOf(field, container), field.outerHTML).not.toBe('');
    }
    for (const described of container.querySelectorAll('[aria-describedby]')) {
      for (const id of described.getAttribute('aria-describedby')!.split(' ')) {
        expect(container.querySelector(`[id="${CSS.escape(id)}"]`), id).not.toBe(null);
      }
    }
    for (const invalid of container.querySelectorAll('[aria-invalid="true"]')) {
      const ids = invalid.getAttribute('aria-describedby')?.split(' ') ?? [];
      const errors = ids.map((id) => container.querySelector(`[id="${CSS.escape(id)}"]`));
      // One of the descriptions is the announced error message.
      expect(
        errors.some((e) => e?.getAttribute('role') === 'alert' && e.textContent),
        invalid.outerHTML,
      ).toBe(true);
    }
  });
});

describe('form errors', () => {
  it.each([
    ['Main-email-error', 'Something went wrong. Please try again.', 'Email'],
    ['PasswordAuthenticate-error', 'The email or password is incorrect.', 'Password'],
    ['TOTPEntry-error', 'Invalid passcode, please try again.', 'Passcode'],
    ['SMSOTPEntry-error', 'Invalid passcode, please try again.', 'Passcode'],
    ['RecoveryCodeEntry-error', 'Invalid backup code.', 'Enter backup code'],
  ])('%s: the error is an alert that describes the invalid field', async (name, message, label) => {
    await renderCase(FIXTURE_CASES[name]!);
    const error = screen.getByRole('alert');
    expect(error.textContent).toBe(message);
    const field = screen.getByLabelText(label, { exact: true, selector: 'input' });
    expect(field.getAttribute('aria-invalid')).toBe('true');
    expect(field.getAttribute('aria-describedby')?.split(' ')).toContain(error.id);
  });

  it('a field without an error is not marked invalid', async () => {
    await renderCase(SCREEN_CASES.TOTPEntry);
    const field = screen.getByLabelText('Passcode');
    expect(field.hasAttribute('aria-invalid')).toBe(false);
    expect(field.hasAttribute('aria-describedby')).toBe(false);
    expect(screen.queryByRole('alert')).toBe(null);
  });

  it('the error screen is an alert', async () => {
    await renderCase(SCREEN_CASES.Error);
    expect(screen.getByRole('alert').textContent).toContain('Looks like there was an error!');
  });
});

describe('the one-time code field', () => {
  it.each(['TOTPEntry', 'SMSOTPEntry'])(
    '%s: a numeric one-time-code field named Passcode',
    async (name) => {
      await renderCase(FIXTURE_CASES[name]!);
      const field = screen.getByRole('textbox', { name: 'Passcode' });
      expect(field.getAttribute('autocomplete')).toBe('one-time-code');
      expect(field.getAttribute('inputmode')).toBe('numeric');
      // The six boxes drawn over it are decoration only.
      expect(field.parentElement?.querySelector('.gh-otp-boxes')?.getAttribute('aria-hidden')).toBe(
        'true',
      );
    },
  );
});

describe('live regions', () => {
  it('an error toast is an assertive alert', async () => {
    await renderCase(FIXTURE_CASES['TOTPEnrollmentQRCode-failed']!, true);
    await waitFor(() => {
      const toast = document.querySelector('[data-rht-toaster] [role="alert"]');
      expect(toast?.textContent).toBe('The request was not authorized.');
      expect(toast?.getAttribute('aria-live')).toBe('assertive');
    });
  });

  it('"Logging in..." is a polite live region and the spinner is a named status', async () => {
    await renderCase(SCREEN_CASES.LoggingIn);
    expect(
      screen.getByText('Logging in...').closest('[aria-live]')?.getAttribute('aria-live'),
    ).toBe('polite');
    cleanup();
    await renderCase(SCREEN_CASES.Loading);
    expect(screen.getByRole('status').getAttribute('aria-label')).toBeTruthy();
  });

  it('password strength feedback is polite', async () => {
    await renderCase(SCREEN_CASES.PasswordResetForm);
    const field = screen.getByLabelText('New password');
    const strength = document.getElementById(
      field.getAttribute('aria-describedby')!.split(' ')[0]!,
    );
    expect(strength?.getAttribute('aria-live')).toBe('polite');
  });
});
