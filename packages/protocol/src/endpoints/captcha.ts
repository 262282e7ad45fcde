/** Captcha: the project's captcha provider settings in the management API (docs/protocol.md §7). */
import { z } from 'zod';
import {
  CAPTCHA_PROVIDERS,
  type CaptchaProviderName,
  type CaptchaSettingsResult,
} from '../captcha.js';
import { endpoint } from './endpoint.js';
import * as f from './fields.js';

/** The captcha settings `PUT /v1/b2b/captcha` changes; fields left out keep their value. */
export const captchaSettingsFields = z
  .object({
    enabled: z.boolean().optional(),
    provider: z
      .enum(CAPTCHA_PROVIDERS as [CaptchaProviderName, ...CaptchaProviderName[]])
      .optional(),
    site_key: f.text.max(512).optional(),
    secret_key: f.text.max(2048).optional(),
    min_score: z.number().min(0, 'must be at least 0').max(1, 'must be at most 1').optional(),
  })
  .strict();

export const CAPTCHA_ENDPOINTS = {
  getCaptcha: endpoint<CaptchaSettingsResult>()({
    method: 'GET',
    path: '/v1/b2b/captcha',
    credential: 'secret',
    summary: "The project's captcha settings (the secret key is never returned).",
    body: null,
  }),
  setCaptcha: endpoint<CaptchaSettingsResult>()({
    method: 'PUT',
    path: '/v1/b2b/captcha',
    credential: 'secret',
    summary:
      'Sets up captcha for the project: provider, site and secret key, on or off; when on, every D call needs a captcha_token.',
    body: captchaSettingsFields,
  }),
} as const;
