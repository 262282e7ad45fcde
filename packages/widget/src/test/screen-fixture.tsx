/**
 * A browser page that renders the real widget on any one of its screens, against the fake client:
 * `?case=<name>` picks the case, and `gatehouseShowCase(name)` switches to another in place, with
 * a fresh widget, so that a sweep of every case loads the page once. The accessibility suite
 * (e2e/accessibility.test.ts) serves it with Vite and checks every case with axe.
 */
import { useEffect } from 'react';
import toast, { useToaster } from 'react-hot-toast';
import { createRoot, type Root } from 'react-dom/client';
import { WidgetApp } from '../widget-app.js';
import { FIXTURE_CASES, fixtureClient } from './screen-cases.js';

let mounted: Root | undefined;

function render(name: string) {
  const fixture = FIXTURE_CASES[name];
  const root = document.getElementById('root');
  if (!fixture || !root) {
    document.body.textContent = `Unknown case ${name}`;
    return;
  }
  mounted?.unmount();
  // A toast of the case before (still shown, or fading out) belongs to no screen of this one.
  toast.remove();
  mounted = createRoot(root);
  mounted.render(
    <WidgetApp
      client={fixtureClient(fixture)}
      config={fixture.config}
      startState={fixture.state}
    />,
  );
}

declare global {
  interface Window {
    gatehouseFixtureCases?: string[];
    gatehouseShowCase?: (name: string) => void;
    /** Stops the toasts' timers, as a pointer resting on them does, until the page reloads. */
    gatehouseHoldToasts?: () => void;
  }
}

/** Hands the page the toasts' pause, which only the toaster's own hook offers. */
function ToastHold() {
  const { handlers } = useToaster();
  useEffect(() => {
    window.gatehouseHoldToasts = handlers.startPause;
  }, [handlers]);
  return null;
}

window.gatehouseFixtureCases = Object.keys(FIXTURE_CASES);
window.gatehouseShowCase = (name) => {
  history.replaceState(null, '', `?case=${encodeURIComponent(name)}`);
  render(name);
};
const hold = document.createElement('div');
document.body.append(hold);
createRoot(hold).render(<ToastHold />);
render(new URLSearchParams(window.location.search).get('case') ?? 'Main');
