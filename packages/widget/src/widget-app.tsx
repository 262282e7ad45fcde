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
import type { BootstrapConfig, GatehouseClient } from './client.js';
import { resolveConfig, type WidgetConfig } from './config.js';
import { injectStyles } from './inject-styles.js';
import { RENDER_EVENT_NAME, type WidgetCallbacks } from './machine/callbacks.js';
import * as effects from './machine/effects.js';
import { reportFailure } from './machine/context.js';
import type { EffectContext, WidgetEnvironment } from './machine/effects.js';
import { describeError } from './machine/errors.js';
import { isRenderedScreen } from './machine/screens.js';
import { readResetEmail } from './machine/reset-email.js';
import { initialState, type StartContext, type WidgetState } from './machine/state.js';
import { createMachineStore } from './machine/store.js';
import { readResetToken, readUrlToken } from './machine/urls.js';
import { PendingScreen, ScreenHeight } from './parts/pending-screen.js';
import { Spinner } from './parts/spinner.js';
import { en, type MessageTable } from './messages/en.js';
import { createFormat, type Format } from './messages/format.js';
import { loadMessages } from './messages/locales.js';
import { MessagesProvider } from './messages/use-messages.js';
import { SCREEN_COMPONENTS } from './screens/registry.js';
import { themeVariables, type WidgetStyles } from './theme.js';
import { WidgetProvider, type WidgetActions, type WidgetContextValue } from './widget-context.js';

/** The words of the moment before a shipped locale's table arrives. */
const englishFormat = createFormat(en);

/** The page as the widget sees it in a browser. */
function browserEnvironment(): WidgetEnvironment {
  return {
    location: window.location,
    replaceUrl: (url) => window.history.replaceState(window.history.state, '', url),
    now: () => Date.now(),
    toastError: (message) => {
      // Errors interrupt; other toasts keep the library's polite status (docs/widget.md §13). Keyed by
      // its text: an effect that toasts a failure reported as a toast already shows one.
      toast.error(message, { id: message, ariaProps: { role: 'alert', 'aria-live': 'assertive' } });
    },
    toastSuccess: (message) => {
      toast.success(message);
    },
    copyText: (text) => navigator.clipboard.writeText(text),
    downloadText,
    storage: browserStorage(),
  };
}

