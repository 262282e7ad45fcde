// The admin portal's tables: Spanish has every English key with the same placeholders and
// translates the sentences; a host's words replace the shipped ones, and only known keys.
import { describe, expect, it } from 'vitest';
import { adminEs } from './admin-es.js';
import { adminEn, adminFormat, type AdminMessageKey } from './admin-messages.js';

const placeholders = (text: string) => (text.match(/\{\w+\}/g) ?? []).sort();
const keys = Object.keys(adminEn) as AdminMessageKey[];

describe('the admin portal’s Spanish table', () => {
  it('has exactly the keys of English, with the same placeholders', () => {
    expect(Object.keys(adminEs).sort()).toEqual([...keys].sort());
    for (const key of keys) {
      expect({ key, p: placeholders(adminEs[key]) }).toEqual({
        key,
        p: placeholders(adminEn[key]),
      });
    }
  });

  it('translates the sentences, not only the names', () => {
    const same = keys.filter((key) => adminEs[key] === adminEn[key]);
    expect(same.sort()).toEqual(
      [
        'members.roles',
        'invite.roles',
        'settings.method.google_oauth',
        'settings.method.microsoft_oauth',
        'sso.kind.saml',
        'sso.kind.oidc',
        // The protocol's own word, as Spanish documentation keeps it.
        'sso.check.nonce',
        'settings.emailRole',
        'members.method.google',
        'members.method.microsoft',
      ].sort(),
    );
  });
});

describe('adminFormat', () => {
  it('fills placeholders and takes a host’s words for known keys only', () => {
    const format = adminFormat({
      'members.deactivate': 'Suspend',
      'no.such.key': 'x',
      'common.save': 7,
    });
    expect(format('members.deactivate')).toBe('Suspend');
    expect(format('common.save')).toBe('Save');
    expect(format('members.count', { shown: '2', total: '9' })).toBe('2 of 9 members');
  });

  it('speaks the table it is given, under the host’s words', () => {
    const format = adminFormat({ 'common.cancel': 'Volver' }, adminEs);
    expect(format('common.save')).toBe('Guardar');
    expect(format('common.cancel')).toBe('Volver');
  });
});
