/**
 * zxcvbn's feedback in the widget's language (docs/widget.md §5): the server sends its warning and
 * suggestions in English, and a language with a table (generated from the zxcvbn-ts language
 * packs by scripts/zxcvbn-feedback-table.mjs) shows them in its own words. Each table is fetched
 * only where its language is spoken, so an English page loads none.
 */
import { useEffect, useState } from 'react';

type FeedbackTable = Readonly<Record<string, string>>;

/** The languages with a table, each a chunk of its own. */
const TABLES: Record<string, () => Promise<FeedbackTable>> = {
  es: () => import('./zxcvbn-es.js').then((m) => m.zxcvbnEs),
};

/**
 * One of zxcvbn's English sentences in `language` (`es`, or a tag such as `es-MX`): the table's
 * words once it has loaded. A sentence the table does not know, a language without a table, and
 * everything until the table has loaded stay as the server sent them.
 *
 * @example
 * const inLanguage = useZxcvbnFeedback('es');
 * inLanguage('Avoid recent years.'); // 'Evita años recientes.', once loaded
 */
export function useZxcvbnFeedback(language: string | null): (text: string) => string {
  const key = language?.split('-')[0]?.toLowerCase() ?? '';
  const [loaded, setLoaded] = useState<{ key: string; table: FeedbackTable } | null>(null);
  useEffect(() => {
    const load = TABLES[key];
    if (!load) return;
    let live = true;
    // A table that cannot load leaves the server's English.
    load().then(
      (table) => {
        if (live) setLoaded({ key, table });
      },
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [key]);
  const table = loaded?.key === key ? loaded.table : undefined;
  // Own keys only: a sentence such as "constructor" is not a translation.
  return (text) => (table && Object.hasOwn(table, text) ? table[text]! : text);
}
