import { describe, expect, it } from 'vitest';
import {
  readResetToken,
  readUrlToken,
  slugFromUrl,
  urlWithoutQuery,
  webmailLinks,
} from './urls.js';

describe('readResetToken', () => {
  it('reads a reset link, a discovery reset link and a login link sent for a reset, nothing else', () => {
    expect(readResetToken('?stytch_token_type=multi_tenant_passwords&token=r')).toEqual({
      type: 'multi_tenant_passwords',
      token: 'r',
    });
    expect(readResetToken('?stytch_token_type=multi_tenant_magic_links&token=m')).toEqual({
      type: 'multi_tenant_magic_links',
      token: 'm',
    });
    expect(readResetToken('?stytch_token_type=discovery&token=d')).toEqual({
      type: 'discovery',
      token: 'd',
    });
    expect(readResetToken('?stytch_token_type=discovery_oauth&token=o')).toBeNull();
    expect(readResetToken('?stytch_token_type=sso&token=s')).toBeNull();
    expect(readResetToken('?stytch_token_type=multi_tenant_passwords')).toBeNull();
    expect(readResetToken('')).toBeNull();
  });
});

describe('readUrlToken', () => {
  it('reads the two token types handled on load and ignores the rest', () => {
    expect(readUrlToken('?stytch_token_type=discovery&token=abc')).toEqual({
      type: 'discovery',
      token: 'abc',
    });
    expect(readUrlToken('?token=abc&stytch_token_type=multi_tenant_magic_links')).toEqual({
      type: 'multi_tenant_magic_links',
      token: 'abc',
    });
    expect(readUrlToken('?stytch_token_type=multi_tenant_passwords&token=abc')).toBeNull();
    expect(readUrlToken('?stytch_token_type=discovery')).toBeNull();
    expect(readUrlToken('')).toBeNull();
  });

  it('keeps path and fragment when the query is removed', () => {
    expect(urlWithoutQuery({ pathname: '/acme/login', hash: '#top' })).toBe('/acme/login#top');
  });
});

describe('slugFromUrl', () => {
  it('matches the pattern unanchored, with the rest taken literally', () => {
    const pattern = 'https://app.example.com/{{slug}}/login';
    expect(slugFromUrl(pattern, 'https://app.example.com/acme/login')).toBe('acme');
    expect(slugFromUrl(pattern, 'https://app.example.com/acme/other')).toBeNull();
    expect(slugFromUrl('/orgs/{{slug}}', 'http://localhost:3000/orgs/umbrella')).toBe('umbrella');
  });

  it('compares the path alone when the slug is in the path, whatever the host', () => {
    const pattern = 'http://localhost:3000/_app/org/{{slug}}';
    expect(slugFromUrl(pattern, 'http://127.0.0.1:3000/_app/org/acme')).toBe('acme');
    expect(slugFromUrl(pattern, 'https://gatehouse.lan/_app/org/acme')).toBe('acme');
    expect(slugFromUrl(pattern, 'http://127.0.0.1:3000/_app/acme')).toBeNull();
  });

  it('compares the whole URL when the slug is in the host name', () => {
    const pattern = 'https://{{slug}}.app.example.com/login';
    expect(slugFromUrl(pattern, 'https://acme.app.example.com/login')).toBe('acme');
    expect(slugFromUrl(pattern, 'https://acme.other.example.com/login')).toBeNull();
  });

  it('finds no slug without a pattern or a placeholder', () => {
    expect(slugFromUrl(null, 'https://app.example.com/acme/login')).toBeNull();
    expect(slugFromUrl('https://app.example.com/', 'https://app.example.com/acme')).toBeNull();
  });
});

describe('webmailLinks', () => {
  it('searches for the sender domain when it is known', () => {
    const links = webmailLinks('mail.gatehouse.test');
    expect(links.map((l) => l.provider)).toEqual(['gmail', 'outlook', 'yahoo']);
    for (const link of links) expect(link.href).toContain('mail.gatehouse.test');
    for (const link of webmailLinks(null)) expect(link.href).toMatch(/^https:\/\//);
  });
});

describe('readUrlToken for the OAuth and SSO types', () => {
  it('reads oauth, sso and discovery_oauth tokens too', () => {
    for (const type of ['oauth', 'sso', 'discovery_oauth']) {
      expect(readUrlToken(`?stytch_token_type=${type}&token=t`)).toEqual({ type, token: 't' });
    }
  });
});
