// The report of a test sign-in built from a checked response: which checks pass, warn or fail,
// and what the mapping reads, without a server.
import { describe, expect, it } from 'vitest';
import { DEFAULT_SAML_ATTRIBUTE_MAPPING } from '@gatehouse/protocol';
import { fail } from '../../result.js';
import { testReport } from './connection-test.js';
import type { SamlSettings } from './connections.js';
import type { SamlAssertion } from './saml.js';

const settings: SamlSettings = {
  idp_entity_id: 'https://idp.example',
  idp_sso_url: 'https://idp.example/sso',
  attribute_mapping: DEFAULT_SAML_ATTRIBUTE_MAPPING,
  group_roles: [
    { group: 'it', role_id: 'admin' },
    { group: 'it', role_id: 'retired-role' },
  ],
  connection_roles: [],
  allow_idp_initiated: false,
  sign_in_enabled: true,
};

function assertion(overrides: Partial<SamlAssertion> = {}): SamlAssertion {
  return {
    assertionId: '_a',
    expiresAt: 0,
    inResponseTo: '_test',
    subject: 'ada@acme.test',
    email: 'ada@acme.test',
    firstName: 'Ada',
    lastName: 'Lovelace',
    groups: ['it'],
    attributes: {
      email: ['ada@acme.test'],
      firstName: ['Ada'],
      lastName: ['Lovelace'],
      groups: ['it'],
    },
    ...overrides,
  };
}

const statusOf = (report: ReturnType<typeof testReport>, check: string) =>
  report.checks.find((c) => c.check === check)?.status;

describe('testReport', () => {
  it('passes every check, and gives only roles the policy still has', () => {
    const report = testReport(assertion(), settings, new Set(['admin', 'member']));
    expect(report.status).toBe('passed');
    expect(report.checks.every((c) => c.status === 'passed')).toBe(true);
    expect(report.roles).toEqual(['admin']);
  });

  it('warns when the e-mail comes from the NameID', () => {
    const report = testReport(
      assertion({ attributes: { firstName: ['Ada'], lastName: ['L'], groups: ['it'] } }),
      settings,
      new Set(),
    );
    expect(report.status).toBe('passed');
    expect(statusOf(report, 'email')).toBe('warning');
  });

  it('fails when neither the attribute nor the NameID is an e-mail address', () => {
    const report = testReport(
      assertion({ subject: 'user-1234', email: 'user-1234', attributes: { email: ['nope'] } }),
      settings,
      new Set(),
    );
    expect(report.status).toBe('failed');
    expect(statusOf(report, 'email')).toBe('failed');
    expect(statusOf(report, 'attributes')).toBe('warning');
  });

  it('fails without a NameID', () => {
    const report = testReport(assertion({ subject: '' }), settings, new Set());
    expect(statusOf(report, 'name_id')).toBe('failed');
    expect(report.status).toBe('failed');
  });

  it('leaves every check unchecked for a refusal of the response itself', () => {
    const report = testReport(
      fail('invalid_saml_response', 'The identity provider did not sign the person in.'),
      settings,
      new Set(),
    );
    expect(report.status).toBe('failed');
    expect(report.error).toBe('The identity provider did not sign the person in.');
    expect(report.checks.every((c) => c.status === 'not_checked')).toBe(true);
  });
});
