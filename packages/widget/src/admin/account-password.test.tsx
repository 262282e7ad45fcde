// The password panel of 'Your account' in the portal's language: its strength feedback (the
// check under way, the meter, the LUDS rules, a breached password) uses the login widget's words
// of that language, and zxcvbn's warning and suggestions (sent in English) the zxcvbn-ts Spanish
// pack's, in a Spanish portal as in an English one.
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { PasswordStrengthResult } from '@gatehouse/protocol';
import { member, organization, strengthVerdict } from '@gatehouse/testing';
import { AdminAccount } from './portal.js';
import { MEMBER_PERMISSIONS, renderAdmin } from '../test/render-admin.js';

afterEach(cleanup);

const ack = { request_id: 'r', status_code: 200 };

/** The account section in `locale`, the strength check answering `verdict` once asked. */
function renderAccount(locale: string, verdict: PasswordStrengthResult) {
  const answered: { release?: () => void } = {};
  const rendered = renderAdmin((props) => <AdminAccount {...props} locale={locale} />, {
    roles: [],
    permissions: MEMBER_PERMISSIONS,
    prepare(admin, client) {
      const found = member({ member_password_id: 'pw-1' });
      admin.answer('self.get', async () => ({
        ...ack,
        member_id: found.member_id,
        member: found,
        organization: organization(),
      }));
      // Held until released, so that the check under way can be seen.
      client.answer(
        'passwords.strengthCheck',
        () =>
          new Promise((resolve) => {
            answered.release = () => resolve(verdict);
          }),
      );
    },
  });
  return { ...rendered, answered };
}

async function typeNewPassword(name: string, label: string, value: string) {
  const panel = await screen.findByRole('group', { name });
  fireEvent.input(within(panel).getByLabelText(label), { target: { value } });
  return panel;
}

describe("the account's password strength feedback", () => {
  it('speaks Spanish in a Spanish portal: the check, the meter and a breached password', async () => {
    const { answered } = renderAccount(
      'es',
      strengthVerdict({ score: 3, valid_password: false, breached_password: true }),
    );
    const panel = await typeNewPassword('Contraseña', 'Nueva contraseña', 'correct horse');
    expect(await within(panel).findByText('Comprobando tu contraseña…')).toBeTruthy();
    await waitFor(() => expect(answered.release).toBeDefined());
    answered.release?.();
    expect(
      await within(panel).findByRole('meter', { name: 'Seguridad de la contraseña' }),
    ).toBeTruthy();
    expect(
      within(panel).getByText(
        'Es posible que esta contraseña se haya usado en otro sitio que sufrió un problema de seguridad. Elige otra contraseña.',
      ),
    ).toBeTruthy();
    expect(within(panel).queryByText(/Checking|password may have been used/)).toBeNull();
  });

  it("lists the project's LUDS rules in Spanish", async () => {
    const { answered } = renderAccount('es-MX', strengthVerdict({ strength_policy: 'luds' }));
    const panel = await typeNewPassword('Contraseña', 'Nueva contraseña', 'corto');
    await waitFor(() => expect(answered.release).toBeDefined());
    answered.release?.();
    expect(await within(panel).findByText('Debe tener al menos 8 caracteres')).toBeTruthy();
    expect(
      within(panel).getByText(
        'Debe contener 3 de los siguientes: letra mayúscula, letra minúscula, número, símbolo',
      ),
    ).toBeTruthy();
    expect(within(panel).getAllByText('Requisito no cumplido:')).toHaveLength(2);
  });

  it("shows zxcvbn's warning in Spanish, and a sentence it has no words for as sent", async () => {
    const warned = renderAccount(
      'es',
      strengthVerdict({
        score: 1,
        zxcvbn_feedback: { warning: 'Dates are easy to guess.', suggestions: [] },
      }),
    );
    let panel = await typeNewPassword('Contraseña', 'Nueva contraseña', '1999-12-31');
    await waitFor(() => expect(warned.answered.release).toBeDefined());
    warned.answered.release?.();
    expect(await within(panel).findByText('Las fechas son fáciles de adivinar.')).toBeTruthy();
    expect(within(panel).queryByText('Dates are easy to guess.')).toBeNull();
    cleanup();

    const suggested = renderAccount(
      'es-MX',
      strengthVerdict({
        score: 2,
        zxcvbn_feedback: {
          warning: '',
          suggestions: ['Avoid recent years.', 'A sentence of a newer zxcvbn.'],
        },
      }),
    );
    panel = await typeNewPassword('Contraseña', 'Nueva contraseña', 'summer2025');
    await waitFor(() => expect(suggested.answered.release).toBeDefined());
    suggested.answered.release?.();
    expect(await within(panel).findByText('Evita años recientes.')).toBeTruthy();
    expect(within(panel).getByText('A sentence of a newer zxcvbn.')).toBeTruthy();
  });

  it("keeps zxcvbn's English in an English portal", async () => {
    const { answered } = renderAccount(
      'en',
      strengthVerdict({
        score: 1,
        zxcvbn_feedback: { warning: 'Dates are easy to guess.', suggestions: [] },
      }),
    );
    const panel = await typeNewPassword('Password', 'New password', '1999-12-31');
    await waitFor(() => expect(answered.release).toBeDefined());
    answered.release?.();
    expect(await within(panel).findByText('Dates are easy to guess.')).toBeTruthy();
  });

  it('stays in English in an English portal', async () => {
    const { answered } = renderAccount('en', strengthVerdict({ strength_policy: 'luds' }));
    const panel = await typeNewPassword('Password', 'New password', 'short');
    expect(await within(panel).findByText('Checking your password…')).toBeTruthy();
    await waitFor(() => expect(answered.release).toBeDefined());
    answered.release?.();
    expect(await within(panel).findByText('Must be at least 8 characters long')).toBeTruthy();
  });
});
