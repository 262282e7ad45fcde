/**
 * The components of the rendered screens. Main and the loading screens load with the widget;
 * screens only some flows reach (passwords, MFA, the rest) are split off and fetched when first
 * shown.
 */
import { lazy, type ComponentType } from 'react';
import type { RenderedScreen } from '../machine/screens.js';
import { Loading, LoggingIn } from './loading.js';
import { Main } from './main.js';

export const SCREEN_COMPONENTS: Record<RenderedScreen, ComponentType> = {
  Main,
  Loading,
  LoggingIn,
  EmailConfirmation: lazy(() =>
    import('./email-confirmation.js').then((m) => ({ default: m.EmailConfirmation })),
  ),
  Discovery: lazy(() => import('./discovery.js').then((m) => ({ default: m.Discovery }))),
  LoggedIn: lazy(() => import('./logged-in.js').then((m) => ({ default: m.LoggedIn }))),
  Error: lazy(() => import('./error-screen.js').then((m) => ({ default: m.ErrorScreen }))),
  PasswordAuthenticate: lazy(() =>
    import('./password-authenticate.js').then((m) => ({ default: m.PasswordAuthenticate })),
  ),
  PasswordForgotForm: lazy(() =>
    import('./password-forgot-form.js').then((m) => ({ default: m.PasswordForgotForm })),
  ),
  PasswordSetNewConfirmation: lazy(() =>
    import('./password-set-new-confirmation.js').then((m) => ({
      default: m.PasswordSetNewConfirmation,
    })),
  ),
  PasswordResetForm: lazy(() =>
    import('./password-reset-form.js').then((m) => ({ default: m.PasswordResetForm })),
  ),
  PasswordResetVerifyConfirmation: lazy(() =>
    import('./password-reset-verify-confirmation.js').then((m) => ({
      default: m.PasswordResetVerifyConfirmation,
    })),
  ),
  MFAEnrollmentSelection: lazy(() =>
    import('./mfa-enrollment-selection.js').then((m) => ({ default: m.MFAEnrollmentSelection })),
  ),
  SMSOTPEnrollment: lazy(() =>
    import('./sms-otp-enrollment.js').then((m) => ({ default: m.SMSOTPEnrollment })),
  ),
  SMSOTPEntry: lazy(() => import('./sms-otp-entry.js').then((m) => ({ default: m.SMSOTPEntry }))),
  TOTPEnrollmentQRCode: lazy(() =>
    import('./totp-enrollment-qr-code.js').then((m) => ({ default: m.TOTPEnrollmentQRCode })),
  ),
  TOTPEnrollmentManual: lazy(() =>
    import('./totp-enrollment-manual.js').then((m) => ({ default: m.TOTPEnrollmentManual })),
  ),
  TOTPEntry: lazy(() => import('./totp-entry.js').then((m) => ({ default: m.TOTPEntry }))),
  RecoveryCodeEntry: lazy(() =>
    import('./recovery-code-entry.js').then((m) => ({ default: m.RecoveryCodeEntry })),
  ),
  RecoveryCodeSave: lazy(() =>
    import('./recovery-code-save.js').then((m) => ({ default: m.RecoveryCodeSave })),
  ),
};
