/** Filling a message table's templates; the placeholder names are checked against English's. */
import type { MessageArgs, MessageKey, MessageTable } from './en.js';

/**
 * The text of a message with its placeholders filled in, from one locale's table. What
 * `useMessages()` returns to screens and what effects read as `ctx.format`.
 *
 * @example
 * format('main.heading.organization', { organizationName: 'Acme' }); // 'Continue to Acme'
 */
export type Format = <K extends MessageKey>(key: K, ...args: MessageArgs<K>) => string;

/**
 * A {@link Format} over one table.
 *
 * @example
 * const format = createFormat(en);
 * format('smsEntry.sentTo', { destination: '+1 555…' });
 */
export function createFormat(table: MessageTable): Format {
  return (key, ...args) => {
    const template = table[key];
    const values = args[0] as Record<string, string> | undefined;
    if (!values) return template;
    return template.replace(/\{(\w+)\}/g, (whole, name: string) => values[name] ?? whole);
  };
}
