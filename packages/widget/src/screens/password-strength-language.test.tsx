// zxcvbn's warning and suggestions on the reset page in the widget's language: the server sends
// them in English, a Spanish widget shows the zxcvbn-ts Spanish pack's words, a sentence without
// them stays as sent, and an English widget shows the English.
import { act, cleanup, fireEvent, screen } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { strengthVerdict } from '@gatehouse/testing';
import type { PasswordStrengthResult } from '@gatehouse/protocol';
import { renderWidget } from '../test/render-widget.js';

beforeAll(async () => {
  await import('../machine/passwords.js');
});

afterEach(() => {
  vi.useRealTimers();
  cleanup();
});

const RESET_LINK = 'http://localhost:3000/reset?stytch_token_type=multi_tenant_passwords&token=rt';

/** The reset page in `locale`, a password typed, and the check's answer shown. */
async function feedbackFor(locale: string, verdict: PasswordStrengthResult) {
  renderWidget(
    { products: ['passwords'], authFlowType: 'passwordReset', locale },
    {
      pageUrl: RESET_LINK,
      prepare: (c) => c.answer('passwords.strengthCheck', async () => verdict),
    },
  );
  const spanish = locale.startsWith('es');
  await screen.findByRole('heading', {
    name: spanish ? 'Establece una nueva contraseña' : 'Set a new password',
  });
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
  fireEvent.input(screen.getByLabelText(spanish ? 'Nueva contraseña' : 'New password'), {
    target: { value: 'summer2025' },
  });
  await act(async () => {
    vi.advanceTimersByTime(500);
  });
  vi.useRealTimers();
  await screen.findByRole('meter');
}

describe("zxcvbn's feedback in the widget's language", () => {
  it('is Spanish in a Spanish widget', async () => {
    await feedbackFor(
      'es',
      strengthVerdict({
        score: 1,
        zxcvbn_feedback: {
          warning: 'Common names and surnames are easy to guess.',
          suggestions: ['Add more words that are less common.'],
        },
      }),
    );
    expect(
      await screen.findByText('Nombre y apellidos comunes son fáciles de adivinar.'),
    ).toBeTruthy();
    expect(screen.queryByText('Common names and surnames are easy to guess.')).toBeNull();
  });

  it('translates each suggestion it knows and leaves the others as sent (es-MX)', async () => {
    await feedbackFor(
      'es-MX',
      strengthVerdict({
        score: 2,
        zxcvbn_feedback: {
          warning: '',
          suggestions: ['Add more words that are less common.', 'Something zxcvbn added later.'],
        },
      }),
    );
    expect(await screen.findByText('Añade más palabras que sean menos comunes.')).toBeTruthy();
    expect(screen.getByText('Something zxcvbn added later.')).toBeTruthy();
  });

  it('is not fooled by a sentence that names an object property', async () => {
    await feedbackFor(
      'es',
      strengthVerdict({ score: 2, zxcvbn_feedback: { warning: 'constructor', suggestions: [] } }),
    );
    expect(await screen.findByText('constructor')).toBeTruthy();
  });

  it('stays English in an English widget', async () => {
    await feedbackFor(
      'en',
      strengthVerdict({
        score: 1,
        zxcvbn_feedback: { warning: 'Dates are easy to guess.', suggestions: [] },
      }),
    );
    expect(await screen.findByText('Dates are easy to guess.')).toBeTruthy();
  });
});
