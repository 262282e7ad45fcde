// The settings section: the organization's values loaded into labelled fields, only what changed
// sent back, a read-only view for members who may not change them, and the server's refusals.
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { apiError, organization } from '@gatehouse/testing';
import { AdminSettings } from './portal.js';
import { MEMBER_PERMISSIONS, renderAdmin } from '../test/render-admin.js';

afterEach(cleanup);

const acme = organization({
  organization_name: 'Acme',
  organization_slug: 'acme',
  organization_logo_url: 'https://acme.test/logo.png',
  auth_methods: 'ALL_ALLOWED',
  allowed_auth_methods: [],
  mfa_policy: 'OPTIONAL',
  email_jit_provisioning: 'NOT_ALLOWED',
  email_allowed_domains: ['acme.test'],
});

const answer = (org = acme) => ({ request_id: 'r', status_code: 200, organization: org });

function renderSettings(options: Parameters<typeof renderAdmin>[1] = {}) {
  return renderAdmin((props) => <AdminSettings {...props} />, {
    ...options,
    prepare(admin, client) {
      admin.answer('organization.get', async () => answer());
      options.prepare?.(admin, client);
    },
  });
}

describe('the settings section', () => {
  it("shows the organization's values in labelled fields", async () => {
    renderSettings();
    const name = await screen.findByLabelText<HTMLInputElement>('Organization name');
    expect(name.value).toBe('Acme');
    expect(screen.getByLabelText<HTMLInputElement>('Slug').value).toBe('acme');
    expect(screen.getByLabelText<HTMLInputElement>('Logo URL').value).toBe(
      'https://acme.test/logo.png',
    );
    expect(screen.getByRole<HTMLInputElement>('radio', { name: 'All methods' }).checked).toBe(true);
    expect(screen.getByRole<HTMLInputElement>('radio', { name: 'Optional' }).checked).toBe(true);
    expect(screen.getByLabelText<HTMLTextAreaElement>('Allowed email domains').value).toBe(
      'acme.test',
    );
  });

  it('sends only what changed and shows the saved values', async () => {
    const { admin } = renderSettings();
    fireEvent.input(await screen.findByLabelText('Organization name'), {
      target: { value: 'Acme Corp' },
    });
    fireEvent.click(screen.getByRole('radio', { name: 'Required for all members' }));
    fireEvent.click(screen.getByRole('radio', { name: 'Only these methods' }));
    fireEvent.click(screen.getByRole('checkbox', { name: 'Single sign-on' }));
    fireEvent.input(screen.getByLabelText('Allowed email domains'), {
      target: { value: 'acme.test\nAcme.Example' },
    });
    admin.answer('organization.update', async (patch) =>
      answer({
        ...acme,
        organization_name: patch.organization_name ?? acme.organization_name,
        mfa_policy: 'REQUIRED_FOR_ALL',
      }),
    );
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() =>
      expect(screen.getAllByRole('status').map((s) => s.textContent)).toContain('Saved'),
    );
    expect(admin.callsTo('organization.update')).toEqual([
      {
        updated_at: acme.updated_at,
        organization_name: 'Acme Corp',
        auth_methods: 'RESTRICTED',
        allowed_auth_methods: ['sso'],
        mfa_policy: 'REQUIRED_FOR_ALL',
        email_allowed_domains: ['acme.test', 'acme.example'],
      },
    ]);
    expect(screen.getByLabelText<HTMLInputElement>('Organization name').value).toBe('Acme Corp');
  });

  it("shows the server's refusal in an alert", async () => {
    const { admin } = renderSettings();
    fireEvent.input(await screen.findByLabelText('Allowed email domains'), {
      target: { value: 'other.test' },
    });
    admin.answer('organization.update', () =>
      Promise.reject(apiError('invalid_email_domain', 'You may allow only your own domain.')),
    );
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect((await screen.findByRole('alert')).textContent).toBe(
      'You may allow only your own domain.',
    );
  });

  it('reloads the stored values when someone else saved first (409 stale_update)', async () => {
    const { admin } = renderSettings();
    fireEvent.input(await screen.findByLabelText('Organization name'), {
      target: { value: 'Mine' },
    });
    admin.answer('organization.update', () =>
      Promise.reject(apiError('stale_update', 'Someone changed it since it was loaded.')),
    );
    admin.answer('organization.get', async () =>
      answer({ ...acme, organization_name: 'Theirs', updated_at: '2030-01-02T00:00:00Z' }),
    );
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect((await screen.findByRole('alert')).textContent).toBe(
      'Someone changed it since it was loaded.',
    );
    expect(screen.getByLabelText<HTMLInputElement>('Organization name').value).toBe('Theirs');
    fireEvent.input(screen.getByLabelText('Organization name'), { target: { value: 'Mine' } });
    admin.answer('organization.update', async () => answer({ ...acme, organization_name: 'Mine' }));
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(admin.callsTo('organization.update')).toHaveLength(2));
    expect(admin.callsTo('organization.update')[1]).toEqual({
      updated_at: '2030-01-02T00:00:00Z',
      organization_name: 'Mine',
    });
  });

  it('loads, sends and clears the maximum session length', async () => {
    const { admin } = renderSettings({
      prepare(admin) {
        admin.answer('organization.get', async () =>
          answer({ ...acme, session_max_duration_minutes: 480 }),
        );
      },
    });
    const field = await screen.findByLabelText<HTMLInputElement>(
      'Maximum session length (minutes)',
    );
    expect(field.value).toBe('480');
    expect([field.min, field.max, field.step]).toEqual(['5', '527040', '1']);
    expect(screen.getByText(/ends at most this many minutes after they sign in/)).toBeTruthy();
    admin.answer('organization.update', async (patch) =>
      answer({ ...acme, session_max_duration_minutes: patch.session_max_duration_minutes ?? null }),
    );
    fireEvent.input(field, { target: { value: '90' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(admin.callsTo('organization.update')).toHaveLength(1));
    expect(admin.callsTo('organization.update')[0]).toEqual({
      updated_at: acme.updated_at,
      session_max_duration_minutes: 90,
    });
    await waitFor(() => expect(field.value).toBe('90'));
    fireEvent.input(field, { target: { value: '' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(admin.callsTo('organization.update')).toHaveLength(2));
    expect(admin.callsTo('organization.update')[1]).toEqual({
      updated_at: acme.updated_at,
      session_max_duration_minutes: null,
    });
    expect(field.placeholder).toBe('No limit');
  });

  it("shows the server's refusal of a session length past the project's lifetime", async () => {
    const { admin } = renderSettings();
    fireEvent.input(await screen.findByLabelText('Maximum session length (minutes)'), {
      target: { value: '50000' },
    });
    admin.answer('organization.update', () =>
      Promise.reject(
        apiError(
          'invalid_request',
          "session_max_duration_minutes must be at most 43200, the project's session lifetime.",
        ),
      ),
    );
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect((await screen.findByRole('alert')).textContent).toMatch(/at most 43200/);
  });

  it('is read-only, without a save button, for a member who may not change the organization', async () => {
    renderSettings({ roles: [], permissions: MEMBER_PERMISSIONS });
    const name = await screen.findByLabelText<HTMLInputElement>('Organization name');
    expect(name.closest('fieldset')?.disabled).toBe(true);
    expect(screen.queryByRole('button', { name: 'Save' })).toBeNull();
    expect(
      screen.getByText('Only members allowed to change the organization can edit these settings.'),
    ).toBeTruthy();
  });
});
