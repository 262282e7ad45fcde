/**
 * Which screens' code to fetch while a screen shows. Loaded on its own after the first screen, so
 * the table costs the first screen nothing.
 */
import type { Product } from '../config.js';
import type { RenderedScreen } from '../machine/screens.js';
import { LOADERS, type LazyScreen } from './registry.js';

/**
 * The screens a person most likely sees next from each screen: their code is fetched while this
 * one shows, so the next step does not wait for it. Screens reached only by a product are listed
 * with it.
 */
const NEXT_SCREENS: Partial<
  Record<RenderedScreen, readonly (LazyScreen | [Product, LazyScreen])[]>
> = {
  Main: [
    ['emailMagicLinks', 'EmailConfirmation'],
    ['passwords', 'PasswordAuthenticate'],
  ],
  Loading: ['LoggedIn'],
  LoggingIn: ['LoggedIn'],
  Discovery: ['LoggedIn'],
  PasswordAuthenticate: ['LoggedIn', 'PasswordForgotForm'],
  PasswordForgotForm: ['PasswordSetNewConfirmation', 'PasswordResetVerifyConfirmation'],
  PasswordResetForm: ['LoggedIn'],
  MFAEnrollmentSelection: ['TOTPEnrollmentQRCode', 'SMSOTPEnrollment'],
  SMSOTPEnrollment: ['SMSOTPEntry'],
  SMSOTPEntry: ['LoggedIn', 'RecoveryCodeSave'],
  TOTPEnrollmentQRCode: ['TOTPEntry', 'TOTPEnrollmentManual'],
  TOTPEnrollmentManual: ['TOTPEntry'],
  TOTPEntry: ['LoggedIn', 'RecoveryCodeSave'],
  RecoveryCodeEntry: ['RecoveryCodeSave', 'LoggedIn'],
  RecoveryCodeSave: ['LoggedIn'],
};

/**
 * Starts fetching the code of the screens likely to follow `screen` (see `NEXT_SCREENS`) and
 * returns their names. A failed fetch is ignored: the screen retries when it is shown.
 */
export function preloadNextScreens(
  screen: RenderedScreen,
  products: readonly Product[],
): LazyScreen[] {
  const next = (NEXT_SCREENS[screen] ?? []).flatMap((entry) => {
    if (typeof entry === 'string') return [entry];
    const [product, target] = entry;
    return products.includes(product) ? [target] : [];
  });
  for (const target of next) LOADERS[target]().catch(() => undefined);
  return next;
}
