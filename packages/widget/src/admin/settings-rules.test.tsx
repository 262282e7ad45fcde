// The settings section's slug, allowed second factors and roles by e-mail domain: each sent only
// when changed, with the loaded updated_at; rules editable only with
// `update.settings.implicit-roles`, and only for roles the admin holds.
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { apiError, organization } from '@gatehouse/testing';
import type { Organization } from '@gatehouse/protocol';
import { AdminSettings } from './portal.js';
import { ADMIN_PERMISSIONS, renderAdmin } from '../test/render-admin.js';

afterEach(cleanup);

const acme = organization({
  organization_slug: 'acme',
  mfa_methods: 'ALL_ALLOWED',
  allowed_mfa_methods: ['sms_otp', 'totp'],
  rbac_email_implicit_role_assignments: [{ domain: 'acme.test', role_id: 'billing' }],
});
const answer = (org: Organization = acme) => ({
  request_id: 'r',
  status_code: 200,
  organization: org,
});

const WITH_RULES = {
  ...ADMIN_PERMISSIONS,
  'stytch.organization': {
    ...ADMIN_PERMISSIONS['stytch.organization'],
    'update.settings.implicit-roles': true,
  },
};

function renderSettings(permissions: Record<string, Record<string, boolean>> = WITH_RULES) {
  return renderAdmin((props) => <AdminSettings {...props} />, {
    roles: ['admin'],
    permissions,
    prepare(admin) {
      admin.answer('organization.get', async () => answer());
      admin.answer('organization.update', async () => answer());
    },
  });
}

const save = () => fireEvent.click(screen.getByRole('button', { name: 'Save' }));

describe('the settings section, slug and rules', () => {
  it('sends a new slug alone, and shows the refusal of a taken one', async () => {
    const { admin } = renderSettings();
    const slug = await screen.findByLabelText<HTMLInputElement>('Slug');
    expect(screen.getByText(/links with the old slug stop working/)).toBeTruthy();
    fireEvent.input(slug, { target: { value: 'acme-corp' } });
    admin.answer('organization.update', () =>
      Promise.reject(
        apiError('organization_slug_taken', 'That organization slug is already taken.'),
      ),
    );
    save();
    expect((await screen.findByRole('alert')).textContent).toBe(
      'That organization slug is already taken.',
    );
    expect(admin.callsTo('organization.update')).toEqual([
      { updated_at: acme.updated_at, organization_slug: 'acme-corp' },
    ]);
  });

  it('restricts the second factors members may use', async () => {
    const { admin } = renderSettings();
    const group = (await screen.findByText('Allowed second factors')).closest('fieldset')!;
    expect(
      within(group).getByRole<HTMLInputElement>('radio', { name: 'Any second factor' }).checked,
    ).toBe(true);
    fireEvent.click(within(group).getByRole('radio', { name: 'Only these second factors' }));
    fireEvent.click(within(group).getByRole('checkbox', { name: 'Text message' }));
    save();
    await waitFor(() => expect(admin.callsTo('organization.update')).toHaveLength(1));
    expect(admin.callsTo('organization.update')[0]).toEqual({
      updated_at: acme.updated_at,
      mfa_methods: 'RESTRICTED',
      allowed_mfa_methods: ['totp'],
    });
  });

  it('adds and removes roles by e-mail domain, offering only roles the admin holds', async () => {
    const { admin } = renderSettings();
    const rules = await screen.findByRole('list', { name: 'Roles by email domain' });
    expect(within(rules).getByText('acme.test: billing')).toBeTruthy();
    const role = screen.getByLabelText<HTMLSelectElement>('Role');
    expect([...role.options].map((o) => o.value)).toEqual(['admin']);
    fireEvent.input(screen.getByLabelText('Email domain'), {
      target: { value: 'Contractors.Acme.test' },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Add rule' }));
    fireEvent.click(screen.getByRole('button', { name: 'Remove rule: acme.test: billing' }));
    expect(within(rules).getByText('contractors.acme.test: admin')).toBeTruthy();
    save();
    await waitFor(() => expect(admin.callsTo('organization.update')).toHaveLength(1));
    expect(admin.callsTo('organization.update')[0]).toEqual({
      updated_at: acme.updated_at,
      rbac_email_implicit_role_assignments: [{ domain: 'contractors.acme.test', role_id: 'admin' }],
    });
  });

  it('shows the rules without controls to an admin who may not change them', async () => {
    renderSettings(ADMIN_PERMISSIONS);
    await screen.findByText('acme.test: billing');
    expect(screen.queryByRole('button', { name: 'Add rule' })).toBeNull();
    expect(screen.queryByRole('button', { name: /^Remove rule/ })).toBeNull();
    expect(screen.queryByLabelText('Email domain')).toBeNull();
  });
});
