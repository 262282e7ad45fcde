/** `gatehouse captcha show|set`: a project's captcha provider. */
import { CAPTCHA_PROVIDERS, type CaptchaSettings } from '@gatehouse/protocol';
import { defineCommand, oneOf, option, UsageError } from './command.js';
import { DATABASE_SETTINGS } from './environment.js';
import { withProject } from './open.js';

function describe(c: CaptchaSettings): string {
  return (
    `captcha:          ${c.enabled ? 'on' : 'off'}\n` +
    `provider:         ${c.provider}\n` +
    `site_key:         ${c.site_key || '(not set)'}\n` +
    `secret_key:       ${c.secret_key_set ? '(set)' : '(not set)'}\n` +
    `min_score:        ${c.min_score} (reCAPTCHA only)\n`
  );
}

/** A score between 0 and 1. */
function score(raw: string, flag: string): number {
  const value = /^\d+(\.\d+)?$/.test(raw) ? Number(raw) : Number.NaN;
  if (!(value >= 0 && value <= 1)) throw new UsageError(`${flag} must be a number from 0 to 1`);
  return value;
}

/** Shows the captcha settings. */
export const captchaShow = defineCommand({
  name: ['captcha', 'show'],
  summary: "Show a project's captcha settings",
  usage: '--project ID',
  description: 'Shows whether captcha is on, its provider and site key (never the secret key).',
  options: { project: option('ID', 'The project').required() },
  environment: DATABASE_SETTINGS,
  async run(values, io) {
    await withProject(io, values.project, async (admin) => {
      io.stdout(describe(await admin.captchaSettings(values.project)));
    });
  },
});

/** Changes the captcha settings. */
export const captchaSet = defineCommand({
  name: ['captcha', 'set'],
  summary: 'Set up captcha for a project',
  usage:
    '--project ID [--provider turnstile|recaptcha|hcaptcha] [--site-key K] [--secret-key S] ' +
    '[--min-score N] [--enabled true|false]',
  description:
    'Stores the keys the captcha provider issued (the secret key encrypted with the server key) ' +
    'and turns captcha on: every D call of the SDK API then needs a captcha token the provider ' +
    'accepts. --min-score is the lowest reCAPTCHA score accepted (default 0.5).',
  options: {
    project: option('ID', 'The project').required(),
    // Checked by the service, as the management API checks it: same refusal, same error_type.
    provider: option(CAPTCHA_PROVIDERS.join('|'), 'The captcha provider'),
    'site-key': option('K', 'The public site key'),
    'secret-key': option('S', 'The secret key'),
    'min-score': option('N', 'The lowest reCAPTCHA score accepted, 0 to 1', { parse: score }),
    enabled: option('true|false', 'Whether captcha is on (default: on)', {
      parse: oneOf(['true', 'false']),
    }),
  },
  environment: DATABASE_SETTINGS,
  async run(values, io) {
    await withProject(io, values.project, async (admin) => {
      const saved = await admin.setCaptchaSettings(values.project, {
        enabled: values.enabled === undefined ? true : values.enabled === 'true',
        ...(values.provider ? { provider: values.provider } : {}),
        ...(values['site-key'] ? { site_key: values['site-key'] } : {}),
        ...(values['secret-key'] ? { secret_key: values['secret-key'] } : {}),
        ...(values['min-score'] === undefined ? {} : { min_score: values['min-score'] }),
      });
      io.stdout(`Captcha saved.\n${describe(saved)}`);
    });
  },
});
