/**
 * The widget on each of its screens and their variants: a configuration, the state to mount with
 * and the fake client's answers. The screen fixture page and the accessibility tests render them.
 */
import type { WidgetConfig } from '../config.js';
import type { RenderedScreen } from '../machine/screens.js';
import type { MfaPrimaryInfo, WidgetState } from '../machine/state.js';
import {
  ACK,
  apiError,
  createFakeClient,
  discovered,
  organization,
  strengthVerdict,
  type FakeClient,
} from '@gatehouse/testing';

/** One way to show a screen. */
export interface FixtureCase {
  config: WidgetConfig;
  state: (state: WidgetState) => WidgetState;
  prepare?: (client: FakeClient) => void;
}

const ACME = organization();
const DISCOVERY: WidgetConfig = {
  products: ['emailMagicLinks', 'oauth', 'passwords'],
  authFlowType: 'discovery',
  oauthOptions: { providers: ['google', 'microsoft'] },
};
const PASSWORDS: WidgetConfig = { products: ['passwords'], authFlowType: 'discovery' };
const MFA_CONFIG: WidgetConfig = {
  products: ['passwords'],
  authFlowType: 'discovery',
  mfaProductInclude: ['totp', 'sms_otp'],
};

/** A 1×1 PNG, standing in for the server's QR code. */
const QR_CODE =
  'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAAAAAA6fptVAAAACklEQVR4nGNgAAAAAgABc3UBGAAAAABJRU5ErkJggg==';

const PRIMARY: MfaPrimaryInfo = {
  memberId: 'member-test-ada',
  organizationId: ACME.organization_id,
  organizationName: ACME.organization_name,
  memberPhoneNumber: '+12015550123',
  enrolledMfaMethods: ['totp', 'sms_otp'],
  organizationMfaOptionsSupported: [],
  postAuthScreen: 'LoggedIn',
};

const ENROLLMENT = {
  qrCode: QR_CODE,
  secret: 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP',
  recoveryCodes: ['ckss-2skx-ebow', 'spbc-424h-usy0', 'hi08-s2ky-ylk9', 'kqtp-fxse-1wuc'],
};

/** The state on a screen, with the organization chosen (as after the slug lookup). */
function on(screen: WidgetState['screen'], change: Partial<WidgetState> = {}) {
  return (state: WidgetState): WidgetState => ({
    ...state,
    flow: { type: 'organization', organization: ACME },
    ...change,
    screen,
  });
}

/** The state of an MFA screen of Ada, who may use both methods. */
function onMfa(
  screen: WidgetState['screen'],
  change: (mfa: WidgetState['mfa']) => Partial<WidgetState['mfa']> = () => ({}),
  form: WidgetState['form'] = { isSubmitting: false, error: null },
) {
  return (state: WidgetState): WidgetState => {
    const mfa = { ...state.mfa, primaryInfo: PRIMARY };
    return {
      ...on(screen)(state),
      form,
      mfa: { ...mfa, ...change(mfa) },
    };
  };
}

const failed = (error: string) => ({ isSubmitting: false, error });

/** One case per rendered screen; the compiler holds the list to the screen registry. */
export const SCREEN_CASES: Record<RenderedScreen, FixtureCase> = {
  Main: { config: DISCOVERY, state: (state) => state },
  Loading: { config: DISCOVERY, state: on('Loading') },
  LoggingIn: { config: DISCOVERY, state: on('LoggingIn') },
  EmailConfirmation: {
    config: DISCOVERY,
    state: on('EmailConfirmation', { magicLink: { email: 'ada@acme.test' } }),
  },
  Discovery: {
    config: DISCOVERY,
    prepare: (client) => client.setBootstrap({ createOrganizationEnabled: true }),
    state: (state) => ({
      ...state,
      screen: 'Discovery',
      discovery: {
        email: 'ada@acme.test',
        intermediateSessionToken: 'ist',
        discoveredOrganizations: [
          discovered('active_member'),
          discovered('invited_member', { organization_id: 'o2', organization_name: 'Umbrella' }),
          discovered('eligible_to_join_by_email_domain', {
            organization_id: 'o3',
            organization_name: 'Initech',
            organization_logo_url: QR_CODE,
          }),
        ],
      },
    }),
  },
  LoggedIn: { config: DISCOVERY, state: on('LoggedIn') },
  Error: { config: DISCOVERY, state: on('Error') },
  PasswordAuthenticate: {
    config: PASSWORDS,
    state: on('PasswordAuthenticate', {
      password: {
        email: 'ada@acme.test',
        resetEmail: null,
        resetToken: null,
        resetLinkProblem: null,
        requiredReset: null,
      },
    }),
  },
  PasswordForgotForm: { config: PASSWORDS, state: on('PasswordForgotForm') },
  PasswordSetNewConfirmation: {
    config: PASSWORDS,
    state: on('PasswordSetNewConfirmation', {
      password: {
        email: 'ada@acme.test',
        resetEmail: null,
        resetToken: null,
        resetLinkProblem: null,
        requiredReset: null,
      },
    }),
  },
  PasswordResetForm: {
    config: { ...PASSWORDS, authFlowType: 'passwordReset' },
    state: on('PasswordResetForm', {
      password: {
        email: '',
        resetEmail: 'ada@acme.test',
        resetToken: null,
        resetLinkProblem: null,
        requiredReset: null,
      },
    }),
    prepare: (client) => {
      client.answer('passwords.strengthCheck', async () => strengthVerdict());
    },
  },
  PasswordResetVerifyConfirmation: {
    config: PASSWORDS,
    state: on('PasswordResetVerifyConfirmation', {
      password: {
        email: 'ada@acme.test',
        resetEmail: null,
        resetToken: null,
        resetLinkProblem: null,
        requiredReset: null,
      },
    }),
  },
  MFAEnrollmentSelection: {
    config: MFA_CONFIG,
    state: onMfa('MFAEnrollmentSelection', () => ({ isEnrolling: true })),
  },
  SMSOTPEnrollment: {
    config: MFA_CONFIG,
    state: onMfa('SMSOTPEnrollment', () => ({ isEnrolling: true })),
  },
  SMSOTPEntry: {
    config: MFA_CONFIG,
    state: onMfa('SMSOTPEntry', (mfa) => ({
      smsOtp: {
        ...mfa.smsOtp,
        codeExpiration: Date.now() + 5 * 60_000,
        formattedDestination: '+1 201-555-0123',
      },
    })),
  },
  TOTPEnrollmentQRCode: {
    config: MFA_CONFIG,
    state: onMfa('TOTPEnrollmentQRCode', (mfa) => ({
      isEnrolling: true,
      totp: { ...mfa.totp, enrollment: ENROLLMENT },
    })),
  },
  TOTPEnrollmentManual: {
    config: MFA_CONFIG,
    state: onMfa('TOTPEnrollmentManual', (mfa) => ({
      isEnrolling: true,
      totp: { ...mfa.totp, enrollment: ENROLLMENT, displayMethod: 'manual' },
    })),
  },
  TOTPEntry: { config: MFA_CONFIG, state: onMfa('TOTPEntry') },
  RecoveryCodeEntry: { config: MFA_CONFIG, state: onMfa('RecoveryCodeEntry') },
  RecoveryCodeSave: {
    config: MFA_CONFIG,
    state: onMfa('RecoveryCodeSave', (mfa) => ({ totp: { ...mfa.totp, enrollment: ENROLLMENT } })),
  },
};

