// Configuration from the environment and its defaults.
import { describe, expect, it } from 'vitest';
import { configFromEnv, resolveConfig } from './config.js';

describe('configFromEnv', () => {
  it('reads every documented variable', () => {
    expect(
      configFromEnv({
        DATABASE_URL: 'postgres://db/g',
        PUBLIC_URL: 'https://auth.example.com',
        SMTP_HOST: 'smtp.example.com',
        SMTP_PORT: '2525',
        SMTP_SECURE: 'true',
        SMTP_USER: 'u',
        SMTP_PASS: 'p',
        EMAIL_FROM: 'Acme <login@acme.example>',
        GATEHOUSE_SERVER_KEY: 'k',
      }),
    ).toEqual({
      databaseUrl: 'postgres://db/g',
      publicUrl: 'https://auth.example.com',
      smtp: { host: 'smtp.example.com', port: 2525, secure: true, user: 'u', pass: 'p' },
      emailFrom: 'Acme <login@acme.example>',
      serverKey: 'k',
    });
    expect(configFromEnv({})).toEqual({});
  });

  it('applies defaults: dev inbox without SMTP, sender domain, docs base', () => {
    const config = resolveConfig({ publicUrl: 'https://auth.example.com/' });
    expect(config).toMatchObject({
      databaseUrl: 'sqlite:./data/gatehouse.db',
      publicUrl: 'https://auth.example.com',
      docsBase: 'https://auth.example.com/docs',
      emailDomain: 'gatehouse.local',
      devInbox: true,
    });
    expect(resolveConfig({ smtp: { host: 'h', port: 25 } }).devInbox).toBe(false);
  });

  it('reads the breach range URL and defaults the password lockout to 10 failures an hour', () => {
    expect(configFromEnv({ PASSWORD_BREACH_RANGE_URL: 'https://range.example' })).toEqual({
      passwordBreachRangeUrl: 'https://range.example',
    });
    const config = resolveConfig({ passwordLockout: { maxFailures: 3 } });
    expect(config.passwordLockout).toEqual({ maxFailures: 3, windowMinutes: 60 });
    expect(resolveConfig().passwordLockout).toEqual({ maxFailures: 10, windowMinutes: 60 });
    expect(resolveConfig().passwordBreachRangeUrl).toBeNull();
  });
});
