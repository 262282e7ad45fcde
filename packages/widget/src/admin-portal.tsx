/**
 * `@gatehouse/widget/admin`: the admin portal, in an entry of its own so that the login widget's
 * bundle does not grow; each export here loads the portal's chunk (`admin/portal.tsx`) on first
 * use.
 *
 * @example
 * import { AdminPortal } from '@gatehouse/widget/admin';
 * <AdminPortal client={client} sections={['members', 'settings', 'sso']} />
 */
import { lazy, Suspense, type ComponentType } from 'react';
import type {
  AdminPortalProps,
  MountAdminPortalOptions,
  MountedAdminPortal,
} from './admin/portal.js';
import type { AdminViewProps } from './admin/admin-frame.js';
import { Spinner } from './parts/spinner.js';

const load = () => import('./admin/portal.js');

function lazyView<P extends object>(
  pick: (m: Awaited<ReturnType<typeof load>>) => ComponentType<P>,
) {
  const View = lazy(() => load().then((m) => ({ default: pick(m) })));
  return (props: P) => (
    <Suspense fallback={<Spinner />}>
      <View {...props} />
    </Suspense>
  );
}

/**
 * The admin portal: an organization's admins manage its members, settings and SSO connections
 * with their own session; each action is checked by the server against the project's RBAC
 * policy, and actions the member may not take are not shown.
 *
 * @example
 * <AdminPortal client={client} sections={['members', 'settings', 'sso']} />
 */
export const AdminPortal = lazyView<AdminPortalProps>((m) => m.AdminPortal);

/**
 * The members section alone: search, invite, change roles, deactivate and reactivate.
 *
 * @example
 * <AdminMembers client={client} />
 */
export const AdminMembers = lazyView<AdminViewProps>((m) => m.AdminMembers);

/**
 * The settings section alone: name, logo, sign-in methods, MFA policy and joining rules.
 *
 * @example
 * <AdminSettings client={client} />
 */
export const AdminSettings = lazyView<AdminViewProps>((m) => m.AdminSettings);

/**
 * The SSO section alone: connections, the values to give the IdP, new SAML and OIDC connections.
 *
 * @example
 * <AdminSso client={client} />
 */
export const AdminSso = lazyView<AdminViewProps>((m) => m.AdminSso);

/**
 * The domains section alone: add e-mail domains, publish their TXT record, verify them.
 *
 * @example
 * <AdminDomains client={client} />
 */
export const AdminDomains = lazyView<AdminViewProps>((m) => m.AdminDomains);

/**
 * The sessions section alone: the organization's live sessions for members who may end them,
 * otherwise the member's own.
 *
 * @example
 * <AdminSessions client={client} />
 */
export const AdminSessions = lazyView<AdminViewProps>((m) => m.AdminSessions);

/**
 * The account section alone, for any member: their authenticator app and backup codes, their
 * phone for text codes, and their password.
 *
 * @example
 * <AdminAccount client={client} />
 */
export const AdminAccount = lazyView<AdminViewProps>((m) => m.AdminAccount);

/**
 * Renders the admin portal into an element of any page, once its code has loaded.
 *
 * @throws Error when the target element is not on the page, TypeError without a client or token.
 * @example
 * const portal = await Gatehouse.mountAdminPortal('#admin', { client, sections: ['members'] });
 * portal.unmount();
 */
export async function mountAdminPortal(
  target: Element | string,
  options: MountAdminPortalOptions,
): Promise<MountedAdminPortal> {
  return (await load()).renderAdminPortal(target, options);
}

export type {
  AdminPortalProps,
  AdminSection,
  MountAdminPortalOptions,
  MountedAdminPortal,
} from './admin/portal.js';
export type { AdminViewProps } from './admin/admin-frame.js';
export type { AdminMessageKey } from './admin/admin-messages.js';
