/**
 * The components of the rendered screens. Main and the loading screens load with the widget;
 * screens only some flows reach (passwords, MFA, the rest) are split off and fetched when first
 * shown, or earlier, while the screen before them shows (next-screens.ts).
 */
import { lazy, type ComponentType } from 'react';
import type { RenderedScreen } from '../machine/screens.js';
import { Loading, LoggingIn } from './loading.js';
import { Main } from './main.js';

export type LazyScreen = Exclude<RenderedScreen, 'Main' | 'Loading' | 'LoggingIn'>;

/** Fetches a split-off screen's module; a module is fetched once, however often this is called. */
export const LOADERS: Record<LazyScreen, () => Promise<ComponentType>> = {
  EmailConfirmation: () => import('./email-confirmation.js').then((m) => m.EmailConfirmation),
  Discovery: () => import('./discovery.js').then((m) => m.Discovery),
  LoggedIn: () => import('./logged-in.js').then((m) => m.LoggedIn),
  Error: () => import('./error-screen.js').then((m) => m.ErrorScreen),
  PasswordAuthenticate: () =>
    import('./password-authenticate.js').then((m) => m.PasswordAuthenticate),
  PasswordForgotForm: () => import('./password-forgot-form.js').then((m) => m.PasswordForgotForm),
  PasswordSetNewConfirmation: () =>
    import('./password-set-new-confirmation.js').then((m) => m.PasswordSetNewConfirmation),
  PasswordResetForm: () => import('./password-reset-form.js').then((m) => m.PasswordResetForm),
  PasswordResetVerifyConfirmation: () =>
    import('./password-reset-verify-confirmation.js').then(
      (m) => m.PasswordResetVerifyConfirmation,
    ),
  MFAEnrollmentSelection: () =>
    import('./mfa-enrollment-selection.js').then((m) => m.MFAEnrollmentSelection),
  SMSOTPEnrollment: () => import('./sms-otp-enrollment.js').then((m) => m.SMSOTPEnrollment),
  SMSOTPEntry: () => import('./sms-otp-entry.js').then((m) => m.SMSOTPEntry),
  TOTPEnrollmentQRCode: () =>
    import('./totp-enrollment-qr-code.js').then((m) => m.TOTPEnrollmentQRCode),
  TOTPEnrollmentManual: () =>
    import('./totp-enrollment-manual.js').then((m) => m.TOTPEnrollmentManual),
  TOTPEntry: () => import('./totp-entry.js').then((m) => m.TOTPEntry),
  RecoveryCodeEntry: () => import('./recovery-code-entry.js').then((m) => m.RecoveryCodeEntry),
  RecoveryCodeSave: () => import('./recovery-code-save.js').then((m) => m.RecoveryCodeSave),
};

/** Main and the loading screens, then every split-off screen behind `lazy`. */
export const SCREEN_COMPONENTS: Record<RenderedScreen, ComponentType> = {
  Main,
  Loading,
  LoggingIn,
  // Every key of LOADERS, so the compiler's check of LOADERS covers these too.
  ...(Object.fromEntries(
    Object.entries(LOADERS).map(([screen, load]): [string, ComponentType] => [
      screen,
      lazy(() => load().then((component) => ({ default: component }))),
    ]),
  ) as Record<LazyScreen, ComponentType>),
};
