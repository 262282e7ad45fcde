/** What every screen and part reads: the state, the configuration and the actions. */
import { createContext, useContext } from 'react';
import type { DiscoveredOrganization } from '@gatehouse/protocol';
import type { ResolvedConfig, ResolvedOAuthProvider } from './config.js';
import type { WidgetState } from './machine/state.js';
import type { WidgetStyles } from './theme.js';

/** What a screen can ask the widget to do; each runs an effect of the machine. */
export interface WidgetActions {
  sendEmailMagicLink: (email: string) => void;
  returnToMain: () => void;
  chooseOrganization: (discovered: DiscoveredOrganization) => void;
  createOrganization: () => void;
  startOAuth: (provider: ResolvedOAuthProvider) => void;
  startSso: (connectionId: string) => void;
}

export interface WidgetContextValue {
  state: WidgetState;
  config: ResolvedConfig;
  styles: WidgetStyles;
  actions: WidgetActions;
  /**
   * Whether a screen that appears now takes focus to its heading: only once the user has acted
   * in the widget, so that screens changing on their own while the page loads leave focus alone.
   */
  shouldFocusHeading: () => boolean;
}

const WidgetContext = createContext<WidgetContextValue | null>(null);

/** Provides the widget context to the screens. */
export const WidgetProvider = WidgetContext.Provider;

/** The widget context; only valid inside the widget. */
export function useWidget(): WidgetContextValue {
  const value = useContext(WidgetContext);
  if (!value) throw new Error('useWidget must be used inside the Gatehouse login widget');
  return value;
}
