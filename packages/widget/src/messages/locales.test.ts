import { afterEach, describe, expect, it, vi } from 'vitest';
import { en, type MessageKey, type MessageTable } from './en.js';
import { es } from './es.js';
import { loadMessages, resolveMessages } from './locales.js';

/** Every shipped table but English; a new locale is added here with its file. */
const SHIPPED: Record<string, MessageTable> = { es };

const placeholders = (text: string) => (text.match(/\{\w+\}/g) ?? []).sort();

afterEach(() => vi.restoreAllMocks());

describe.each(Object.entries(SHIPPED))('the %s table', (_, table) => {
  it('has exactly the keys of English', () => {
    expect(Object.keys(table).sort()).toEqual(Object.keys(en).sort());
  });

  it('keeps every placeholder of each English string, and adds none', () => {
    for (const key of Object.keys(en) as MessageKey[]) {
      expect({ key, placeholders: placeholders(table[key]) }).toEqual({
        key,
        placeholders: placeholders(en[key]),
      });
    }
  });

  it('translates the sentences, not only the brand names', () => {
    const same = (Object.keys(en) as MessageKey[]).filter((key) => table[key] === en[key]);
    // Brand names, the sample phone number and the OAuth buttons' provider names stay.
    expect(same.sort()).toEqual(
      ['smsEnrollment.placeholder', 'webmail.gmail', 'webmail.outlook', 'webmail.yahoo'].sort(),
    );
  });
});

describe('resolveMessages', () => {
  it('speaks English by default, without a warning', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    expect(resolveMessages(undefined)).toEqual({ locale: 'en', builtIn: null, layers: [{}] });
    expect(warn).not.toHaveBeenCalled();
  });

  it('uses the shipped table of a region’s language and keeps the tag for the server', () => {
    expect(resolveMessages('es-MX')).toMatchObject({ locale: 'es-MX', builtIn: 'es' });
  });

  it('falls back to English with a warning for an unknown or malformed locale', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    expect(resolveMessages('xx')).toMatchObject({ locale: 'en', builtIn: null });
    expect(resolveMessages('es_ES!')).toMatchObject({ locale: 'en', builtIn: null });
    expect(warn).toHaveBeenCalledTimes(2);
    expect(warn.mock.calls[0]![0]).toContain('"xx"');
  });

  it('accepts a locale the host brings, over English', async () => {
    const resolved = resolveMessages('de', { de: { 'email.submit': 'Weiter mit E-Mail' } });
    expect(resolved).toMatchObject({ locale: 'de', builtIn: null });
    const table = await loadMessages(resolved);
    expect(table['email.submit']).toBe('Weiter mit E-Mail');
    expect(table['email.label']).toBe('Email');
  });
});

describe('loadMessages', () => {
  it('is synchronous for English and layers the overrides', () => {
    const table = loadMessages(resolveMessages('en', {}, { 'email.submit': 'Send me a link' }));
    expect(table).not.toBeInstanceOf(Promise);
    expect((table as MessageTable)['email.submit']).toBe('Send me a link');
  });

  it('fetches Spanish, then applies the host’s Spanish table and overrides on top', async () => {
    const table = await loadMessages(
      resolveMessages(
        'es-MX',
        { es: { 'email.label': 'Correo' }, 'es-MX': { 'email.submit': 'Continuar' } },
        { 'main.divider': 'ó' },
      ),
    );
    expect(table['email.label']).toBe('Correo');
    expect(table['email.submit']).toBe('Continuar');
    expect(table['main.divider']).toBe('ó');
    expect(table['loading.label']).toBe('Cargando');
  });

  it('ignores unknown keys and non-text values a host passes', async () => {
    const table = await loadMessages(
      resolveMessages('en', {}, {
        'no.such.key': 'x',
        'email.label': 42,
      } as unknown as Partial<MessageTable>),
    );
    expect(table).toEqual(en);
  });
});
