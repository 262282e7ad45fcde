// Every endpoint a caller with only the public token can reach answers with exactly the fields §5–§7 allow.
import { ENDPOINTS } from '@gatehouse/protocol/endpoints';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectOk, startHarness, type Harness } from '../../test/harness.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
  // A member with everything an anonymous caller must never see: a phone, MFA, an extra role.
  const member = await h.admin.createMember(h.project.project_id, h.org.organization_id, {
    email_address: 'grace@acme.test',
    name: 'Grace',
    roles: ['admin'],
  });
  await h.admin.updateMember(h.project.project_id, member.member_id, {
    mfa_enrolled: true,
    mfa_phone_number: '+14155550123',
    mfa_phone_number_verified: true,
    default_mfa_method: 'sms_otp',
  });
  await h.admin.setMemberPassword(h.project.project_id, member.member_id, {
    password: 'correct horse battery staple 42',
  });
});
afterAll(async () => {
  await h.close();
});

/** The keys every success envelope carries (§3). */
const ENVELOPE = ['request_id', 'status_code'];
/** §5 "Anonymous member subset". */
const ANONYMOUS_MEMBER = [
  'organization_id',
  'member_id',
  'email_address',
  'status',
  'member_password_id',
];
/** §5 "Slug subset": the organization's MUST fields minus slug and MFA methods. */
const SLUG_SUBSET = [
  'organization_id',
  'organization_name',
  'organization_logo_url',
  'sso_active_connections',
  'sso_default_connection_id',
  'email_jit_provisioning',
  'email_allowed_domains',
  'auth_methods',
  'allowed_auth_methods',
  'mfa_policy',
];

function keys(value: object | null): string[] {
  if (value === null) throw new Error('expected an object, got null');
  return Object.keys(value).sort();
}

function sorted(list: string[]): string[] {
  return [...list].sort();
}

describe('anonymous endpoints', () => {
  it('passwords/email/reset/start: the anonymous member subset and the slug subset', async () => {
    const res = await h.call(ENDPOINTS.passwordsResetStart, {
      body: { organization_id: h.org.organization_id, email_address: 'grace@acme.test' },
    });
    expect(res.status).toBe(200);
    const data = expectOk(res);
    expect(keys(data)).toEqual(sorted([...ENVELOPE, 'member_id', 'member', 'organization']));
    expect(keys(data.member)).toEqual(sorted(ANONYMOUS_MEMBER));
    expect(keys(data.organization)).toEqual(sorted(SLUG_SUBSET));
    expect(data.member.member_password_id).toMatch(/^member-password-test-/);
    expect(res.text).not.toContain('+14155550123');
    expect(res.text).not.toContain('"roles"');
  });

  it('organizations/search: the slug subset', async () => {
    const res = await h.call(ENDPOINTS.organizationsSearch, {
      body: { organization_slug: 'acme' },
    });
    const data = expectOk(res);
    expect(keys(data)).toEqual(sorted([...ENVELOPE, 'organization']));
    expect(keys(data.organization)).toEqual(sorted(SLUG_SUBSET));
  });

  it('organizations/members/search: status, name and member_password_id (§7.4)', async () => {
    const res = await h.call(ENDPOINTS.membersSearch, {
      body: { email_address: 'grace@acme.test', organization_id: h.org.organization_id },
    });
    const data = expectOk(res);
    expect(keys(data)).toEqual(sorted([...ENVELOPE, 'member']));
    expect(keys(data.member)).toEqual(sorted(['status', 'name', 'member_password_id']));
  });

  it('magic-link sends: a bare ack', async () => {
    for (const [path, send] of [
      [
        ENDPOINTS.magicLinksLoginOrSignup.path,
        () =>
          h.call(ENDPOINTS.magicLinksLoginOrSignup, {
            body: { email_address: 'grace@acme.test', organization_id: h.org.organization_id },
          }),
      ],
      [
        ENDPOINTS.magicLinksDiscoverySend.path,
        () =>
          h.call(ENDPOINTS.magicLinksDiscoverySend, {
            body: { email_address: 'grace@acme.test' },
          }),
      ],
    ] as const) {
      const res = await send();
      expect(res.status, path).toBe(200);
      expect(keys(expectOk(res)), path).toEqual(sorted(ENVELOPE));
    }
  });

  it('passwords/strength_check: the verdict only', async () => {
    const res = await h.call(ENDPOINTS.passwordsStrengthCheck, {
      body: { password: 'hunter2', email_address: 'grace@acme.test' },
    });
    expect(keys(expectOk(res))).toEqual(
      sorted([
        ...ENVELOPE,
        'valid_password',
        'score',
        'breached_password',
        'breach_detection_on_create',
        'strength_policy',
        'zxcvbn_feedback',
        'luds_feedback',
      ]),
    );
  });

  it('bootstrap: the project settings of §6, nothing about members', async () => {
    const res = await h.call(ENDPOINTS.bootstrap, {
      params: { public_token: h.project.public_token },
    });
    expect(res.status).toBe(200);
    expect(keys(expectOk(res))).toEqual(
      sorted([
        ...ENVELOPE,
        'disable_sdk_watermark',
        'captcha_settings',
        'cname_domain',
        'email_domains',
        'pkce_required_for_email_magic_links',
        'pkce_required_for_password_resets',
        'pkce_required_for_oauth',
        'pkce_required_for_sso',
        'slug_pattern',
        'create_organization_enabled',
        'password_config',
        'dfp_protected_auth_enabled',
        'rbac_policy',
      ]),
    );
  });
});
