// The portal: the sections the member may see, switched with the keyboard, the theme of the
// login widget, a signed-out page, and mounting into any page (lazily, as a separate chunk).
import { act, cleanup, fireEvent, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { createFakeAdminClient, createFakeClient, organization } from '@gatehouse/testing';
import { mountAdminPortal } from '../admin-portal.js';
import { AdminPortal } from './portal.js';
import {
  ADMIN_PERMISSIONS,
  MEMBER_PERMISSIONS,
  membersPage,
  renderAdmin,
  signedIn,
} from '../test/render-admin.js';

afterEach(cleanup);

const prepare = (admin: ReturnType<typeof createFakeAdminClient>) => {
  admin.answer('organization.members.list', async () => membersPage([]));
  admin.answer('organization.get', async () => ({
    request_id: 'r',
    status_code: 200,
    organization: organization(),
  }));
  admin.answer('sso.getConnections', async () => ({
    request_id: 'r',
    status_code: 200,
    saml_connections: [],
    oidc_connections: [],
    external_connections: [],
  }));
};

describe('the admin portal', () => {
  it('offers the sections an admin may use and switches between them', async () => {
    renderAdmin((props) => <AdminPortal {...props} styles={{ colors: { primary: '#123456' } }} />, {
      prepare,
    });
    const nav = await screen.findByRole('navigation', { name: 'Sections' });
    const tabs = nav.querySelectorAll('button');
    expect([...tabs].map((t) => t.textContent)).toEqual([
      'Members',
      'Settings',
      'Single sign-on',
      'Domains',
      'Sessions',
      'Your account',
    ]);
    expect(tabs[0]!.getAttribute('aria-current')).toBe('page');
    expect(await screen.findByRole('heading', { name: 'Members' })).toBeTruthy();
    // Buttons: Enter and Space activate them with the keyboard as a click.
    tabs[2]!.focus();
    fireEvent.click(tabs[2]!);
    expect(await screen.findByRole('heading', { name: 'Single sign-on connections' })).toBeTruthy();
    expect(tabs[2]!.getAttribute('aria-current')).toBe('page');
    const root = document.querySelector<HTMLElement>('.gh-root.gh-admin')!;
    expect(root.style.getPropertyValue('--gh-text')).toBe('#123456');
    expect(document.head.querySelector('style[data-gatehouse-widget="admin"]')).toBeTruthy();
  });

  it('leaves out sections a plain member may not see, and keeps the order asked for', async () => {
    renderAdmin(
      (props) => <AdminPortal {...props} sections={['sessions', 'sso', 'members', 'settings']} />,
      { roles: [], permissions: MEMBER_PERMISSIONS, prepare },
    );
    const nav = await screen.findByRole('navigation', { name: 'Sections' });
    // A plain member may not search the organization's members nor see its SSO connections.
    expect([...nav.querySelectorAll('button')].map((t) => t.textContent)).toEqual([
      'Sessions',
      'Settings',
    ]);
  });

  it('speaks Spanish when asked, or when the page is in Spanish', async () => {
    renderAdmin((props) => <AdminPortal {...props} locale="es-MX" />, { prepare });
    expect(await screen.findByRole('navigation', { name: 'Secciones' })).toBeTruthy();
    expect(await screen.findByRole('heading', { name: 'Miembros' })).toBeTruthy();
    cleanup();
    document.documentElement.lang = 'es';
    try {
      renderAdmin((props) => <AdminPortal {...props} />, { signedOut: true, prepare });
      expect(
        await screen.findByText('Inicia sesión para administrar tu organización.'),
      ).toBeTruthy();
    } finally {
      document.documentElement.removeAttribute('lang');
    }
  });

  it('asks a signed-out visitor to sign in', async () => {
    renderAdmin((props) => <AdminPortal {...props} locale="en" />, { signedOut: true, prepare });
    expect(await screen.findByText('Sign in to manage your organization.')).toBeTruthy();
  });

  it('mounts into a page element once its chunk has loaded, and unmounts', async () => {
    const element = document.createElement('div');
    document.body.appendChild(element);
    const client = createFakeClient();
    const admin = createFakeAdminClient();
    prepare(admin);
    client.setSession(signedIn(['admin']));
    client.setPermissions(ADMIN_PERMISSIONS);
    let portal!: Awaited<ReturnType<typeof mountAdminPortal>>;
    await act(async () => {
      portal = await mountAdminPortal(element, { client, admin, sections: ['members'] });
    });
    expect(await screen.findByRole('heading', { name: 'Members' })).toBeTruthy();
    act(() => portal.unmount());
    expect(element.textContent).toBe('');
    element.remove();
    await expect(mountAdminPortal('#nowhere', { client })).rejects.toThrow('not on the page');
  });
});
