/**
 * The admin portal's chunk: `<AdminPortal>` with its sections, each section alone, and mounting
 * into a page element. Loaded on demand (`admin-lazy.tsx`), never with the login widget.
 */
import { StrictMode, useId, useState, type ComponentType } from 'react';
import { createRoot } from 'react-dom/client';
import { createClient } from '@gatehouse/client';
import { useAdmin, type AdminRights } from './admin-context.js';
import { AdminFrame, type AdminViewProps } from './admin-frame.js';
import { AccountSection } from './account.js';
import { DomainsSection } from './domains.js';
import { MembersSection } from './members.js';
import { SettingsSection } from './settings.js';
import { SessionsSection } from './sessions.js';
import { SsoSection } from './sso.js';

/** The sections of the portal, in the order they are offered by default. */
export type AdminSection = 'members' | 'settings' | 'sso' | 'domains' | 'sessions' | 'account';

interface SectionEntry {
  label: `section.${AdminSection}`;
  component: ComponentType;
  /** Whether the member may see the section at all. */
  visible: (rights: AdminRights) => boolean;
}

const SECTIONS: Record<AdminSection, SectionEntry> = {
  members: { label: 'section.members', component: MembersSection, visible: (r) => r.searchMembers },
  // Everyone may read the organization's settings; only some may change them.
  settings: { label: 'section.settings', component: SettingsSection, visible: () => true },
  sso: { label: 'section.sso', component: SsoSection, visible: (r) => r.viewSso },
  domains: {
    label: 'section.domains',
    component: DomainsSection,
    // The server's domain calls ask for `stytch.organization` `update.settings.allowed-domains`.
    visible: (r) => r.organizationSettings.domains,
  },
  // Every member may see and end their own sessions; some, the organization's.
  sessions: { label: 'section.sessions', component: SessionsSection, visible: () => true },
  // Every member manages their own sign-in methods.
  account: { label: 'section.account', component: AccountSection, visible: () => true },
};

const ALL_SECTIONS: readonly AdminSection[] = [
  'members',
  'settings',
  'sso',
  'domains',
  'sessions',
  'account',
];

/** Props of {@link AdminPortal}. */
export interface AdminPortalProps extends AdminViewProps {
  /** The sections to offer, in this order; default all. A section the member may not see is left out. */
  sections?: readonly AdminSection[];
}

export function AdminPortal({ sections = ALL_SECTIONS, ...view }: AdminPortalProps) {
  return (
    <AdminFrame {...view}>
      <PortalBody sections={sections} />
    </AdminFrame>
  );
}

function PortalBody({ sections }: { sections: readonly AdminSection[] }) {
  const { format, rights } = useAdmin();
  const id = useId();
  const offered = sections.filter((s) => SECTIONS[s]?.visible(rights));
  const [current, setCurrent] = useState<AdminSection | undefined>(offered[0]);
  const shown = current && offered.includes(current) ? current : offered[0];
  if (!shown) return <p className="gh-text">{format('portal.noSections')}</p>;
  const Section = SECTIONS[shown].component;
  return (
    <div className="gh-admin-portal">
      {offered.length > 1 && (
        <nav className="gh-admin-nav" aria-label={format('portal.sections')}>
          <ul>
            {offered.map((section) => (
              <li key={section}>
                <button
                  type="button"
                  className="gh-admin-tab"
                  aria-current={section === shown ? 'page' : undefined}
                  aria-controls={`${id}-panel`}
                  onClick={() => setCurrent(section)}
                >
                  {format(SECTIONS[section].label)}
                </button>
              </li>
            ))}
          </ul>
        </nav>
      )}
      <div id={`${id}-panel`}>
        <Section />
      </div>
    </div>
  );
}

/** The members section alone. */
export function AdminMembers(props: AdminViewProps) {
  return (
    <AdminFrame {...props}>
      <MembersSection />
    </AdminFrame>
  );
}

/** The settings section alone. */
export function AdminSettings(props: AdminViewProps) {
  return (
    <AdminFrame {...props}>
      <SettingsSection />
    </AdminFrame>
  );
}

/** The SSO section alone. */
export function AdminSso(props: AdminViewProps) {
  return (
    <AdminFrame {...props}>
      <SsoSection />
    </AdminFrame>
  );
}

/** The domains section alone. */
export function AdminDomains(props: AdminViewProps) {
  return (
    <AdminFrame {...props}>
      <DomainsSection />
    </AdminFrame>
  );
}

/** The sessions section alone. */
export function AdminSessions(props: AdminViewProps) {
  return (
    <AdminFrame {...props}>
      <SessionsSection />
    </AdminFrame>
  );
}

/** The account section alone. */
export function AdminAccount(props: AdminViewProps) {
  return (
    <AdminFrame {...props}>
      <AccountSection />
    </AdminFrame>
  );
}

/** Options of `mountAdminPortal`: a client, or the public token (and base URL) to create one. */
export interface MountAdminPortalOptions extends Omit<AdminPortalProps, 'client'> {
  client?: AdminPortalProps['client'];
  publicToken?: string;
  baseUrl?: string;
}

/** A mounted admin portal. */
export interface MountedAdminPortal {
  /** Removes the portal; a client it created is stopped too. */
  unmount(): void;
}

/** The element `target` names; throws when it is not on the page (as the widget's `mount`). */
function resolveTarget(target: Element | string): Element {
  const element = typeof target === 'string' ? document.querySelector(target) : target;
  if (!element || !element.isConnected) {
    const name = typeof target === 'string' ? target : 'element';
    throw new Error(`Gatehouse: the mount target ${name} is not on the page.`);
  }
  return element;
}

/** Renders the portal into an element (the chunk's half of `mountAdminPortal`). */
export function renderAdminPortal(
  target: Element | string,
  { client, publicToken, baseUrl, ...props }: MountAdminPortalOptions,
): MountedAdminPortal {
  const element = resolveTarget(target);
  const ownsClient = !client;
  if (!client && !publicToken) {
    throw new TypeError('Gatehouse: mountAdminPortal needs a client or a publicToken.');
  }
  const used = client ?? createClient(publicToken ?? '', { baseUrl });
  const root = createRoot(element);
  root.render(
    <StrictMode>
      <AdminPortal client={used} {...props} />
    </StrictMode>,
  );
  return {
    unmount() {
      root.unmount();
      if (ownsClient) used.destroy();
    },
  };
}
