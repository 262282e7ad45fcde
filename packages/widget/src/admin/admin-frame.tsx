/**
 * The frame every admin view renders in: the widget's root class and theme, the portal's style
 * sheet, the signed-in member's session, and what they may do, asked of the client's RBAC checks.
 */
import {
  useEffect,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
  useSyncExternalStore,
  type CSSProperties,
  type ReactNode,
} from 'react';
import { createAdminClient, type AdminClient, type GatehouseClient } from '@gatehouse/client';
import type { RbacRole } from '@gatehouse/protocol';
import { injectStyles } from '../inject-styles.js';
import { Spinner } from '../parts/spinner.js';
import { themeVariables, type WidgetStyles } from '../theme.js';
import { adminFormat, type AdminMessageKey } from './admin-messages.js';
import {
  AdminProvider,
  rightsFrom,
  type AdminContextValue,
  type AdminRights,
} from './admin-context.js';
import css from './admin.css?inline';

/** Props every admin view takes. */
export interface AdminViewProps {
  /** The client the login widget signed the member in with; its session makes every call. */
  client: GatehouseClient;
  /** The management calls; by default `createAdminClient(client)`. */
  admin?: AdminClient;
  /** The same theming as the login widget (docs/widget.md §10). */
  styles?: WidgetStyles;
  /** Words to use instead of the English ones, by key; keys left out stay English. */
  messages?: Partial<Record<AdminMessageKey, string>>;
}

interface Loaded {
  rights: AdminRights;
  roles: RbacRole[];
}

export function AdminFrame({
  client,
  admin,
  styles,
  messages,
  children,
}: AdminViewProps & { children: ReactNode }) {
  const session = useSyncExternalStore(
    (listener) => client.session.subscribe(listener),
    () => client.session.getSnapshot(),
  );
  const adminClient = useMemo(() => admin ?? createAdminClient(client), [admin, client]);
  const format = useMemo(() => adminFormat(messages), [messages]);
  const [loaded, setLoaded] = useState<Loaded | null>(null);
  const memberId = session?.member.member_id;
  const roleKey = session?.session.roles.join(' ');

  useEffect(() => {
    if (!memberId) return;
    let live = true;
    // Both wait for bootstrap's policy; the permissions follow the session's roles.
    void Promise.all([client.rbac.allPermissions(), client.bootstrap()]).then(
      ([permissions, bootstrap]) => {
        if (!live) return;
        const roles = (bootstrap.rbacPolicy?.roles ?? []).filter((r) => r.role_id !== 'member');
        setLoaded({ rights: rightsFrom(permissions), roles });
      },
    );
    return () => {
      live = false;
    };
  }, [client, memberId, roleKey]);

  const rootRef = useRef<HTMLDivElement>(null);
  useLayoutEffect(() => {
    const root = rootRef.current;
    if (!root) return;
    injectStyles(root);
    injectStyles(root, css, 'admin');
  }, []);

  let body: ReactNode;
  if (!session) {
    body = <p className="gh-text">{format('portal.signedOut')}</p>;
  } else if (!loaded) {
    body = <Spinner />;
  } else {
    const value: AdminContextValue = {
      client,
      admin: adminClient,
      format,
      session,
      rights: loaded.rights,
      roles: loaded.roles,
      ownRoles: session.session.roles,
    };
    body = <AdminProvider value={value}>{children}</AdminProvider>;
  }
  return (
    <div ref={rootRef} className="gh-root gh-admin" style={themeVariables(styles) as CSSProperties}>
      {body}
    </div>
  );
}
