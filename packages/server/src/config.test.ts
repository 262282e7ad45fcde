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

  it('applies defaults: no dev inbox unless asked for, sender domain, docs base', () => {
    const config = resolveConfig({ publicUrl: 'https://auth.example.com/' });
    expect(config).toMatchObject({
      databaseUrl: 'sqlite:./data/gatehouse.db',
      publicUrl: 'https://auth.example.com',
      docsBase: 'https://auth.example.com/docs',
      emailDomain: 'gatehouse.local',
      devInbox: false,
      trustProxy: false,
    });
    expect(resolveConfig({ smtp: { host: 'h', port: 25 } }).devInbox).toBe(false);
    expect(resolveConfig({ devInbox: true }).devInbox).toBe(true);
    expect(configFromEnv({ GATEHOUSE_DEV_INBOX: 'true' })).toEqual({ devInbox: true });
    expect(configFromEnv({ GATEHOUSE_DEV_INBOX: 'false' })).toEqual({});
  });

  it('reads TRUST_PROXY as a hop count or proxy addresses, and refuses a blanket true', () => {
    const trust = (value: string) =>
      resolveConfig(configFromEnv({ TRUST_PROXY: value })).trustProxy;
    expect(trust('1')).toBe(1);
    expect(trust('0')).toBe(false);
    expect(trust('false')).toBe(false);
    expect(trust('10.0.0.0/8, 127.0.0.1,::1,fd00::/8')).toEqual([
      '10.0.0.0/8',
      '127.0.0.1',
      '::1',
      'fd00::/8',
    ]);
    expect(resolveConfig({ trustProxy: ['192.168.1.10'] }).trustProxy).toEqual(['192.168.1.10']);
    expect(() => trust('true')).toThrow(/cannot be true.*TRUST_PROXY=1/);
    expect(() => resolveConfig({ trustProxy: true as never })).toThrow(TypeError);
    for (const bad of ['yes', '10.0.0.0/33', '10.0.0.1/8/8', 'proxy.internal', '-1']) {
      expect(() => trust(bad), bad).toThrow(TypeError);
    }
  });

  it('reads the breach range URL and defaults the password throttle', () => {
    expect(configFromEnv({ PASSWORD_BREACH_RANGE_URL: 'https://range.example' })).toEqual({
      passwordBreachRangeUrl: 'https://range.example',
    });
    expect(resolveConfig().passwordThrottle).toEqual({
      freeAttempts: 5,
      initialDelaySeconds: 1,
      maxDelaySeconds: 900,
      attemptsPerEmail: 100,
      windowMinutes: 60,
    });
    expect(resolveConfig().passwordBreachRangeUrl).toBeNull();
  });

  it('takes throttle overrides, and refuses nonsense', () => {
    const tuned = resolveConfig({ passwordThrottle: { attemptsPerEmail: 7, freeAttempts: 2 } });
    expect(tuned.passwordThrottle).toMatchObject({ attemptsPerEmail: 7, freeAttempts: 2 });
    for (const bad of [0, -1, 1.5, Number.NaN]) {
      expect(() => resolveConfig({ passwordThrottle: { freeAttempts: bad } })).toThrow(TypeError);
    }
  });

  it('reads the absolute session lifetime, 30 days by default, and refuses nonsense', () => {
    expect(configFromEnv({ SESSION_MAX_LIFETIME_MINUTES: '1440' })).toEqual({
      sessionMaxLifetimeMinutes: 1440,
    });
    expect(resolveConfig().sessionMaxLifetimeMinutes).toBe(43_200);
    expect(resolveConfig({ sessionMaxLifetimeMinutes: 60 }).sessionMaxLifetimeMinutes).toBe(60);
    for (const bad of ['abc', '4', '10.5', '-60']) {
      expect(() => resolveConfig(configFromEnv({ SESSION_MAX_LIFETIME_MINUTES: bad }))).toThrow(
        TypeError,
      );
    }
  });

  it('reads the request body and time limits, with defaults, and refuses nonsense', () => {
    expect(configFromEnv({ BODY_LIMIT_BYTES: '1048576', REQUEST_TIMEOUT_MS: '5000' })).toEqual({
      bodyLimitBytes: 1_048_576,
      requestTimeoutMs: 5000,
    });
    expect(resolveConfig()).toMatchObject({ bodyLimitBytes: 262_144, requestTimeoutMs: 30_000 });
    expect(resolveConfig({ requestTimeoutMs: 0 }).requestTimeoutMs).toBe(0);
    expect(resolveConfig(configFromEnv({ REQUEST_TIMEOUT_MS: '0' })).requestTimeoutMs).toBe(0);
    for (const bad of ['abc', '1e6', '-1', '12.5', '100', '0x400']) {
      expect(() => resolveConfig(configFromEnv({ BODY_LIMIT_BYTES: bad })), bad).toThrow(
        /bodyLimitBytes \(BODY_LIMIT_BYTES\) must be a whole number of bytes, at least 1024/,
      );
    }
    for (const bad of ['soon', '999', '1.5', '-5']) {
      expect(() => resolveConfig(configFromEnv({ REQUEST_TIMEOUT_MS: bad })), bad).toThrow(
        /requestTimeoutMs \(REQUEST_TIMEOUT_MS\) must be a whole number of milliseconds/,
      );
    }
  });

  it('reads the shutdown grace period, 10 s by default, and refuses nonsense', () => {
    expect(configFromEnv({ SHUTDOWN_GRACE_MS: '2500' })).toEqual({ shutdownGraceMs: 2500 });
    expect(resolveConfig().shutdownGraceMs).toBe(10_000);
    expect(resolveConfig(configFromEnv({ SHUTDOWN_GRACE_MS: '0' })).shutdownGraceMs).toBe(0);
    for (const bad of ['later', '-1', '1.5']) {
      expect(() => resolveConfig(configFromEnv({ SHUTDOWN_GRACE_MS: bad })), bad).toThrow(
        /shutdownGraceMs \(SHUTDOWN_GRACE_MS\) must be a whole number of milliseconds, at least 0/,
      );
    }
  });

  it('reads the metrics token, and refuses one too short to resist guessing', () => {
    const token = 'a'.repeat(32);
    expect(configFromEnv({ METRICS_TOKEN: token })).toEqual({ metricsToken: token });
    expect(resolveConfig().metricsToken).toBeNull();
    expect(resolveConfig({ metricsToken: token }).metricsToken).toBe(token);
    for (const bad of ['short', 'has spaces in the middle of it']) {
      expect(() => resolveConfig(configFromEnv({ METRICS_TOKEN: bad })), bad).toThrow(
        /metricsToken \(METRICS_TOKEN\) must be at least 16 characters without spaces/,
      );
    }
  });
});
