/** The screen registry: every screen of the widget declared once (docs/widget.md §2). */

/** Every screen of the product, in the order docs/widget.md §2 lists them. */
export const SCREENS = [
  'Main',
  'EmailConfirmation',
  'LoggedIn',
  'Discovery',
  'Error',
  /** Collects the e-mail: the password form Main shows when passwords are its only e-mail method. */
  'PasswordEmailForm',
  'PasswordAuthenticate',
  'PasswordResetForm',
  'PasswordResetVerifyConfirmation',
  'PasswordForgotForm',
  'PasswordSetNewConfirmation',
  'MFAEnrollmentSelection',
  'SMSOTPEnrollment',
  'SMSOTPEntry',
  'TOTPEnrollmentQRCode',
  'TOTPEnrollmentManual',
  'TOTPEntry',
  'RecoveryCodeEntry',
  'RecoveryCodeSave',
  /** 'Logging in...' with a spinner. */
  'LoggingIn',
  /** A spinner alone. */
  'Loading',
] as const;

/** The name of a screen. */
export type Screen = (typeof SCREENS)[number];

/** The screens this release renders. */
export const RENDERED_SCREENS = [
  'Main',
  'EmailConfirmation',
  'LoggedIn',
  'Discovery',
  'Error',
  'LoggingIn',
  'Loading',
  'PasswordAuthenticate',
  'PasswordForgotForm',
  'PasswordSetNewConfirmation',
  'PasswordResetForm',
  'PasswordResetVerifyConfirmation',
  'MFAEnrollmentSelection',
  'SMSOTPEnrollment',
  'SMSOTPEntry',
  'TOTPEnrollmentQRCode',
  'TOTPEnrollmentManual',
  'TOTPEntry',
  'RecoveryCodeEntry',
  'RecoveryCodeSave',
] as const satisfies readonly Screen[];

/** A screen that has a component. */
export type RenderedScreen = (typeof RENDERED_SCREENS)[number];

const rendered: ReadonlySet<Screen> = new Set(RENDERED_SCREENS);

/** Whether a screen has a component in this release. */
export function isRenderedScreen(screen: Screen): screen is RenderedScreen {
  return rendered.has(screen);
}
