/** The script-tag entry: puts `mount` and `createClient` on `window.Gatehouse`. */
import { createClient } from '@gatehouse/client';
import { mount } from './mount.js';

/** What the standalone bundle exposes. */
export interface GatehouseGlobal {
  mount: typeof mount;
  createClient: typeof createClient;
}

declare global {
  interface Window {
    Gatehouse?: GatehouseGlobal;
  }
}

window.Gatehouse = { mount, createClient };
