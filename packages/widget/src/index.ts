/**
 * The Gatehouse login widget: a React component and a `mount` function for any page.
 *
 * @example
 * import { LoginWidget, mount } from '@gatehouse/widget';
 * mount('#login', { publicToken, baseUrl, config: { products: ['emailMagicLinks'], authFlowType: 'discovery' } });
 */
export { LoginWidget, type LoginWidgetProps } from './login-widget.js';
export { mount, type MountOptions, type MountedWidget } from './mount.js';
export { hydrate, type HydrateOptions } from './hydrate.js';
export type {
  AuthFlowType,
  OAuthProvider,
  OAuthProviderOption,
  Product,
  WidgetConfig,
} from './config.js';
export type { MessageKey, MessageTable } from './messages/en.js';
export type { ButtonStyle, WidgetStyles } from './theme.js';
export type { WidgetCallbacks, WidgetEventReport } from './machine/callbacks.js';
export type { WidgetError } from './machine/errors.js';
