/** The widget itself: the machine store, the start-up effects, the current screen and toasts. */
import {
  Suspense,
  useCallback,
  useEffect,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
  useSyncExternalStore,
  type CSSProperties,
} from 'react';
import { createPortal } from 'react-dom';
import toast, { Toaster } from 'react-hot-toast';
import type { GatehouseClient } from './client.js';
import { resolveConfig, type WidgetConfig } from './config.js';
import { injectStyles } from './injectStyles.js';
import { RENDER_EVENT_NAME, type WidgetCallbacks } from './machine/callbacks.js';
import * as effects from './machine/effects.js';
import type { EffectContext, WidgetEnvironment } from './machine/effects.js';
import { isRenderedScreen } from './machine/screens.js';
import { initialState } from './machine/state.js';
import { createMachineStore } from './machine/store.js';
import { readUrlToken } from './machine/urls.js';
import { Spinner } from './parts/Spinner.js';
import { SCREEN_COMPONENTS } from './screens/registry.js';
import { themeVariables, type WidgetStyles } from './theme.js';
import { WidgetProvider, type WidgetActions, type WidgetContextValue } from './WidgetContext.js';

/** The page as the widget sees it in a browser. */
function browserEnvironment(): WidgetEnvironment {
  return {
    location: window.location,
    replaceUrl: (url) => window.history.replaceState(window.history.state, '', url),
    now: () => Date.now(),
    toastError: (message) => {
      toast.error(message);
    },
  };
}

export interface WidgetAppProps {
  client: GatehouseClient;
  config: WidgetConfig;
  styles?: WidgetStyles;
  callbacks?: WidgetCallbacks;
  /** Replaces parts of the browser environment (tests). */
  environment?: Partial<WidgetEnvironment>;
}

/**
 * Renders the widget. The configuration and client are read once, when the widget mounts;
 * callbacks and styles may change between renders.
 */
export function WidgetApp({
  client,
  config,
  styles = {},
  callbacks = {},
  environment,
}: WidgetAppProps) {
  const [setup] = useState(() => {
    const resolved = resolveConfig(config);
    const env = { ...browserEnvironment(), ...environment };
    const hasSession = client.session.getSnapshot() !== null;
    const urlToken = hasSession ? null : readUrlToken(env.location.search);
    const start = { config: resolved, bootstrap: client.getBootstrap(), hasSession, urlToken };
    return { resolved, env, urlToken, store: createMachineStore(initialState(start), resolved) };
  });
  const { resolved, env, urlToken, store } = setup;
  const state = useSyncExternalStore(store.subscribe, store.getState, store.getState);

  // Hosts often pass callbacks inline; effects always call the latest ones.
  const callbacksRef = useRef(callbacks);
  useEffect(() => {
    callbacksRef.current = callbacks;
  });

  const ctx = useMemo(
    (): EffectContext => ({
      client,
      config: resolved,
      env,
      dispatch: store.dispatch,
      getState: store.getState,
      get callbacks() {
        return callbacksRef.current;
      },
    }),
    [client, resolved, env, store],
  );

  const actions = useMemo(
    (): WidgetActions => ({
      sendEmailMagicLink: (email) => void effects.sendEmailMagicLink(ctx, email),
      returnToMain: () => ctx.dispatch({ type: 'RETURN_TO_MAIN' }),
      chooseOrganization: (discovered) =>
        void effects.chooseDiscoveredOrganization(ctx, discovered),
      createOrganization: () => void effects.createOrganization(ctx),
      startOAuth: (provider) => void effects.startOAuth(ctx, provider),
      startSso: (connectionId) => void effects.startSso(ctx, connectionId),
    }),
    [ctx],
  );

  const started = useRef(false);
  useEffect(() => {
    // Once per mount, even when a development build runs effects twice.
    if (started.current) return;
    started.current = true;
    client.logEvent(RENDER_EVENT_NAME, { options: config });
    void effects.start(ctx, urlToken);
  }, [ctx, client, config, urlToken]);

  const interacted = useRef(false);
  const markInteracted = useCallback(() => {
    interacted.current = true;
  }, []);
  const shouldFocusHeading = useCallback(() => interacted.current, []);

  const rootRef = useRef<HTMLDivElement>(null);
  const [toastTarget, setToastTarget] = useState<HTMLElement | null>(null);
  useLayoutEffect(() => {
    const root = rootRef.current;
    if (!root) return;
    injectStyles(root);
    // Toast styles live in the page head, so inside a shadow root toasts render on the page.
    if (root.getRootNode() instanceof ShadowRoot) setToastTarget(root.ownerDocument.body);
  }, []);

  const context: WidgetContextValue = {
    state,
    config: resolved,
    styles,
    actions,
    shouldFocusHeading,
  };
  const Screen = isRenderedScreen(state.screen)
    ? SCREEN_COMPONENTS[state.screen]
    : SCREEN_COMPONENTS.Error;
  const toaster = <Toaster position="top-center" />;

  return (
    <div
      ref={rootRef}
      className="gh-root"
      style={themeVariables(styles) as CSSProperties}
      onPointerDownCapture={markInteracted}
      onKeyDownCapture={markInteracted}
    >
      <WidgetProvider value={context}>
        <Suspense fallback={<Spinner />}>
          <Screen />
        </Suspense>
      </WidgetProvider>
      {toastTarget ? createPortal(toaster, toastTarget) : toaster}
    </div>
  );
}
