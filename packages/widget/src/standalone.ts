/** The script-tag entry: puts `mount`, `hydrate` and `createClient` on `window.Gatehouse`. */
import { createClient } from '@gatehouse/client';
import { hydrate } from './hydrate.js';
import { mount } from './mount.js';

/** What the standalone bundle exposes. */
export interface GatehouseGlobal {
  mount: typeof mount;
  hydrate: typeof hydrate;
  createClient: typeof createClient;
}

declare global {
  interface Window {
    Gatehouse?: GatehouseGlobal;
  }
}

window.Gatehouse = { mount, hydrate, createClient };