/** Variants of screens: each Error message, form errors, empty states, the other Main forms. */
const VARIANT_CASES: Record<string, FixtureCase> = {
  'Error-email_magic_link': {
    config: DISCOVERY,
    state: on('Error', { errorType: 'email_magic_link' }),
  },
  'Error-organization': { config: DISCOVERY, state: on('Error', { errorType: 'organization' }) },
  'Main-organization-passwords': { config: PASSWORDS, state: on('Main') },
  'Main-email-error': {
    config: DISCOVERY,
    state: (state) => ({ ...state, form: failed('Something went wrong. Please try again.') }),
  },
  'Discovery-empty-create': {
    config: DISCOVERY,
    prepare: (client) => client.setBootstrap({ createOrganizationEnabled: true }),
    state: (state) => ({
      ...state,
      screen: 'Discovery',
      discovery: {
        email: 'ada@acme.test',
        intermediateSessionToken: 'ist',
        discoveredOrganizations: [],
      },
    }),
  },
  'Discovery-empty': {
    config: DISCOVERY,
    prepare: (client) => client.setBootstrap({ createOrganizationEnabled: false }),
    state: (state) => ({
      ...state,
      screen: 'Discovery',
      discovery: {
        email: 'ada@acme.test',
        intermediateSessionToken: 'ist',
        discoveredOrganizations: [],
      },
    }),
  },
  'PasswordAuthenticate-error': {
    config: PASSWORDS,
    state: on('PasswordAuthenticate', {
      password: {
        email: 'ada@acme.test',
        resetEmail: null,
        resetToken: null,
        resetLinkProblem: null,
        requiredReset: null,
      },
      form: failed('The email or password is incorrect.'),
    }),
  },
  'SMSOTPEntry-error': {
    config: MFA_CONFIG,
    state: onMfa(
      'SMSOTPEntry',
      (mfa) => ({ smsOtp: { ...mfa.smsOtp, codeExpiration: Date.now() + 60_000 } }),
      failed('Invalid passcode, please try again.'),
    ),
  },
  /** The code ran out: entering the screen sends a new one, which is still on its way. */
  'SMSOTPEntry-expired': {
    config: MFA_CONFIG,
    state: onMfa('SMSOTPEntry', (mfa) => ({
      smsOtp: { ...mfa.smsOtp, codeExpiration: Date.now() - 1 },
    })),
    prepare: (client) => {
      client.answer('otps.sms.send', () => new Promise(() => {}));
    },
  },
  'TOTPEntry-error': {
    config: MFA_CONFIG,
    state: onMfa('TOTPEntry', () => ({}), failed('Invalid passcode, please try again.')),
  },
  'RecoveryCodeEntry-error': {
    config: MFA_CONFIG,
    state: onMfa('RecoveryCodeEntry', () => ({}), failed('Invalid backup code.')),
  },
  /** The registration cannot be created: the screen's error and an error toast. */
  'TOTPEnrollmentQRCode-failed': {
    config: MFA_CONFIG,
    state: onMfa('TOTPEnrollmentQRCode', () => ({ isEnrolling: true })),
    prepare: (client) => {
      client.answer('totp.create', () =>
        Promise.reject(apiError('unauthorized_credentials', 'The request was not authorized.')),
      );
    },
  },
};

/** Every case the page can render, by name. */
export const FIXTURE_CASES: Record<string, FixtureCase> = { ...SCREEN_CASES, ...VARIANT_CASES };

/** A fake client answering what the case's screen asks on its own. */
export function fixtureClient(fixture: FixtureCase): FakeClient {
  const client = createFakeClient();
  client.answer('organization.getBySlug', async () => ({ ...ACK, organization: ACME }));
  fixture.prepare?.(client);
  return client;
}
