/** Constants of the widget (docs/widget.md §9) and the protocol (docs/protocol.md §4, §14). */

/** Background session refresh interval. */
export const SESSION_REFRESH_INTERVAL_MS = 180_000;
/** Backoff base: a retry waits `2000 × 2^min(n, 7)` ms ± jitter. */
export const REFRESH_BACKOFF_BASE_MS = 2000;
export const REFRESH_BACKOFF_MAX_EXPONENT = 7;
export const REFRESH_BACKOFF_JITTER_MS = 175;

/** Session duration bounds accepted by the server, in minutes. */
export const SESSION_DURATION_MIN_MINUTES = 5;
export const SESSION_DURATION_MAX_MINUTES = 527_040;
/** Widget configuration default session duration. */
export const DEFAULT_SESSION_DURATION_MINUTES = 60;
/** Fallback for password login and reset by e-mail. */
export const PASSWORD_SESSION_DURATION_FALLBACK_MINUTES = 30;

/** Lifetimes, in minutes. */
export const INTERMEDIATE_SESSION_MINUTES = 10;
export const SESSION_JWT_MINUTES = 5;
export const LOGIN_LINK_MINUTES = 60;
export const DISCOVERY_LINK_MINUTES = 60;
export const SIGNUP_LINK_MINUTES = 7 * 24 * 60;
export const RESET_LINK_DEFAULT_MINUTES = 30;
/** An invitation link: a week unless the inviter says otherwise, 5 minutes to a week (§7.1). */
export const INVITE_LINK_DEFAULT_MINUTES = 7 * 24 * 60;
export const INVITE_LINK_MIN_MINUTES = 5;
export const INVITE_LINK_MAX_MINUTES = 7 * 24 * 60;
export const SMS_CODE_SECONDS = 120;
export const TOTP_PENDING_MINUTES = 60;
/** SSO and OAuth tokens, and the sign-in requests sent to identity providers (§14). */
export const FEDERATED_TOKEN_MINUTES = 10;

/** Telemetry batching. */
export const TELEMETRY_BATCH_SIZE = 15;
export const TELEMETRY_FLUSH_MS = 800;

/** MFA one-time code length and the SMS countdown refresh. */
export const OTP_LENGTH = 6;
export const COUNTDOWN_REFRESH_MS = 1000;
/** Password strength check debounce. */
export const STRENGTH_CHECK_DEBOUNCE_MS = 500;

/** Default phone region. */
export const DEFAULT_PHONE_REGION = 'US';

/** Widget layout constants, in px. */
export const WIDGET_DEFAULT_WIDTH_PX = 400;
export const BUTTON_HEIGHT_PX = 45;
export const INPUT_HEIGHT_PX = 47;
export const OTP_BOX_PX = 46;
export const OTP_GAP_PX = 8;

/** Default names of the client's cookies and storage keys (docs/protocol.md §11). */
export const DEFAULT_SESSION_COOKIE = 'gatehouse_session';
export const DEFAULT_SESSION_JWT_COOKIE = 'gatehouse_session_jwt';
export const DEFAULT_IST_COOKIE = 'gatehouse_intermediate_session_token';
export const DEFAULT_STORAGE_PREFIX = 'gatehouse_sdk_state_';

/** The SDK API path prefix. */
export const SDK_PREFIX = '/sdk/v1';
