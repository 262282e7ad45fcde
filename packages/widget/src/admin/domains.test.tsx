// The domains section: the organization's domains with the TXT record to publish, added,
// verified and removed through the admin client, the server's refusals in an alert.
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { OrganizationDomain } from '@gatehouse/protocol';
import { apiError } from '@gatehouse/testing';
import { AdminDomains } from './portal.js';
import { renderAdmin } from '../test/render-admin.js';

afterEach(cleanup);

const domain = (name: string, status: OrganizationDomain['status']): OrganizationDomain => ({
  domain_id: `domain-${name}`,
  domain: name,
  status,
  txt_record: {
    name: `_gatehouse-verification.${name}`,
    value: `gatehouse-verification=token-${name}`,
  },
  verified_at: status === 'verified' ? '2030-01-01T00:00:00Z' : null,
  last_checked_at: null,
  created_at: '2030-01-01T00:00:00Z',
});
const ack = { request_id: 'r', status_code: 200 };

function renderDomains() {
  return renderAdmin((props) => <AdminDomains {...props} />, {
    prepare(admin) {
      admin.answer('organization.domains.list', async () => ({
        ...ack,
        domains: [domain('acme.test', 'verified'), domain('acme.example', 'pending')],
      }));
    },
  });
}

const row = (name: string) => screen.getByRole('listitem', { name });

describe('the domains section', () => {
  it('shows each domain, and the TXT record of those not verified', async () => {
    renderDomains();
    await screen.findByRole('listitem', { name: 'acme.example' });
    expect(within(row('acme.test')).getByText('Verified')).toBeTruthy();
    expect(within(row('acme.test')).queryByLabelText('TXT record value')).toBeNull();
    expect(
      within(row('acme.example')).getByLabelText<HTMLInputElement>('TXT record value').value,
    ).toBe('gatehouse-verification=token-acme.example');
    expect(
      within(row('acme.example')).getByLabelText<HTMLInputElement>('TXT record name').value,
    ).toBe('_gatehouse-verification.acme.example');
  });

  it('adds a domain, and verifies one', async () => {
    const { admin } = renderDomains();
    await screen.findByRole('listitem', { name: 'acme.example' });
    admin.answer('organization.domains.add', async () => ({
      ...ack,
      domain: domain('new.test', 'pending'),
    }));
    fireEvent.input(screen.getByLabelText('Domain'), { target: { value: ' new.test ' } });
    fireEvent.click(screen.getByRole('button', { name: 'Add domain' }));
    expect(await screen.findByRole('listitem', { name: 'new.test' })).toBeTruthy();
    expect(admin.callsTo('organization.domains.add')).toEqual([{ domain: 'new.test' }]);

    admin.answer('organization.domains.verify', async () => ({
      ...ack,
      domain: domain('acme.example', 'verified'),
    }));
    fireEvent.click(within(row('acme.example')).getByRole('button', { name: 'Verify' }));
    expect(await within(row('acme.example')).findByText('Verified')).toBeTruthy();
    expect(admin.callsTo('organization.domains.verify')).toEqual(['domain-acme.example']);
  });

  it('shows why a domain could not be verified, and removes one', async () => {
    const { admin } = renderDomains();
    await screen.findByRole('listitem', { name: 'acme.example' });
    admin.answer('organization.domains.verify', () =>
      Promise.reject(apiError('invalid_request', 'No TXT record was found for acme.example.')),
    );
    fireEvent.click(within(row('acme.example')).getByRole('button', { name: 'Verify' }));
    expect((await within(row('acme.example')).findByRole('alert')).textContent).toBe(
      'No TXT record was found for acme.example.',
    );
    admin.answer('organization.domains.delete', async () => ({
      ...ack,
      domain_id: 'domain-acme.example',
    }));
    fireEvent.click(within(row('acme.example')).getByRole('button', { name: 'Remove' }));
    await waitFor(() =>
      expect(screen.queryByRole('listitem', { name: 'acme.example' })).toBeNull(),
    );
    expect(admin.callsTo('organization.domains.delete')).toEqual(['domain-acme.example']);
  });
});
