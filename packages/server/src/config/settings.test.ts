// Every row of the settings table is read by configFromEnv into its key, and every bad value is
// refused with the variable's name (and without a secret's value).
import { describe, expect, it } from 'vitest';
import { configFromEnv } from './from-env.js';
import { resolveConfig } from './resolve.js';
import { SETTINGS, type ConfigSetting } from './settings.js';
import type { ResolvedConfig } from './types.js';

const CONFIG_SETTINGS: readonly ConfigSetting[] = SETTINGS.filter((s) => s.path !== null);

/** A non-default value for each variable, and what it resolves to at its key. */
const ROUND_TRIP: Record<string, readonly [raw: string, resolved: unknown]> = {
  DATABASE_URL: [
    'postgres://gatehouse:pw@db:5432/gatehouse',
    'postgres://gatehouse:pw@db:5432/gatehouse',
  ],
  PUBLIC_URL: ['https://auth.example.com/', 'https://auth.example.com'],
  SMTP_HOST: ['smtp.example.com', 'smtp.example.com'],
  SMTP_PORT: ['2525', 2525],
  SMTP_SECURE: ['1', true],
  SMTP_USER: ['mailer', 'mailer'],
  SMTP_PASS: ['hunter2', 'hunter2'],
  GATEHOUSE_DEV_INBOX: ['true', true],
  EMAIL_FROM: ['Acme <login@acme.example>', 'Acme <login@acme.example>'],
  GATEHOUSE_SERVER_KEY: ['k'.repeat(64), 'k'.repeat(64)],
  SMS_PROVIDER_URL: ['https://sms.example/send', 'https://sms.example/send'],
  SMS_PROVIDER_TOKEN: ['sms-token', 'sms-token'],
  SMS_FROM: ['+15550100', '+15550100'],
  PASSWORD_BREACH_RANGE_URL: ['https://range.example', 'https://range.example'],
  CAPTCHA_VERIFY_URL: ['https://verify.example', 'https://verify.example'],
  CAPTCHA_TIMEOUT_MS: ['2000', 2000],
  DNS_SERVERS: ['1.1.1.1, [::1]:5353', ['1.1.1.1', '[::1]:5353']],
  TRUST_PROXY: ['10.0.0.0/8, 127.0.0.1', ['10.0.0.0/8', '127.0.0.1']],
  SESSION_MAX_LIFETIME_MINUTES: ['1440', 1440],
  EVENT_RETENTION_DAYS: ['7', 7],
  BODY_LIMIT_BYTES: ['1048576', 1_048_576],
  REQUEST_TIMEOUT_MS: ['0', 0],
  SHUTDOWN_GRACE_MS: ['2500', 2500],
  LOG_REQUESTS: ['true', true],
  METRICS_TOKEN: ['m'.repeat(32), 'm'.repeat(32)],
};

/** A value each validated variable refuses. */
const BAD: Record<string, string> = {
  CAPTCHA_TIMEOUT_MS: '0',
  DNS_SERVERS: 'dns.example',
  TRUST_PROXY: 'true',
  SESSION_MAX_LIFETIME_MINUTES: '4',
  EVENT_RETENTION_DAYS: 'a week',
  BODY_LIMIT_BYTES: '1023',
  REQUEST_TIMEOUT_MS: '999',
  SHUTDOWN_GRACE_MS: '-1',
  METRICS_TOKEN: 'short-secret',
};

/** The value at `smtp.port` or `bodyLimitBytes`. */
function valueAt(config: ResolvedConfig, path: string): unknown {
  return path.split('.').reduce<unknown>((value, key) => {
    return value === null || value === undefined
      ? undefined
      : (value as Record<string, unknown>)[key];
  }, config);
}

/** The message of the TypeError `run` throws. */
function refusal(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    if (error instanceof TypeError) return error.message;
    throw error;
  }
  throw new Error('expected a TypeError');
}

/** The variable a group needs to exist at all: SMTP_PORT means nothing without SMTP_HOST. */
function withGroup(setting: ConfigSetting): Record<string, string> {
  const group = setting.path.split('.')[0];
  if (group === 'smtp') return { SMTP_HOST: 'smtp.example.com' };
  if (group === 'sms') return { SMS_PROVIDER_URL: 'https://sms.example/send' };
  return {};
}

describe('the settings table', () => {
  it('names each variable once, and describes every one', () => {
    const names = SETTINGS.map((s) => s.env);
    expect(new Set(names).size).toBe(names.length);
    for (const setting of SETTINGS) {
      expect(setting.description, setting.env).not.toBe('');
      expect(setting.fallback, setting.env).not.toBe('');
      expect(setting.example, setting.env).not.toBe('');
    }
  });

  it('round-trips a non-default value of every setting through configFromEnv', () => {
    expect(Object.keys(ROUND_TRIP).sort()).toEqual(CONFIG_SETTINGS.map((s) => s.env).sort());
    const defaults = resolveConfig();
    for (const setting of CONFIG_SETTINGS) {
      const [raw, resolved] = ROUND_TRIP[setting.env] ?? [];
      const config = resolveConfig(configFromEnv({ ...withGroup(setting), [setting.env]: raw }));
      expect(valueAt(config, setting.path), setting.env).toEqual(resolved);
      expect(valueAt(defaults, setting.path), setting.env).not.toEqual(resolved);
    }
  });

  it('reads every setting at once, and none when the environment is empty', () => {
    const env = Object.fromEntries(Object.entries(ROUND_TRIP).map(([name, [raw]]) => [name, raw]));
    const config = resolveConfig(configFromEnv(env));
    for (const setting of CONFIG_SETTINGS) {
      expect(valueAt(config, setting.path), setting.env).toEqual(ROUND_TRIP[setting.env]?.[1]);
    }
    const empty = Object.fromEntries(CONFIG_SETTINGS.map((s) => [s.env, '']));
    expect(configFromEnv(empty)).toEqual({});
  });

  it('refuses a bad value of every validated setting with the variable’s name', () => {
    const validated = CONFIG_SETTINGS.filter((s) => s.bounds).map((s) => s.env);
    expect(Object.keys(BAD)).toEqual(expect.arrayContaining(validated));
    for (const [name, raw] of Object.entries(BAD)) {
      expect(() => resolveConfig(configFromEnv({ [name]: raw })), name).toThrow(
        new RegExp(`\\(${name}\\)`),
      );
    }
  });

  it('never repeats a secret’s value in an error', () => {
    const secrets = CONFIG_SETTINGS.filter((s) => s.secret && BAD[s.env] !== undefined);
    expect(secrets.map((s) => s.env)).toContain('METRICS_TOKEN');
    for (const setting of secrets) {
      const raw = BAD[setting.env] ?? '';
      const message = refusal(() => resolveConfig(configFromEnv({ [setting.env]: raw })));
      expect(message, setting.env).toContain(setting.env);
      expect(message, setting.env).not.toContain(raw);
    }
  });

  it('ignores the SMTP and SMS fields without the variable that turns each on', () => {
    expect(configFromEnv({ SMTP_PORT: '2525', SMTP_USER: 'u', SMS_FROM: '+1555' })).toEqual({});
    expect(configFromEnv({ SMTP_HOST: 'h' })).toEqual({
      smtp: { host: 'h', port: 587, secure: false },
    });
    expect(configFromEnv({ SMTP_HOST: 'h', SMTP_SECURE: 'true' }).smtp?.port).toBe(465);
    expect(configFromEnv({ SMS_PROVIDER_URL: 'https://sms.example' })).toEqual({
      sms: { url: 'https://sms.example', authToken: '', from: '' },
    });
  });
});
