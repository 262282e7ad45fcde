/**
 * A browser page that renders the real widget on any one of its screens, against the fake client:
 * `?case=<name>` picks the case. The accessibility suite (e2e/accessibility.test.ts) serves it
 * with Vite and checks every case with axe.
 */
import { createRoot } from 'react-dom/client';
import { WidgetApp } from '../widget-app.js';
import { FIXTURE_CASES, fixtureClient } from './screen-cases.js';

function render(name: string) {
  const fixture = FIXTURE_CASES[name];
  const root = document.getElementById('root');
  if (!fixture || !root) {
    document.body.textContent = `Unknown case ${name}`;
    return;
  }
  createRoot(root).render(
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
  }
}

window.gatehouseFixtureCases = Object.keys(FIXTURE_CASES);
render(new URLSearchParams(window.location.search).get('case') ?? 'Main');
