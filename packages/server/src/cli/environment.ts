/** The environment variables the server reads, as the CLI's help lists them: from the settings table. */
import {
  DATABASE_URL,
  DEFAULT_PUBLIC_URL,
  GATEHOUSE_SERVER_KEY,
  PUBLIC_URL,
  SETTINGS,
  type Setting as ServerSetting,
} from '../config.js';
import type { Setting } from './command.js';

/** Markdown as plain text: the help prints no backticks or bold. */
function plain(markdown: string): string {
  return markdown.replace(/`|\*\*/g, '');
}

/** Starts a sentence with a capital, unless it starts with code (`true`, `gatehouse`). */
function capitalized(markdown: string): string {
  return /^[a-z]/.test(markdown) ? markdown.charAt(0).toUpperCase() + markdown.slice(1) : markdown;
}

/** Ends a sentence with a full stop. */
function sentence(text: string): string {
  return /[.!?…]$/.test(text) ? text : `${text}.`;
}

/**
 * A row of the settings table as the help lists it: its description, its bounds, whether
 * production needs it and whether it is a secret, and its default. Never a value: the help is
 * printed with the environment set, and some settings are secrets.
 *
 * @example
 * helpEntry(PUBLIC_URL); // { name: 'PUBLIC_URL', description: 'The public origin: …', fallback: … }
 */
export function helpEntry(setting: ServerSetting): Setting {
  const bounds = setting.path === null ? undefined : setting.bounds;
  const notes = [
    sentence(plain(capitalized(setting.description))),
    bounds
      ? `A whole number of ${bounds.unit}, at least ${bounds.min}${bounds.zeroMeansOff ? ', or 0 for no limit' : ''}.`
      : '',
    setting.requiredInProduction ? 'Required in production.' : '',
    setting.secret ? 'Secret.' : '',
  ];
  return {
    name: setting.env,
    description: notes.filter(Boolean).join(' '),
    fallback: plain(setting.fallback),
  };
}

/** Where the data is, and the key that encrypts secrets in it: what every command opens. */
export const DATABASE_SETTINGS: readonly Setting[] = [DATABASE_URL, GATEHOUSE_SERVER_KEY].map(
  helpEntry,
);

/** What the commands that print URLs to register at a provider read. */
export const DATABASE_AND_URL_SETTINGS: readonly Setting[] = [
  ...DATABASE_SETTINGS,
  helpEntry(PUBLIC_URL),
];

/**
 * The warning of a command that prints URLs under the public origin when `PUBLIC_URL` is unset,
 * or an empty string.
 *
 * @example
 * io.stderr(publicUrlWarning(io.env));
 */
export function publicUrlWarning(env: Readonly<Record<string, string | undefined>>): string {
  if (env.PUBLIC_URL) return '';
  return (
    `warning: PUBLIC_URL is not set, so these URLs start with ${DEFAULT_PUBLIC_URL}. ` +
    'Set PUBLIC_URL to the origin the server is reached at (as for `gatehouse serve`) and run ' +
    'the command again before registering them.\n'
  );
}

/**
 * Every variable the server reads (`gatehouse serve --help`): the whole settings table, in its
 * order, as README.md's configuration table lists it.
 */
export const SERVER_SETTINGS: readonly Setting[] = SETTINGS.map(helpEntry);
