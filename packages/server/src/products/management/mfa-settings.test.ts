// MFA settings through the management API: PUT organization policies and member MFA fields.
/* eslint-disable @typescript-eslint/no-unsafe-member-access -- tests assert on untyped JSON response bodies */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { basic, startHarness, type Harness } from '../../test/harness.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h.close();
});

const put = (path: string, body: unknown) =>
  h.request(`/v1/b2b${path}`, {
    method: 'PUT',
    body,
    authorization: basic(h.project.project_id, h.project.secret),
    origin: null,
  });

describe('PUT /v1/b2b/organizations/:organization_id', () => {
  it('sets the MFA policy and restricts methods', async () => {
    const org = await h.admin.createOrganization(h.project.project_id, {
      organization_name: 'Policy',
      organization_slug: 'policy',
    });
    const res = await put(`/organizations/${org.organization_id}`, {
      mfa_policy: 'REQUIRED_FOR_ALL',
      mfa_methods: 'RESTRICTED',
      allowed_mfa_methods: ['totp'],
    });
    expect(res.status).toBe(200);
    expect(res.body.data.organization).toMatchObject({
      organization_id: org.organization_id,
      organization_name: 'Policy',
      mfa_policy: 'REQUIRED_FOR_ALL',
      mfa_methods: 'RESTRICTED',
      allowed_mfa_methods: ['totp'],
    });
    // Back to all methods: the list is complete again; untouched fields stay.
    const all = await put(`/organizations/${org.organization_id}`, { mfa_methods: 'ALL_ALLOWED' });
    expect(all.body.data.organization).toMatchObject({
      mfa_policy: 'REQUIRED_FOR_ALL',
      mfa_methods: 'ALL_ALLOWED',
      allowed_mfa_methods: ['sms_otp', 'totp'],
    });
    // The SDK sees the change.
    const search = await h.sdk('/b2b/organizations/search', {
      body: { organization_slug: 'policy' },
    });
    expect(search.body.data.organization.mfa_policy).toBe('REQUIRED_FOR_ALL');
  });

  it('rejects unknown values and organizations', async () => {
    const bad = await put(`/organizations/${h.org.organization_id}`, {
      allowed_mfa_methods: ['email'],
    });
    expect([bad.status, bad.body.error_type]).toEqual([400, 'invalid_request']);
    expect(bad.body.body[0].dataPath).toBe('.allowed_mfa_methods[0]');
    const missing = await put('/organizations/organization-test-unknown', {
      mfa_policy: 'OPTIONAL',
    });
    expect([missing.status, missing.body.error_type]).toEqual([404, 'organization_not_found']);
  });
});

describe('PUT /v1/b2b/organizations/:organization_id/members/:member_id', () => {
  it('sets enrollment, a normalized phone, its verification and the default method', async () => {
    const member = await h.admin.createMember(h.project.project_id, h.org.organization_id, {
      email_address: 'phone@acme.test',
    });
    const path = `/organizations/${h.org.organization_id}/members/${member.member_id}`;
    const res = await put(path, {
      mfa_enrolled: true,
      mfa_phone_number: '(415) 555-0151',
      mfa_phone_number_verified: true,
      default_mfa_method: 'sms_otp',
    });
    expect(res.status).toBe(200);
    expect(res.body.data.member).toMatchObject({
      mfa_enrolled: true,
      mfa_phone_number: '+14155550151',
      mfa_phone_number_verified: true,
      default_mfa_method: 'sms_otp',
    });
    expect(res.body.data.organization.organization_id).toBe(h.org.organization_id);
    // A new number is unverified until proven; clearing it clears the flag.
    const moved = await put(path, { mfa_phone_number: '+14155550152' });
    expect(moved.body.data.member.mfa_phone_number_verified).toBe(false);
    const cleared = await put(path, { mfa_phone_number: '', mfa_phone_number_verified: true });
    expect(cleared.body.data.member).toMatchObject({
      mfa_phone_number: '',
      mfa_phone_number_verified: false,
    });
  });

  it('refuses invalid and duplicate numbers, and members of another organization', async () => {
    const a = await h.admin.createMember(h.project.project_id, h.org.organization_id, {
      email_address: 'a@acme.test',
    });
    const b = await h.admin.createMember(h.project.project_id, h.org.organization_id, {
      email_address: 'b@acme.test',
    });
    await put(`/organizations/${h.org.organization_id}/members/${a.member_id}`, {
      mfa_phone_number: '+14155550153',
    });
    const duplicate = await put(`/organizations/${h.org.organization_id}/members/${b.member_id}`, {
      mfa_phone_number: '415 555 0153',
    });
    expect([duplicate.status, duplicate.body.error_type]).toEqual([
      400,
      'duplicate_member_phone_number',
    ]);
    const invalid = await put(`/organizations/${h.org.organization_id}/members/${b.member_id}`, {
      mfa_phone_number: 'not a number',
    });
    expect([invalid.status, invalid.body.error_type]).toEqual([400, 'invalid_phone_number']);
    const other = await h.admin.createOrganization(h.project.project_id, {
      organization_name: 'Elsewhere',
      organization_slug: 'elsewhere',
    });
    const foreign = await put(`/organizations/${other.organization_id}/members/${b.member_id}`, {
      mfa_enrolled: true,
    });
    expect([foreign.status, foreign.body.error_type]).toEqual([404, 'member_not_found']);
  });
});
