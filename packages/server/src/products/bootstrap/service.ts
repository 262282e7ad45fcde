/** Bootstrap (§6): the project settings the client reads once when it is built. */
import type { BootstrapData, RbacPolicy } from '@gatehouse/protocol';
import type { Project } from '../../tenancy/projects/service.js';

/** The bootstrap data of a project, without the envelope fields; `policy` is the project's (§6). */
export function bootstrapData(
  project: Project,
  emailDomain: string,
  policy: RbacPolicy,
  captcha: BootstrapData['captcha_settings'] = { enabled: false },
): Omit<BootstrapData, 'request_id' | 'status_code'> {
  return {
    disable_sdk_watermark: !project.displayWatermark,
    captcha_settings: captcha,
    cname_domain: null,
    email_domains: [emailDomain],
    pkce_required_for_email_magic_links: project.pkceRequired.email_magic_links,
    pkce_required_for_password_resets: project.pkceRequired.password_resets,
    pkce_required_for_oauth: project.pkceRequired.oauth,
    pkce_required_for_sso: project.pkceRequired.sso,
    slug_pattern: project.slugPattern,
    create_organization_enabled: project.createOrganizationEnabled,
    // The key must be present: the LUDS numbers under LUDS, null under any other policy.
    password_config:
      project.passwordPolicy.strength_policy === 'luds'
        ? {
            luds_complexity: project.passwordPolicy.luds_complexity,
            luds_minimum_count: project.passwordPolicy.luds_minimum_count,
          }
        : null,
    dfp_protected_auth_enabled: false,
    rbac_policy: policy,
  };
}
