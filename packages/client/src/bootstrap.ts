/** Project bootstrap (docs/protocol.md §6): fetched once, cached, with safe defaults when it fails. */
import type { BootstrapData } from '@gatehouse/protocol';
import { readJson, writeJson } from './storage.js';
import type { BootstrapConfig } from './types.js';

/**
 * What the client assumes without a bootstrap: nothing optional is on, so a failed fetch can only
 * hide features (watermark, captcha, PKCE, organization creation, permissions), never weaken them.
 * It is also what a client knows on a first visit, before the fetch answers, and so what a
 * server-rendered widget is rendered with.
 *
 * @example
 * defaultBootstrap().displayWatermark; // false
 */
export function defaultBootstrap(): BootstrapConfig {
  return {
    displayWatermark: false,
    captchaSettings: { enabled: false },
    cnameDomain: null,
    emailDomains: [],
    pkceRequiredForEmailMagicLinks: false,
    pkceRequiredForPasswordResets: false,
    pkceRequiredForOAuth: false,
    pkceRequiredForSso: false,
    slugPattern: null,
    createOrganizationEnabled: false,
    passwordConfig: null,
    runDFPProtectedAuth: false,
    rbacPolicy: null,
    raw: null,
  };
}

/**
 * The client's view of a server answer, or null when the answer is unusable. The protocol makes
 * a missing `password_config` key invalidate the whole answer.
 */
export function toBootstrapConfig(data: unknown): BootstrapConfig | null {
  if (typeof data !== 'object' || data === null || !('password_config' in data)) return null;
  const d = data as BootstrapData;
  const passwordConfig = d.password_config;
  return {
    displayWatermark: !d.disable_sdk_watermark,
    captchaSettings:
      typeof d.captcha_settings === 'object' && d.captcha_settings !== null
        ? { ...d.captcha_settings }
        : { enabled: false },
    cnameDomain: d.cname_domain ?? null,
    emailDomains: Array.isArray(d.email_domains) ? d.email_domains : [],
    pkceRequiredForEmailMagicLinks: d.pkce_required_for_email_magic_links === true,
    pkceRequiredForPasswordResets: d.pkce_required_for_password_resets === true,
    pkceRequiredForOAuth: d.pkce_required_for_oauth === true,
    pkceRequiredForSso: d.pkce_required_for_sso === true,
    slugPattern: d.slug_pattern ?? null,
    createOrganizationEnabled: d.create_organization_enabled === true,
    passwordConfig: passwordConfig
      ? {
          ludsComplexity: passwordConfig.luds_complexity,
          ludsMinimumCount: passwordConfig.luds_minimum_count,
        }
      : null,
    runDFPProtectedAuth: d.dfp_protected_auth_enabled === true,
    rbacPolicy: d.rbac_policy ?? null,
    raw: d,
  };
}

export interface BootstrapSource {
  /** Known so far: the cached answer of an earlier page, or the defaults. */
  current(): BootstrapConfig;
  /** Resolves with the fetched answer, or the defaults when the fetch failed. Never rejects. */
  ready: Promise<BootstrapConfig>;
}

/** Starts the single bootstrap fetch of a client. */
export function loadBootstrap(
  cacheKey: string,
  fetchData: () => Promise<unknown>,
): BootstrapSource {
  let current = toBootstrapConfig(readJson(cacheKey)) ?? defaultBootstrap();
  const ready = fetchData().then(
    (data) => {
      const config = toBootstrapConfig(data);
      if (config) writeJson(cacheKey, data);
      current = config ?? defaultBootstrap();
      return current;
    },
    (error: unknown) => {
      console.warn('Error fetching bootstrap data for SDK', error);
      // Defaults, not the cache: the server may have tightened settings since it was written.
      current = defaultBootstrap();
      return current;
    },
  );
  return { current: () => current, ready };
}
