// MFA settings through the management API: PUT organization policies and member MFA fields.
import { ENDPOINTS, type RequestOf } from '@gatehouse/protocol/endpoints';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { basic, expectOk, startHarness, type Harness } from '../../test/harness.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h.close();
});

const putOrganization = (
  organizationId: string,
  body: RequestOf<typeof ENDPOINTS.updateOrganization>,
) => h.call(ENDPOINTS.updateOrganization, { params: { organization_id: organizationId }, body });

const putMember = (
  organizationId: string,
  memberId: string,
  body: RequestOf<typeof ENDPOINTS.updateMember>,
) =>
  h.call(ENDPOINTS.updateMember, {
    params: { organization_id: organizationId, member_id: memberId },
    body,
  });

describe('PUT /v1/b2b/organizations/:organization_id', () => {
  it('sets the MFA policy and restricts methods', async () => {
    const org = await h.admin.createOrganization(h.project.project_id, {
      organization_name: 'Policy',
      organization_slug: 'policy',
    });
    const res = await putOrganization(org.organization_id, {
      mfa_policy: 'REQUIRED_FOR_ALL',
      mfa_methods: 'RESTRICTED',
      allowed_mfa_methods: ['totp'],
    });
    expect(res.status).toBe(200);
    expect(expectOk(res).organization).toMatchObject({
      organization_id: org.organization_id,
      organization_name: 'Policy',
      mfa_policy: 'REQUIRED_FOR_ALL',
      mfa_methods: 'RESTRICTED',
      allowed_mfa_methods: ['totp'],
    });
    // Back to all methods: the list is complete again; untouched fields stay.
    const all = await putOrganization(org.organization_id, { mfa_methods: 'ALL_ALLOWED' });
    expect(expectOk(all).organization).toMatchObject({
      mfa_policy: 'REQUIRED_FOR_ALL',
      mfa_methods: 'ALL_ALLOWED',
      allowed_mfa_methods: ['sms_otp', 'totp'],
    });
    // The SDK sees the change.
    const search = await h.call(ENDPOINTS.organizationsSearch, {
      body: { organization_slug: 'policy' },
    });
    expect(expectOk(search).organization?.mfa_policy).toBe('REQUIRED_FOR_ALL');
  });

  it('rejects unknown values and organizations', async () => {
    // Untyped on purpose: 'email' is no MFA method, so the table's type refuses this body.
    const bad = await h.request(`/v1/b2b/organizations/${h.org.organization_id}`, {
      method: 'PUT',
      body: { allowed_mfa_methods: ['email'] },
      authorization: basic(h.project.project_id, h.project.secret),
      origin: null,
    });
    expect([bad.status, bad.error?.error_type]).toEqual([400, 'invalid_request']);
    expect(bad.error?.body?.[0]?.dataPath).toBe('.allowed_mfa_methods[0]');
    const missing = await putOrganization('organization-test-unknown', { mfa_policy: 'OPTIONAL' });
    expect([missing.status, missing.error?.error_type]).toEqual([404, 'organization_not_found']);
  });
});

describe('PUT /v1/b2b/organizations/:organization_id/members/:member_id', () => {
  it('sets enrollment, a normalized phone, its verification and the default method', async () => {
    const member = await h.admin.createMember(h.project.project_id, h.org.organization_id, {
      email_address: 'phone@acme.test',
    });
    const put = (body: RequestOf<typeof ENDPOINTS.updateMember>) =>
      putMember(h.org.organization_id, member.member_id, body);
    const res = await put({
      mfa_enrolled: true,
      mfa_phone_number: '(415) 555-0151',
      mfa_phone_number_verified: true,
      default_mfa_method: 'sms_otp',
    });
    expect(res.status).toBe(200);
    const data = expectOk(res);
    expect(data.member).toMatchObject({
      mfa_enrolled: true,
      mfa_phone_number: '+14155550151',
      mfa_phone_number_verified: true,
      default_mfa_method: 'sms_otp',
    });
    expect(data.organization.organization_id).toBe(h.org.organization_id);
    // A new number is unverified until proven; clearing it clears the flag.
    const moved = await put({ mfa_phone_number: '+14155550152' });
    expect(expectOk(moved).member.mfa_phone_number_verified).toBe(false);
    const cleared = await put({ mfa_phone_number: '', mfa_phone_number_verified: true });
    expect(expectOk(cleared).member).toMatchObject({
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
    await putMember(h.org.organization_id, a.member_id, { mfa_phone_number: '+14155550153' });
    const duplicate = await putMember(h.org.organization_id, b.member_id, {
      mfa_phone_number: '415 555 0153',
    });
    expect([duplicate.status, duplicate.error?.error_type]).toEqual([
      400,
      'duplicate_member_phone_number',
    ]);
    const invalid = await putMember(h.org.organization_id, b.member_id, {
      mfa_phone_number: 'not a number',
    });
    expect([invalid.status, invalid.error?.error_type]).toEqual([400, 'invalid_phone_number']);
    const other = await h.admin.createOrganization(h.project.project_id, {
      organization_name: 'Elsewhere',
      organization_slug: 'elsewhere',
    });
    const foreign = await putMember(other.organization_id, b.member_id, { mfa_enrolled: true });
    expect([foreign.status, foreign.error?.error_type]).toEqual([404, 'member_not_found']);
  });
});
