/**
 * The components of the rendered screens. Main and the loading screens load with the widget;
 * screens only some flows reach (passwords, MFA, the rest) are split off and fetched when first
 * shown.
 */
import { lazy, type ComponentType } from 'react';
import type { RenderedScreen } from '../machine/screens.js';
import { Loading, LoggingIn } from './Loading.js';
import { Main } from './Main.js';

export const SCREEN_COMPONENTS: Record<RenderedScreen, ComponentType> = {
  Main,
  Loading,
  LoggingIn,
  EmailConfirmation: lazy(() =>
    import('./EmailConfirmation.js').then((m) => ({ default: m.EmailConfirmation })),
  ),
  Discovery: lazy(() => import('./Discovery.js').then((m) => ({ default: m.Discovery }))),
  LoggedIn: lazy(() => import('./LoggedIn.js').then((m) => ({ default: m.LoggedIn }))),
  Error: lazy(() => import('./ErrorScreen.js').then((m) => ({ default: m.ErrorScreen }))),
  PasswordAuthenticate: lazy(() =>
    import('./PasswordAuthenticate.js').then((m) => ({ default: m.PasswordAuthenticate })),
  ),
  PasswordForgotForm: lazy(() =>
    import('./PasswordForgotForm.js').then((m) => ({ default: m.PasswordForgotForm })),
  ),
  PasswordSetNewConfirmation: lazy(() =>
    import('./PasswordSetNewConfirmation.js').then((m) => ({
      default: m.PasswordSetNewConfirmation,
    })),
  ),
  PasswordResetForm: lazy(() =>
    import('./PasswordResetForm.js').then((m) => ({ default: m.PasswordResetForm })),
  ),
  PasswordResetVerifyConfirmation: lazy(() =>
    import('./PasswordResetVerifyConfirmation.js').then((m) => ({
      default: m.PasswordResetVerifyConfirmation,
    })),
  ),
  MFAEnrollmentSelection: lazy(() =>
    import('./MFAEnrollmentSelection.js').then((m) => ({ default: m.MFAEnrollmentSelection })),
  ),
  SMSOTPEnrollment: lazy(() =>
    import('./SMSOTPEnrollment.js').then((m) => ({ default: m.SMSOTPEnrollment })),
  ),
  SMSOTPEntry: lazy(() => import('./SMSOTPEntry.js').then((m) => ({ default: m.SMSOTPEntry }))),
  TOTPEnrollmentQRCode: lazy(() =>
    import('./TOTPEnrollmentQRCode.js').then((m) => ({ default: m.TOTPEnrollmentQRCode })),
  ),
  TOTPEnrollmentManual: lazy(() =>
    import('./TOTPEnrollmentManual.js').then((m) => ({ default: m.TOTPEnrollmentManual })),
  ),
  TOTPEntry: lazy(() => import('./TOTPEntry.js').then((m) => ({ default: m.TOTPEntry }))),
  RecoveryCodeEntry: lazy(() =>
    import('./RecoveryCodeEntry.js').then((m) => ({ default: m.RecoveryCodeEntry })),
  ),
  RecoveryCodeSave: lazy(() =>
    import('./RecoveryCodeSave.js').then((m) => ({ default: m.RecoveryCodeSave })),
  ),
};
