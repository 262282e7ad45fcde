/** Turning failed calls into the words the user sees and the shape the host's onError receives. */
import type { ErrorType } from '@gatehouse/protocol';
import type { Format } from '../messages/format.js';

/** The fields of an API error the widget reads. */
export interface ApiErrorFields {
  /** As the server sent it: a type the widget does not know matches none of its checks. */
  error_type: ErrorType;
  error_message: string;
}

/**
 * The API error inside a rejection, if it is one. Read by shape rather than by class, so that
 * errors from a client bundled separately from the widget are recognised too.
 */
export function apiErrorOf(error: unknown): ApiErrorFields | null {
  if (typeof error !== 'object' || error === null) return null;
  const { error_type, error_message } = error as Partial<Record<keyof ApiErrorFields, unknown>>;
  if (typeof error_type !== 'string' || typeof error_message !== 'string') return null;
  // Typed as the closed set so that the sets below are checked; an unknown type passes through.
  return { error_type: error_type as ErrorType, error_message };
}

/** What the host's onError callback receives. */
export interface WidgetError {
  message: string;
  error_type?: ErrorType;
}

/** Captcha failures the server reports (docs/protocol.md §7). */
const CAPTCHA_ERROR_TYPES: ReadonlySet<ErrorType> = new Set<ErrorType>([
  'captcha_required',
  'invalid_captcha',
]);

/**
 * The person's words for a failed captcha, or null when the error is something else: the
 * client's GatehouseCaptchaError (the provider's script did not load, or the challenge failed;
 * read by name, like API errors by shape) or the server refusing or not checking the token.
 */
export function captchaErrorMessage(error: unknown, format: Format): string | null {
  if (error instanceof Error && error.name === 'GatehouseCaptchaError') {
    return format('captcha.failed');
  }
  const api = apiErrorOf(error);
  if (api?.error_type === 'captcha_unavailable') return format('captcha.unavailable');
  if (api && CAPTCHA_ERROR_TYPES.has(api.error_type)) return format('captcha.failed');
  return null;
}

/**
 * Describes any rejection for the host: the server's message and type, or the error's message;
 * `format` gives the widget's own words when there is neither.
 */
export function describeError(error: unknown, format: Format): WidgetError {
  const captcha = captchaErrorMessage(error, format);
  const api = apiErrorOf(error);
  if (captcha) return api ? { message: captcha, error_type: api.error_type } : { message: captcha };
  if (api) return { message: api.error_message, error_type: api.error_type };
  if (error instanceof Error && error.message) return { message: error.message };
  return { message: format('error.default') };
}

/** Error types that mean the e-mail may not join the organization (docs/widget.md §5). */
export const NO_ACCESS_ERROR_TYPES: ReadonlySet<ErrorType> = new Set<ErrorType>([
  'email_jit_provisioning_not_allowed',
  'invalid_email_for_jit_provisioning',
]);

/** The message under the e-mail form when sending the link failed (docs/widget.md §5, §8). */
export function emailSendErrorMessage(
  error: unknown,
  email: string,
  organizationName: string | null,
  format: Format,
): string {
  const api = apiErrorOf(error);
  if (api && NO_ACCESS_ERROR_TYPES.has(api.error_type) && organizationName) {
    return format('email.noAccess', { email, organizationName });
  }
  return describeError(error, format).message;
}
