/**
 * The components of the rendered screens. Main and the loading screens load with the widget;
 * screens only some flows reach are split off and fetched when first shown.
 */
import { lazy, type ComponentType } from 'react';
import type { RenderedScreen } from '../machine/screens.js';
import { Loading, LoggingIn } from './Loading.js';
import { Main } from './Main.js';

export const SCREEN_COMPONENTS: Record<RenderedScreen, ComponentType> = {
  Main,
  Loading,
  LoggingIn,
  EmailConfirmation: lazy(() =>
    import('./EmailConfirmation.js').then((m) => ({ default: m.EmailConfirmation })),
  ),
  Discovery: lazy(() => import('./Discovery.js').then((m) => ({ default: m.Discovery }))),
  LoggedIn: lazy(() => import('./LoggedIn.js').then((m) => ({ default: m.LoggedIn }))),
  Error: lazy(() => import('./ErrorScreen.js').then((m) => ({ default: m.ErrorScreen }))),
};
