import { describe, expect, it } from 'vitest';
import { ERROR_STATUS, ERROR_TYPES, UNRECOVERABLE_ERROR_TYPES } from './errors.js';
import { environmentOf } from './tokens.js';

describe('error types', () => {
  it('gives every error type a 4xx status, except the internal error and provider outages', () => {
    for (const type of ERROR_TYPES) {
      const status = ERROR_STATUS[type];
      if (type === 'internal_server_error') expect(status).toBe(500);
      else if (
        type === 'sms_delivery_failed' ||
        type === 'captcha_unavailable' ||
        type === 'dns_lookup_failed'
      ) {
        expect(status).toBe(503);
      } else {
        expect(status, type).toBeGreaterThanOrEqual(400);
        expect(status, type).toBeLessThan(500);
      }
    }
  });

  it('sends not-found types as 404 and the only 401 is unauthorized_credentials', () => {
    for (const type of ERROR_TYPES) {
      if (type.endsWith('_not_found')) expect(ERROR_STATUS[type], type).toBe(404);
      if (ERROR_STATUS[type] === 401) expect(type).toBe('unauthorized_credentials');
    }
  });

  it('treats exactly the session-ending types as unrecoverable', () => {
    expect([...UNRECOVERABLE_ERROR_TYPES].sort()).toEqual([
      'session_not_found',
      'unauthorized_credentials',
    ]);
    expect(UNRECOVERABLE_ERROR_TYPES.has('too_many_requests')).toBe(false);
    expect(UNRECOVERABLE_ERROR_TYPES.has('intermediate_session_not_found')).toBe(false);
  });
});

describe('environmentOf', () => {
  it('reads the environment out of prefixed ids', () => {
    expect(environmentOf('public-token-test-3f1c')).toBe('test');
    expect(environmentOf('organization-live-3f1c')).toBe('live');
    expect(environmentOf('something-else')).toBeNull();
  });
});
