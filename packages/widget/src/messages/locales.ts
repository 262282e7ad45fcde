/** Which message table the widget speaks (docs/widget.md §3, "Languages"), and loading it. */
import { en, type MessageKey, type MessageTable } from './en.js';

/** A host's table for a locale: any keys it has replace the shipped ones, the rest fall back. */
export type PartialMessageTable = Partial<Record<MessageKey, string>>;

/**
 * The locales the widget ships besides English, each fetched only by widgets that use it, so
 * that English pages load no other table.
 */
const BUILT_IN: Record<string, () => Promise<MessageTable>> = {
  es: () => import('./es.js').then((m) => m.es),
};

/** The locales the widget ships, English first. */
export const BUILT_IN_LOCALES: readonly string[] = ['en', ...Object.keys(BUILT_IN)];

/** What the configuration says about language, with the locale settled. */
export interface ResolvedMessages {
  /** The locale the widget speaks and sends to the server: a BCP 47 tag such as `es-MX`. */
  locale: string;
  /** The shipped table to load under English, if not English itself. */
  builtIn: string | null;
  /** The host's tables, applied over the shipped one in order. */
  layers: PartialMessageTable[];
}

/** A well-formed language tag, as the server accepts it (docs/protocol.md §7). */
const LOCALE_TAG = /^[A-Za-z]{2,3}(-[A-Za-z0-9]{1,8})*$/;

/**
 * Settles the locale: `es-MX` speaks the `es` table (or the host's `es-MX` or `es` one); one the
 * widget has no table for is English, with a warning for the developer.
 *
 * @example
 * resolveMessages('es', undefined, { 'email.submit': 'Seguir' });
 * // { locale: 'es', builtIn: 'es', layers: [{ 'email.submit': 'Seguir' }] }
 */
export function resolveMessages(
  locale: string | undefined,
  locales: Record<string, PartialMessageTable> = {},
  overrides: PartialMessageTable = {},
): ResolvedMessages {
  const requested = locale?.trim() || 'en';
  const language = requested.split('-')[0]!.toLowerCase();
  const layers = [locales[language], locales[requested], overrides].filter((t) => t !== undefined);
  if (!LOCALE_TAG.test(requested) || (!BUILT_IN_LOCALES.includes(language) && layers.length < 2)) {
    console.warn(`Gatehouse: no messages for locale "${requested}", using English`);
    return { locale: 'en', builtIn: null, layers: [locales.en ?? {}, overrides] };
  }
  return { locale: requested, builtIn: language in BUILT_IN ? language : null, layers };
}

/**
 * The language of the page the widget is on, for a widget given no `locale` (docs/widget.md §3):
 * the page's `<html lang>`, else the browser's language. Only a tag the widget can speak (a
 * shipped table, or one in the host's `locales`) other than English counts: any other leaves the
 * default, English, without the warning a configured locale gets. Nothing outside a browser, so
 * a server render is English unless given a `locale`.
 *
 * @example
 * // <html lang="es-MX">
 * pageLocale(); // 'es-MX'
 * // <html lang="fr">, or lang="en-GB"
 * pageLocale(); // undefined
 */
export function pageLocale(locales: Record<string, PartialMessageTable> = {}): string | undefined {
  if (typeof document === 'undefined') return undefined;
  const declared = document.documentElement.lang.trim();
  const tag = declared || (typeof navigator === 'undefined' ? '' : navigator.language);
  const language = tag.split('-')[0]!.toLowerCase();
  if (!LOCALE_TAG.test(tag) || language === 'en') return undefined;
  const speakable =
    BUILT_IN_LOCALES.includes(language) ||
    locales[language] !== undefined ||
    locales[tag] !== undefined;
  return speakable ? tag : undefined;
}

/**
 * The full table for a resolved configuration: English, then the shipped locale, then the host's
 * tables. Synchronous when nothing needs fetching; a shipped table that fails to load leaves
 * English, with a warning.
 *
 * @example
 * const table = loadMessages(resolved.messages); // MessageTable | Promise<MessageTable>
 */
export function loadMessages(resolved: ResolvedMessages): MessageTable | Promise<MessageTable> {
  const merge = (base: MessageTable): MessageTable => {
    const table: Record<string, string> = { ...en, ...base };
    for (const layer of resolved.layers) {
      for (const [key, text] of Object.entries(layer)) {
        // Only known keys with text: a host's typo or a missing entry leaves the fallback.
        if (key in en && typeof text === 'string') table[key] = text;
      }
    }
    return table as MessageTable;
  };
  const load = resolved.builtIn && BUILT_IN[resolved.builtIn];
  if (!load) return merge(en);
  return load().then(merge, (error: unknown) => {
    console.warn('Gatehouse: messages could not load, using English', error);
    return merge(en);
  });
}
