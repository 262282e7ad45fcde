// The admin portal shows and enables what the member's roles allow by the provider's
// fine-grained action names: each organization setting by its own action, members' roles,
// second factors and passwords each by theirs.
import { cleanup, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { organization } from '@gatehouse/testing';
import { rightsFrom } from './admin-context.js';
import { AdminSettings } from './portal.js';
import { renderAdmin } from '../test/render-admin.js';

afterEach(cleanup);

describe('the rights a permission map grants', () => {
  it('reads each organization setting and member change by its own action', () => {
    const rights = rightsFrom({
      'stytch.organization': {
        'update.info.name': true,
        'update.info.slug': false,
        'update.settings.sso-jit-provisioning': true,
      },
      'stytch.member': { 'update.settings.roles': true, 'update.info.delete.mfa-phone': true },
    });
    expect(rights.updateOrganization).toBe(true);
    expect(rights.organizationSettings).toMatchObject({
      name: true,
      slug: false,
      mfaPolicy: false,
    });
    // The session length has no action of its own: it needs every one on the organization.
    expect(rights.organizationSettings.sessionMax).toBe(false);
    // The SSO settings form saves sign-up and the default connection together.
    expect(rights.updateSsoSettings).toBe(false);
    expect(rights.updateMemberRoles).toBe(true);
    expect(rights.resetMemberMfa).toBe(false);
    expect(rights.removeMemberPasswords).toBe(false);
  });

  it('grants nothing by the coarse names of earlier releases', () => {
    const rights = rightsFrom({
      'stytch.organization': { update: true },
      'stytch.member': { update: true },
    });
    expect(rights.updateOrganization).toBe(false);
    expect(rights.updateMemberRoles).toBe(false);
  });
});

describe('the settings screen', () => {
  it('lets a member change only the settings their roles allow', async () => {
    renderAdmin((props) => <AdminSettings {...props} />, {
      roles: ['namer'],
      permissions: { 'stytch.organization': { 'update.info.name': true } },
      prepare(admin) {
        const answer = { request_id: 'r', status_code: 200, organization: organization() };
        admin.answer('organization.get', async () => answer);
      },
    });
    const name = await screen.findByLabelText<HTMLInputElement>('Organization name');
    expect(name.disabled).toBe(false);
    expect(screen.getByLabelText<HTMLInputElement>('Slug').disabled).toBe(true);
    expect(screen.getByRole('button', { name: 'Save' })).toBeTruthy();
  });
});
