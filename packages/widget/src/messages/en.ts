/** Every user-visible string of the widget, word for word as docs/widget.md gives them. */

/**
 * The English message table, the fallback of every other locale's. Placeholders are `{name}`; a
 * `Format` (`format.ts`) fills them, and their names are checked at compile time.
 */
export const en = {
  // Main
  'main.heading.discovery': 'Sign up or log in',
  'main.heading.organization': 'Continue to {organizationName}',
  'main.divider': 'or',
  'main.usePassword': 'Use a password instead',
  'main.oauth.google': 'Continue with Google',
  'main.oauth.microsoft': 'Continue with Microsoft',
  'main.sso': 'Continue with {displayName}',
  'main.appLogo': 'Logo',
  'main.organizationLogo': '{organizationName} logo',
  'oneTap.failed': 'One Tap could not load',
  watermark: 'Powered by Gatehouse',

  // E-mail form
  'email.label': 'Email',
  'email.placeholder': 'example@email.com',
  'email.submit': 'Continue with email',
  'email.invalid': 'Invalid email address',
  'email.noAccess':
    '{email} does not have access to {organizationName}. If you think this is a mistake, contact your admin.',

  // EmailConfirmation
  'emailConfirmation.heading': 'Check your email',
  'emailConfirmation.sentTo': 'An email was sent to {email}.',
  'emailConfirmation.didntGetIt': "Didn't get it?",
  'emailConfirmation.tryAgain': 'Try again',
  'webmail.gmail': 'Gmail',
  'webmail.outlook': 'Outlook',
  'webmail.yahoo': 'Yahoo Mail',

  // LoggedIn
  'loggedIn.heading': 'Success!',
  'loggedIn.body': 'You have successfully logged in.',

  // Discovery
  'discovery.heading': 'Select an organization to continue',
  'discovery.join': 'Join',
  'discovery.acceptInvite': 'Accept Invite',
  'discovery.create': 'Create an organization',
  'discovery.emptyCreate.heading': 'Create an organization to get started',
  'discovery.emptyCreate.body':
    '{email} does not have an account. Think this is a mistake? Try a different email address, or contact your admin.',
  'discovery.emptyNoCreate.heading': '{email} does not belong to any organizations.',
  'discovery.emptyNoCreate.body':
    'Make sure your email address is correct. Otherwise, you might need to be invited by your admin.',
  'discovery.tryDifferentEmail': 'Try a different email address',

  // Error
  'error.heading': 'Looks like there was an error!',
  'error.backToStart': 'Back to sign in',
  'error.default': 'Something went wrong. Try again later or contact your admin for help.',
  'error.emailMagicLink':
    'Something went wrong. Your login link may have expired, been revoked, or been used more than once. Request a new login link to try again, or contact your admin for help.',
  'error.organization':
    'The organization you are looking for could not be found. If you think this is a mistake, contact your admin.',

  // Captcha (docs/widget.md §8)
  'captcha.failed': "We couldn't complete the security check. Please try again.",
  'captcha.unavailable':
    'The security check is unavailable right now. Please try again in a moment.',

  // Loading
  'loading.loggingIn': 'Logging in...',
  'loading.label': 'Loading',

  // Passwords
  'common.back': 'Back',
  'password.label': 'Password',
  'password.newLabel': 'New password',
  'password.show': 'Show password',
  'password.strength': 'Password strength',
  'password.requirementMet': 'Requirement met:',
  'password.requirementMissing': 'Requirement not met:',
  'password.checking': 'Checking your password…',
  'passwordAuthenticate.heading': 'Log in with email and password',
  'passwordAuthenticate.continue': 'Continue',
  'passwordAuthenticate.help': 'Having trouble signing in? Get help',
  'passwordAuthenticate.invalid':
    'Invalid email or password. Please try again or use the link below to get help.',
  'passwordResetForm.heading': 'Set a new password',
  'passwordResetForm.linkMissing':
    'To set a new password, open the link in your password reset email. To get one, choose "Having trouble signing in? Get help" when you log in.',
  'passwordResetForm.linkUnusable':
    'This password reset link is unknown, has expired or has already been used. To get a new one, choose "Having trouble signing in? Get help" when you log in.',
  'passwordResetVerify.heading': 'Verify your email first.',
  'passwordResetVerify.sentTo': 'A login link was sent to you at {email}.',
  'passwordResetVerify.didntGetIt': "Didn't get it?",
  'passwordResetVerify.resend': 'Resend email',
  'passwordForgot.heading': 'Check your email for help signing in!',
  'passwordForgot.body':
    "We'll email you a login link to sign in to your account directly or reset your password if you have one.",
  'passwordSetNew.heading': 'Check your email!',
  'passwordSetNew.resend': 'Resend email',
  'passwordSetNew.resent': 'Email resent',
  'passwordSetNew.resetRequired':
    'Your organization requires a new password before you can log in. Use the link we sent to set one.',
  'password.ludsLength': 'Must be at least {minimum} characters long',
  'password.ludsComplexity':
    'Must contain {n} of the following: uppercase letter, lowercase letter, number, symbol',
  'password.breached':
    'This password may have been used on a different site that experienced a security issue. Please choose another password.',
  'password.nonMemberResetFailed':
    'We were unable to verify your email. Please contact your admin.',
  'password.magicLinkResetFailed':
    'We were unable to verify your email. Please contact your admin for help.',

  // MFA
  'mfaEnrollment.heading': 'Set up Multi-Factor Authentication',
  'mfaEnrollment.body':
    'Your organization requires an additional form of verification to make your account more secure.',
  'mfa.totpOption': 'Use an authenticator app',
  'mfa.smsOption': 'Text me a code',
  'smsEnrollment.heading': 'Enter your phone number to set up Multi-Factor Authentication',
  'smsEnrollment.placeholder': '(123) 456-7890',
  'smsEntry.heading': 'Enter passcode',
  'smsEntry.sentTo': 'A 6-digit passcode was sent to you at {destination}.',
  'smsEntry.resend': 'Resend code',
  'smsEntry.expired': 'Your code has expired.',
  'totpQr.heading': 'Scan the QR code to link your authenticator app',
  'totpQr.trouble': 'Having trouble scanning?',
  'totpManual.heading': 'Having trouble scanning the QR code?',
  'totpManual.rescan': 'Try to scan the QR code again',
  'totpManual.copied': 'Code copied',
  'totpManual.copyFailed': "Couldn't copy code to clipboard",
  'totpEntry.heading': 'Enter verification code',
  'totpEntry.body': 'Enter the 6-digit code from your authenticator app.',
  'totpEntry.backupCode': "Can't access your authenticator app? Use a backup code",
  'totpEntry.smsInstead': 'Text me a code instead',
  'recoveryEntry.heading': 'Enter backup code',
  'recoveryEntry.placeholder': 'Enter backup code',
  'recoverySave.heading': 'Save your backup codes!',
  'recoverySave.body':
    'This is the only time you will be able to access and save your backup codes.',
  'recoverySave.download': 'Download file',
  'recoverySave.fileName': '{organizationName}-backup-codes.txt',
  'recoverySave.defaultFileName': 'backup-codes.txt',
  'recoverySave.copyAll': 'Copy all',
  'recoverySave.copied': 'Copied',
  'recoverySave.copyFailed': "Couldn't copy codes to clipboard",
  'recoverySave.done': 'Done',
  'totpEntry.enrollingHint':
    "If the verification code doesn't work, go back to your authenticator app to get a new code.",
  'totpQr.alt': 'QR code for your authenticator app',
  'smsEntry.expiresIn': 'Your code expires in {time}.',
  'otp.label': 'Passcode',
  'phone.country': 'Country',
  'phone.label': 'Phone number',
  'mfa.invalidBackupCode': 'Invalid backup code, please try again.',
  'mfa.invalidPasscode': 'Invalid passcode, please try again.',
  'phone.invalid': 'Invalid phone number, please try again.',
  'phone.duplicate':
    'A member with the specified phone number already exists for this organization.',
  'common.continue': 'Continue',
} as const;

/** A key of the message table. */
export type MessageKey = keyof typeof en;

/** The placeholder names of a message template. */
type Placeholders<S extends string> = S extends `${string}{${infer Name}}${infer Rest}`
  ? Name | Placeholders<Rest>
  : never;

/**
 * A message table of any locale: a string for every key. Placeholders are kept exactly as in
 * {@link en} (`messages/locales.test.ts` checks the shipped tables).
 */
export type MessageTable = { readonly [K in MessageKey]: string };

/** The arguments a message takes: none, or one value per placeholder of its English text. */
export type MessageArgs<K extends MessageKey> = [Placeholders<(typeof en)[K]>] extends [never]
  ? []
  : [values: Record<Placeholders<(typeof en)[K]>, string>];
