// Bootstrap (§6): exact fields, project settings reflected, anonymous, unknown token refused.
import { ENDPOINTS } from '@gatehouse/protocol/endpoints';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectOk, startHarness, type Harness, type RequestOptions } from '../../test/harness.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness({ config: { emailFrom: 'Acme Sign-in <login@mail.acme.example>' } });
});
afterAll(async () => {
  await h.close();
});

/** Bootstrap of the public token in the path (the seeded project's unless told). */
const bootstrap = (
  options: Pick<RequestOptions, 'authorization' | 'origin'> = {},
  publicToken = h.project.public_token,
) => h.call(ENDPOINTS.bootstrap, { params: { public_token: publicToken }, ...options });

describe('GET /sdk/v1/projects/bootstrap/:public_token', () => {
  it('returns exactly the bootstrap fields', async () => {
    const res = await bootstrap({ authorization: null });
    expect(res.status).toBe(200);
    const { request_id, ...data } = expectOk(res);
    expect(request_id).toMatch(/^request-id-test-/);
    expect(data).toEqual({
      status_code: 200,
      disable_sdk_watermark: true,
      captcha_settings: { enabled: false },
      cname_domain: null,
      email_domains: ['mail.acme.example'],
      pkce_required_for_email_magic_links: false,
      pkce_required_for_password_resets: false,
      pkce_required_for_oauth: false,
      pkce_required_for_sso: false,
      slug_pattern: null,
      create_organization_enabled: true,
      password_config: null,
      dfp_protected_auth_enabled: false,
      rbac_policy: expect.any(Object) as unknown,
    });
    expect(Object.keys(data)).toContain('password_config');
    expect(data.rbac_policy.roles.map((r) => r.role_id).sort()).toEqual(['admin', 'member']);
    expect(data.rbac_policy.resources.length).toBeGreaterThan(0);
  });

  it('reflects updated project settings', async () => {
    await h.admin.updateProject(h.project.project_id, {
      pkceRequired: { email_magic_links: true, sso: true },
      slugPattern: 'http://localhost:3000/{{slug}}/login',
      createOrganizationEnabled: false,
    });
    h.clock.advance(10_000); // past the short project cache
    const res = await bootstrap();
    expect(expectOk(res)).toMatchObject({
      pkce_required_for_email_magic_links: true,
      pkce_required_for_sso: true,
      pkce_required_for_oauth: false,
      slug_pattern: 'http://localhost:3000/{{slug}}/login',
      create_organization_enabled: false,
    });
  });

  it('refuses an unknown public token with 401 and a disallowed origin with 403', async () => {
    const unknown = await bootstrap({}, 'public-token-test-unknown');
    expect(unknown.status).toBe(401);
    expect(unknown.error?.error_type).toBe('unauthorized_credentials');
    const foreign = await bootstrap({ origin: 'https://x.example' });
    expect(foreign.status).toBe(403);
    expect(foreign.error?.error_type).toBe('unauthorized_origin');
  });
});
