/**
 * The frame every admin view renders in: the widget's root class and theme, the portal's style
 * sheet, its language (the portal's words and the login widget's, for the parts they share), the
 * signed-in member's session, and what they may do, asked of the client's RBAC checks.
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
import { en, type MessageTable } from '../messages/en.js';
import { createFormat } from '../messages/format.js';
import { MessagesProvider } from '../messages/use-messages.js';
import { Spinner } from '../parts/spinner.js';
import { themeVariables, type WidgetStyles } from '../theme.js';
import {
  adminEn,
  adminFormat,
  type AdminMessageKey,
  type AdminMessageTable,
} from './admin-messages.js';
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
  /**
   * The portal's language, a BCP 47 tag: `es` (or `es-MX`, …) speaks Spanish, anything else
   * English. Default: the page's `<html lang>`, else the browser's language.
   */
  locale?: string;
  /** Words to use instead of the shipped ones, by key; keys left out keep the shipped words. */
  messages?: Partial<Record<AdminMessageKey, string>>;
}

/** Whether a language tag (or, without one, the page's or the browser's) is Spanish. */
function speaksSpanish(locale: string | undefined): boolean {
  const tag =
    locale ?? (typeof document === 'undefined' ? '' : document.documentElement.lang) ?? '';
  const chosen = tag || (typeof navigator === 'undefined' ? '' : navigator.language);
  return chosen.split('-')[0]!.toLowerCase() === 'es';
}

/** A language's two tables: the portal's, and the login widget's for the parts both use. */
interface Tables {
  admin: AdminMessageTable;
  widget: MessageTable;
}

const ENGLISH: Tables = { admin: adminEn, widget: en };

/**
 * Both Spanish tables, fetched only by portals that speak it. The login widget's gives the parts
 * the portal shares with it (the password strength feedback, spinners) the portal's language.
 */
async function spanishTables(): Promise<Tables> {
  const [admin, widget] = await Promise.all([import('./admin-es.js'), import('../messages/es.js')]);
  return { admin: admin.adminEs, widget: widget.es };
}

interface Loaded {
  rights: AdminRights;
  roles: RbacRole[];
}

export function AdminFrame({
  client,
  admin,
  styles,
  locale,
  messages,
  children,
}: AdminViewProps & { children: ReactNode }) {
  const spanish = speaksSpanish(locale);
  const [spanishTable, setSpanishTable] = useState<Tables | null>(null);
  useEffect(() => {
    if (!spanish) return;
    let live = true;
    // English when they cannot load.
    spanishTables().then(
      (tables) => live && setSpanishTable(tables),
      () => live && setSpanishTable(ENGLISH),
    );
    return () => {
      live = false;
    };
  }, [spanish]);
  const tables = spanish ? spanishTable : ENGLISH;
  const table = tables?.admin ?? null;
  const widgetFormat = useMemo(() => createFormat(tables?.widget ?? en), [tables]);
  const session = useSyncExternalStore(
    (listener) => client.session.subscribe(listener),
    () => client.session.getSnapshot(),
  );
  const adminClient = useMemo(() => admin ?? createAdminClient(client), [admin, client]);
  const format = useMemo(() => adminFormat(messages, table ?? adminEn), [messages, table]);
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
  if (!table) {
    body = <Spinner />;
  } else if (!session) {
    body = <p className="gh-text">{format('portal.signedOut')}</p>;
  } else if (!loaded) {
    body = <Spinner />;
  } else {
    const value: AdminContextValue = {
      client,
      admin: adminClient,
      format,
      language: tables === ENGLISH ? 'en' : 'es',
      session,
      rights: loaded.rights,
      roles: loaded.roles,
      ownRoles: session.session.roles,
    };
    body = <AdminProvider value={value}>{children}</AdminProvider>;
  }
  return (
    <div ref={rootRef} className="gh-root gh-admin" style={themeVariables(styles) as CSSProperties}>
      <MessagesProvider value={widgetFormat}>{body}</MessagesProvider>
    </div>
  );
}
