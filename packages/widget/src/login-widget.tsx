/** The public React component of the login widget. */
import type { GatehouseClient } from './client.js';
import type { WidgetConfig } from './config.js';
import type { WidgetCallbacks } from './machine/callbacks.js';
import type { WidgetStyles } from './theme.js';
import { WidgetApp } from './widget-app.js';

/** Props of {@link LoginWidget}. */
export interface LoginWidgetProps {
  /** The Gatehouse client; the widget reads its session and calls the server through it. */
  client: GatehouseClient;
  /** Read once when the widget mounts; give the widget a new `key` to apply a new one. */
  config: WidgetConfig;
  styles?: WidgetStyles;
  callbacks?: WidgetCallbacks;
}

/**
 * The Gatehouse login widget for React apps.
 *
 * @example
 * const client = createClient('public-token-test-…', { baseUrl: 'https://auth.example.com' });
 * <LoginWidget
 *   client={client}
 *   config={{ products: ['emailMagicLinks', 'oauth'], authFlowType: 'discovery',
 *             oauthOptions: { providers: ['google', 'microsoft'] } }}
 *   callbacks={{ onSuccess: () => location.assign('/dashboard') }}
 * />
 */
export function LoginWidget({ client, config, styles, callbacks }: LoginWidgetProps) {
  return <WidgetApp client={client} config={config} styles={styles} callbacks={callbacks} />;
}