/** Saves text as a file through a temporary link, the one way a page can start a download. */
function downloadText(fileName: string, text: string): void {
  const url = URL.createObjectURL(new Blob([text], { type: 'text/plain;charset=utf-8' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.style.display = 'none';
  document.body.appendChild(link);
  link.click();
  link.remove();
  // Revoked on a later task: some browsers read the blob only after click() returns.
  setTimeout(() => URL.revokeObjectURL(url), 0);
}

/** localStorage, or null where reading it throws (sandboxed frames, some privacy modes). */
function browserStorage(): Storage | null {
  try {
    return window.localStorage;
  } catch {
    return null;
  }
}

/** The password effects, fetched with the first password screen rather than with the widget. */
const passwordEffects = () => import('./machine/passwords.js');
/** The MFA effects, fetched only by sign-ins that need a second factor. */
const mfaEffects = () => import('./machine/mfa.js');
/** One Tap, fetched only by widgets configured to offer it. */
const oneTapEffects = () => import('./machine/one-tap.js');

/**
 * Runs an effect of a module loaded on first use. The effect reports its own failures; a module
 * that cannot be loaded (offline, a new deployment) is reported like a failed call.
 */
function runLazy<M>(ctx: EffectContext, load: () => Promise<M>, run: (m: M) => unknown) {
  load()
    .then(run)
    .catch((error: unknown) => {
      reportFailure(ctx, error);
      ctx.env.toastError(describeError(error, ctx.format).message);
    });
}

export interface WidgetAppProps {
  client: GatehouseClient;
  config: WidgetConfig;
  styles?: WidgetStyles;
  callbacks?: WidgetCallbacks;
  /**
   * Replaces parts of the browser environment (tests); on a server, where there is no browser,
   * all of it.
   */
  environment?: Partial<WidgetEnvironment>;
  /** Changes the state the widget mounts with (tests that render one screen directly). */
  startState?: (state: WidgetState) => WidgetState;
  /**
   * The bootstrap of the first render, instead of the client's: a hydrated widget must render
   * what the server rendered (docs/widget.md §14).
   */
  startBootstrap?: BootstrapConfig;
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
  startState = (state) => state,
  startBootstrap,
}: WidgetAppProps) {
  const [setup] = useState(() => {
    const resolved = resolveConfig(config);
    const env = {
      ...(typeof window === 'undefined' ? undefined : browserEnvironment()),
      ...environment,
    } as WidgetEnvironment;
    const hasSession = client.session.getSnapshot() !== null;
    // The reset page redeems its own tokens; elsewhere a session makes the URL token moot.
    const resetFlow = resolved.authFlowType === 'passwordReset';
    const urlToken = hasSession || resetFlow ? null : readUrlToken(env.location.search);
    const start: StartContext = {
      config: resolved,
      bootstrap: startBootstrap ?? client.getBootstrap(),
      hasSession,
      urlToken,
      resetToken: resetFlow ? readResetToken(env.location.search) : null,
      storedResetEmail: readResetEmail(env, client.publicToken),
    };
    const messages = loadMessages(resolved.messages);
    const store = createMachineStore(startState(initialState(start)), resolved);
    return { resolved, env, urlToken, store, messages };
  });
  const { resolved, env, urlToken, store } = setup;
  const state = useSyncExternalStore(store.subscribe, store.getState, store.getState);

  // A shipped locale other than English is fetched first; until then the widget shows a spinner
  // and starts nothing, so that every message it produces is in its locale.
  const [table, setTable] = useState<MessageTable | null>(() =>
    setup.messages instanceof Promise ? null : setup.messages,
  );
  useEffect(() => {
    if (setup.messages instanceof Promise) void setup.messages.then(setTable);
  }, [setup]);
  const format = useMemo(() => (table ? createFormat(table) : null), [table]);
  const formatRef = useRef<Format | null>(format);
  useEffect(() => {
    formatRef.current = format;
  }, [format]);

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
      // Effects run only once the table is loaded (below); English is never reached in practice.
      format: (key, ...args) => (formatRef.current ?? englishFormat)(key, ...args),
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
      startOneTap: (onCancelled) =>
        oneTapEffects().then(
          (m) => m.startOneTap(ctx, onCancelled),
          () => ({ success: false, reason: 'unknown_reason' }),
        ),
      cancelOneTap: () => runLazy(ctx, oneTapEffects, (m) => m.cancelOneTap(ctx)),
      showPasswordLogin: (email) => ctx.dispatch({ type: 'PASSWORD_LOGIN_REQUESTED', email }),
      showForgotPassword: (email) => ctx.dispatch({ type: 'FORGOT_PASSWORD_REQUESTED', email }),
      authenticatePassword: (email, password) =>
        runLazy(ctx, passwordEffects, (m) => m.authenticatePassword(ctx, email, password)),
      forgotPassword: (email) => runLazy(ctx, passwordEffects, (m) => m.forgotPassword(ctx, email)),
      resendPasswordEmail: (kind) =>
        runLazy(ctx, passwordEffects, (m) => m.resendPasswordEmail(ctx, kind)),
      resetPassword: (password) =>
        runLazy(ctx, passwordEffects, (m) => m.resetPassword(ctx, password)),
      chooseMfaMethod: (method) => ctx.dispatch({ type: 'MFA_METHOD_CHOSEN', method }),
      showMfaScreen: (screen) => ctx.dispatch({ type: 'MFA_SCREEN_REQUESTED', screen }),
      sendSmsCode: (phone) => runLazy(ctx, mfaEffects, (m) => m.sendSmsCode(ctx, phone)),
      sendSmsCodeIfNonePending: () =>
        runLazy(ctx, mfaEffects, (m) => m.sendSmsCodeIfNonePending(ctx)),
      authenticateSms: (code) => runLazy(ctx, mfaEffects, (m) => m.authenticateSms(ctx, code)),
      createTotp: () => runLazy(ctx, mfaEffects, (m) => m.createTotp(ctx)),
      authenticateTotp: (code) => runLazy(ctx, mfaEffects, (m) => m.authenticateTotp(ctx, code)),
      recoverWithCode: (code) => runLazy(ctx, mfaEffects, (m) => m.recoverWithCode(ctx, code)),
      copyTotpSecret: () => runLazy(ctx, mfaEffects, (m) => m.copyTotpSecret(ctx)),
      downloadRecoveryCodes: () => runLazy(ctx, mfaEffects, (m) => m.downloadRecoveryCodes(ctx)),
      copyRecoveryCodes: () => runLazy(ctx, mfaEffects, (m) => m.copyRecoveryCodes(ctx)),
      finishRecoveryCodes: () => runLazy(ctx, mfaEffects, (m) => m.finishRecoveryCodes(ctx)),
      checkPasswordStrength: (password) =>
        passwordEffects().then(
          (m) => m.checkPasswordStrength(ctx, password),
          () => null,
        ),
    }),
    [ctx],
  );

  const started = useRef(false);
  useEffect(() => {
    // Once per mount, even when a development build runs effects twice.
    if (started.current || !format) return;
    started.current = true;
    client.logEvent(RENDER_EVENT_NAME, { options: config });
    void effects.start(ctx, urlToken);
  }, [ctx, client, config, urlToken, format]);

  const interacted = useRef(false);
  const markInteracted = useCallback(() => {
    interacted.current = true;
  }, []);
  const shouldFocusHeading = useCallback(() => interacted.current, []);

  // The code of the likely next screens is fetched while this one shows.
  useEffect(() => {
    const screen = state.screen;
    if (!format || !isRenderedScreen(screen)) return;
    import('./screens/next-screens.js').then(
      (m) => m.preloadNextScreens(screen, resolved.products),
      () => undefined,
    );
  }, [format, state.screen, resolved.products]);

  const rootRef = useRef<HTMLDivElement>(null);
  const stageRef = useRef<HTMLDivElement>(null);
  const screenHeightRef = useRef(0);
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
    now: env.now,
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
      <MessagesProvider value={format ?? englishFormat}>
        <WidgetProvider value={context}>
          <div ref={stageRef} className="gh-stage">
            <Suspense fallback={<PendingScreen heightRef={screenHeightRef} />}>
              <ScreenHeight stageRef={stageRef} heightRef={screenHeightRef}>
                {format ? <Screen /> : <Spinner />}
              </ScreenHeight>
            </Suspense>
          </div>
        </WidgetProvider>
        {state.bootstrap.displayWatermark && (
          <p className="gh-watermark">{(format ?? englishFormat)('watermark')}</p>
        )}
      </MessagesProvider>
      {toastTarget ? createPortal(toaster, toastTarget) : toaster}
    </div>
  );
}
