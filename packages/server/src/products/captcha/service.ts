/**
 * Captcha (docs/protocol.md §6, §7): a project's provider settings, what bootstrap publishes of
 * them, and the check every `D` call passes when captcha is on: the token is sent to the
 * provider before anything else happens, every time (tokens are single-use there; no verdict is
 * cached).
 */
import {
  DEFAULT_CAPTCHA_MIN_SCORE,
  type BootstrapData,
  type CaptchaProviderName,
  type CaptchaSettings,
} from '@gatehouse/protocol';
import { captchaSettingsFields } from '@gatehouse/protocol/endpoints';
import type { Selectable } from 'kysely';
import { isoAt, type Context } from '../../context.js';
import { checkInput, fail, isFailure, type Failure } from '../../result.js';
import type { CaptchaSettingsTable } from '../../store/schema.js';
import type { Project } from '../../tenancy/projects/service.js';
import { captchaProviderUnreachable, captchaTokenMissing, captchaTokenRefused } from './errors.js';
import { CAPTCHA_PROVIDER_REGISTRY } from './providers.js';
import { captchaRow, saveCaptchaRow } from './store.js';

/** The longest token sent on to a provider; real ones are about 2 KB at most. */
const MAX_TOKEN_LENGTH = 4096;

type Row = Selectable<CaptchaSettingsTable>;

const providerOf = (row: Row | undefined): CaptchaProviderName =>
  row && row.provider in CAPTCHA_PROVIDER_REGISTRY
    ? (row.provider as CaptchaProviderName)
    : 'turnstile';

/** On, with the keys to check tokens: only then does any call need a token. */
function isOn(row: Row | undefined): row is Row & { secret_encrypted: string } {
  return row?.enabled === 1 && row.site_key !== '' && row.secret_encrypted !== null;
}

function toSettings(row: Row | undefined): CaptchaSettings {
  return {
    enabled: isOn(row),
    provider: providerOf(row),
    site_key: row?.site_key ?? '',
    secret_key_set: (row?.secret_encrypted ?? null) !== null,
    min_score: row?.min_score ?? DEFAULT_CAPTCHA_MIN_SCORE,
  };
}

/** The project's captcha settings (never the secret key). */
export async function captchaSettings(ctx: Context, project: Project): Promise<CaptchaSettings> {
  return toSettings(await captchaRow(ctx.db, project.id));
}

/**
 * A change of the captcha settings as any caller gives it (`PUT /v1/b2b/captcha`'s body,
 * `gatehouse captcha set`, the admin interface); fields left out keep their value.
 */
export interface CaptchaSettingsChange {
  enabled?: boolean | undefined;
  /** One of `CAPTCHA_PROVIDERS`; anything else is refused with `invalid_request`. */
  provider?: string | undefined;
  site_key?: string | undefined;
  secret_key?: string | undefined;
  /** The lowest reCAPTCHA score accepted, 0 to 1. */
  min_score?: number | undefined;
}

/**
 * Changes the project's captcha settings; fields left out keep their value. The change must pass
 * the management API's schema (a known provider, a score from 0 to 1, keys neither empty nor too
 * long), checked here so that every way in refuses the same input. Turning captcha on needs a
 * site key and a secret key: a setting that could never pass a token is refused.
 *
 * @example
 * await setCaptchaSettings(ctx, project, { provider: 'turnstile', site_key, secret_key });
 */
export async function setCaptchaSettings(
  ctx: Context,
  project: Project,
  change: CaptchaSettingsChange,
): Promise<CaptchaSettings | Failure> {
  const input = checkInput(captchaSettingsFields, change);
  if (isFailure(input)) return input;
  const current = await captchaRow(ctx.db, project.id);
  const row: CaptchaSettingsTable = {
    project_id: project.id,
    enabled: (input.enabled ?? current?.enabled === 1) ? 1 : 0,
    provider: input.provider ?? providerOf(current),
    site_key: input.site_key ?? current?.site_key ?? '',
    secret_encrypted:
      input.secret_key !== undefined
        ? ctx.box.seal(input.secret_key)
        : (current?.secret_encrypted ?? null),
    min_score: input.min_score ?? current?.min_score ?? DEFAULT_CAPTCHA_MIN_SCORE,
    updated_at: isoAt(ctx.now()),
  };
  if (row.enabled === 1 && (row.site_key === '' || row.secret_encrypted === null)) {
    return fail('invalid_request', 'Give a site_key and a secret_key to turn captcha on.');
  }
  await saveCaptchaRow(ctx.db, row);
  return toSettings(row);
}

/** What bootstrap publishes (docs/protocol.md §6): `{enabled: false}`, or the site key too. */
export async function bootstrapCaptcha(
  ctx: Context,
  project: Project,
): Promise<BootstrapData['captcha_settings']> {
  const row = await captchaRow(ctx.db, project.id);
  return isOn(row) ? { enabled: true, siteKey: row.site_key } : { enabled: false };
}

/**
 * Checks a `D` call's `captcha_token` with the project's provider: null when captcha is off or
 * the provider accepts the token; otherwise 400 `captcha_required` (none sent), 400
 * `invalid_captcha` (refused) or 503 `captcha_unavailable` (no usable answer in time).
 *
 * @example
 * const refused = await checkCaptcha(ctx, project, body.captcha_token, request.ip);
 * if (refused) unwrap(refused);
 */
export async function checkCaptcha(
  ctx: Context,
  project: Project,
  token: unknown,
  remoteIp: string,
): Promise<Failure | null> {
  const row = await captchaRow(ctx.db, project.id);
  if (!isOn(row)) return null;
  if (token === undefined || token === null || token === '') return captchaTokenMissing();
  if (typeof token !== 'string' || token.length > MAX_TOKEN_LENGTH) return captchaTokenRefused();
  const provider = CAPTCHA_PROVIDER_REGISTRY[providerOf(row)];
  const expect = { siteKey: row.site_key, minScore: row.min_score };
  const form = new URLSearchParams({
    secret: ctx.box.open(row.secret_encrypted),
    response: token,
    remoteip: remoteIp,
    ...provider.extraFields(expect),
  });
  let answer: unknown;
  try {
    const response = await fetch(ctx.config.captchaVerifyUrl ?? provider.verifyUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: form,
      signal: AbortSignal.timeout(ctx.config.captchaTimeoutMs),
    });
    if (!response.ok) throw new Error(`HTTP ${response.status}`);
    answer = await response.json();
  } catch (error) {
    ctx.log.warn(
      { provider: row.provider, err: error instanceof Error ? error.message : String(error) },
      'captcha provider unreachable',
    );
    return captchaProviderUnreachable();
  }
  if (typeof answer !== 'object' || answer === null || Array.isArray(answer)) {
    return captchaProviderUnreachable();
  }
  const fields = answer as Record<string, unknown>;
  if (fields.success === true && provider.accepts(fields, expect)) return null;
  const codes = Array.isArray(fields['error-codes']) ? fields['error-codes'] : [];
  // A wrong secret refuses every token: worth the operator's attention, not the caller's.
  if (codes.some((c) => typeof c === 'string' && c.includes('secret'))) {
    ctx.log.warn({ provider: row.provider, codes }, 'captcha provider refused the secret key');
  }
  return captchaTokenRefused();
}
