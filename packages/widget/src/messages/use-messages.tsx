/** The message table of the widget's locale, provided at its root (docs/widget.md §3). */
import { createContext, useContext } from 'react';
import { en } from './en.js';
import { createFormat, type Format } from './format.js';

/** English outside a provider, so that a part rendered on its own still has words. */
const MessagesContext = createContext<Format>(createFormat(en));

/** Provides the widget's {@link Format} to the screens and parts. */
export const MessagesProvider = MessagesContext.Provider;

/**
 * The widget's messages in its locale: `format(key, values)`, placeholders checked at compile
 * time.
 *
 * @example
 * const format = useMessages();
 * return <h1>{format('main.heading.organization', { organizationName })}</h1>;
 */
export function useMessages(): Format {
  return useContext(MessagesContext);
}
