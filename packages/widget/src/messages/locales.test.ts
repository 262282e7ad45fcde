import { afterEach, describe, expect, it, vi } from 'vitest';
import { en, type MessageKey, type MessageTable } from './en.js';
import { es } from './es.js';
import { resolveConfig, type WidgetConfig } from '../config.js';
import { loadMessages, pageLocale, resolveMessages } from './locales.js';

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

describe('the page’s language, for a widget given no locale', () => {
  const root = document.documentElement;
  afterEach(() => root.removeAttribute('lang'));
  const browserLanguage = (language: string) =>
    vi.spyOn(navigator, 'language', 'get').mockReturnValue(language);
  const config = (locale?: string): WidgetConfig => ({
    products: ['emailMagicLinks'],
    authFlowType: 'discovery',
    ...(locale ? { locale } : {}),
  });

  it('follows <html lang> first, then the browser’s language', () => {
    browserLanguage('de-DE');
    root.lang = 'es-MX';
    expect(resolveConfig(config()).messages).toMatchObject({ locale: 'es-MX', builtIn: 'es' });
    root.removeAttribute('lang');
    browserLanguage('es-AR');
    expect(resolveConfig(config()).messages).toMatchObject({ locale: 'es-AR', builtIn: 'es' });
  });

  it('keeps English, without a warning, for a language the widget has no table for', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    browserLanguage('es');
    root.lang = 'fr';
    expect(resolveConfig(config()).messages).toEqual({ locale: 'en', builtIn: null, layers: [{}] });
    root.lang = 'en-GB';
    expect(resolveConfig(config()).locale).toBe('en');
    root.removeAttribute('lang');
    browserLanguage('pt-BR');
    expect(resolveConfig(config()).locale).toBe('en');
    expect(warn).not.toHaveBeenCalled();
  });

  it('speaks a page language the host brings a table for', () => {
    root.lang = 'de';
    const resolved = resolveConfig({ ...config(), locales: { de: { 'email.submit': 'Weiter' } } });
    expect(resolved.messages).toMatchObject({ locale: 'de', builtIn: null });
  });

  it('gives way to the locale option', () => {
    root.lang = 'es';
    browserLanguage('es');
    expect(resolveConfig(config('en')).messages).toMatchObject({ locale: 'en', builtIn: null });
    root.lang = 'fr';
    expect(resolveConfig(config('es')).locale).toBe('es');
  });

  it('is nothing outside a browser: a server render is English unless given a locale', () => {
    vi.stubGlobal('document', undefined);
    try {
      expect(pageLocale()).toBeUndefined();
    } finally {
      vi.unstubAllGlobals();
    }
  });
});
