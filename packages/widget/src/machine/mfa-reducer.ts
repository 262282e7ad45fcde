/** The MFA part of the state machine: its events and their transitions (docs/widget.md §4). */
import type { FullSessionResult, MfaMethod } from '@gatehouse/protocol';
import { enrollmentScreen } from './routing.js';
import type { Screen } from './screens.js';
import { EMPTY_MFA_STATE, IDLE_FORM, type MfaState, type WidgetState } from './state.js';

/** The MFA screens a member can move between by hand. */
export type MfaScreenRequest = Extract<
  Screen,
  | 'SMSOTPEntry'
  | 'TOTPEntry'
  | 'RecoveryCodeEntry'
  | 'TOTPEnrollmentQRCode'
  | 'TOTPEnrollmentManual'
>;

/** What can happen during MFA. */
export type MfaEvent =
  /** MFAEnrollmentSelection: the member picked a method to set up. */
  | { type: 'MFA_METHOD_CHOSEN'; method: MfaMethod }
  /** A move between MFA screens: the method switches, QR and manual entry, backup codes. */
  | { type: 'MFA_SCREEN_REQUESTED'; screen: MfaScreenRequest }
  | { type: 'SMS_SEND_STARTED' }
  /** A code was sent; `codeExpiration` is epoch milliseconds. */
  | {
      type: 'SMS_SENT';
      codeExpiration: number;
      /** The number as shown to the member, when the widget knows it. */
      destination: string | null;
      enrolledNumber: MfaState['smsOtp']['enrolledNumber'];
    }
  /** `now` marks a code that never came as expired, so the entry screen says so. */
  | { type: 'SMS_SEND_FAILED'; message: string; now: number }
  | { type: 'TOTP_CREATE_STARTED' }
  /** A registration was created for this member and organization. */
  | {
      type: 'TOTP_CREATED';
      memberId: string;
      organizationId: string;
      enrollment: NonNullable<MfaState['totp']['enrollment']>;
    }
  | { type: 'TOTP_CREATE_FAILED'; message: string }
  /** The second factor was accepted; an enrollment first shows its backup codes. */
  | { type: 'MFA_SUCCEEDED'; result: FullSessionResult; saveRecoveryCodes: boolean }
  /** 'Done' on RecoveryCodeSave. */
  | { type: 'RECOVERY_CODES_SAVED' };

/** Leaves MFA for the screen that follows it (LoggedIn, or the reset form after a reset link). */
function leaveMfa(state: WidgetState): WidgetState {
  const screen = state.mfa.primaryInfo?.postAuthScreen ?? 'LoggedIn';
  return { ...state, screen, mfa: EMPTY_MFA_STATE, form: IDLE_FORM };
}

/** The MFA part of the reducer (docs/widget.md §4 "SMS", "TOTP", "Recovery code"). */
export function reduceMfa(state: WidgetState, event: MfaEvent): WidgetState {
  const { mfa } = state;
  switch (event.type) {
    case 'MFA_METHOD_CHOSEN':
      return {
        ...state,
        screen: enrollmentScreen(event.method),
        mfa: { ...mfa, isEnrolling: true },
        form: IDLE_FORM,
      };

    case 'MFA_SCREEN_REQUESTED': {
      const displayMethod =
        event.screen === 'TOTPEnrollmentManual'
          ? 'manual'
          : event.screen === 'TOTPEnrollmentQRCode'
            ? 'qr'
            : mfa.totp.displayMethod;
      return {
        ...state,
        screen: event.screen,
        mfa: { ...mfa, totp: { ...mfa.totp, displayMethod } },
        form: IDLE_FORM,
      };
    }

    case 'SMS_SEND_STARTED':
      return {
        ...state,
        mfa: { ...mfa, smsOtp: { ...mfa.smsOtp, isSending: true, sendError: null } },
      };

    case 'SMS_SENT':
      return {
        ...state,
        screen: 'SMSOTPEntry',
        mfa: {
          ...mfa,
          smsOtp: {
            ...mfa.smsOtp,
            isSending: false,
            sendError: null,
            codeExpiration: event.codeExpiration,
            formattedDestination: event.destination ?? mfa.smsOtp.formattedDestination,
            enrolledNumber: event.enrolledNumber ?? mfa.smsOtp.enrolledNumber,
          },
        },
        form: IDLE_FORM,
      };

    case 'SMS_SEND_FAILED':
      return {
        ...state,
        mfa: {
          ...mfa,
          smsOtp: {
            ...mfa.smsOtp,
            isSending: false,
            sendError: event.message,
            codeExpiration: mfa.smsOtp.codeExpiration ?? event.now,
          },
        },
      };

    case 'TOTP_CREATE_STARTED':
      return { ...state, mfa: { ...mfa, totp: { ...mfa.totp, isCreating: true, error: null } } };

    case 'TOTP_CREATED': {
      // An answer for another member or organization (MFA restarted meanwhile) is dropped.
      const primary = mfa.primaryInfo;
      const matches =
        primary?.memberId === event.memberId && primary.organizationId === event.organizationId;
      const totp = { ...mfa.totp, isCreating: false };
      if (!matches) return { ...state, mfa: { ...mfa, totp } };
      return { ...state, mfa: { ...mfa, totp: { ...totp, enrollment: event.enrollment } } };
    }

    case 'TOTP_CREATE_FAILED':
      return {
        ...state,
        mfa: { ...mfa, totp: { ...mfa.totp, isCreating: false, error: event.message } },
      };

    case 'MFA_SUCCEEDED':
      if (!event.saveRecoveryCodes) return leaveMfa(state);
      return {
        ...state,
        screen: 'RecoveryCodeSave',
        mfa: { ...mfa, completedResult: event.result },
        form: IDLE_FORM,
      };

    case 'RECOVERY_CODES_SAVED':
      return leaveMfa(state);
  }
}
