/**
 * The script-tag entry: puts `mount`, `hydrate`, `createClient` and `mountAdminPortal` on
 * `window.Gatehouse`. The admin portal's code loads only when `mountAdminPortal` is called.
 */
import { createClient } from '@gatehouse/client';
import { hydrate } from './hydrate.js';
import { mount } from './mount.js';
import type { MountAdminPortalOptions, MountedAdminPortal } from './admin/portal.js';

/** What the standalone bundle exposes. */
export interface GatehouseGlobal {
  mount: typeof mount;
  hydrate: typeof hydrate;
  createClient: typeof createClient;
  mountAdminPortal: (
    target: Element | string,
    options: MountAdminPortalOptions,
  ) => Promise<MountedAdminPortal>;
}

declare global {
  interface Window {
    Gatehouse?: GatehouseGlobal;
  }
}

window.Gatehouse = {
  mount,
  hydrate,
  createClient,
  mountAdminPortal: (target, options) =>
    import('./admin/portal.js').then((m) => m.renderAdminPortal(target, options)),
};
