/**
 * The actions of the built-in `stytch.*` resources, named as the provider names them (its browser
 * SDK's `rbac.isAuthorized`, its admin portal, its backend SDK's `authorization_check`), and which
 * action each change asks for: an update needs the action of every field it sends.
 */

/** A permission as the policy names it: a resource and one of its actions. */
export type Permission = readonly [resourceId: string, action: string];

/**
 * One thing a call needs: any one of these permissions suffices (a member's own change may be
 * allowed by `stytch.self` instead of `stytch.member`). The first is the one a refusal names.
 */
export type Need = readonly Permission[];

export const ORGANIZATION_RESOURCE = 'stytch.organization';
export const MEMBER_RESOURCE = 'stytch.member';
export const SELF_RESOURCE = 'stytch.self';

/** The actions on one's own member, which `stytch.self` has and `stytch.member` has too. */
const OWN_MEMBER_ACTIONS = [
  'update.info.name',
  'update.info.email',
  'update.info.untrusted-metadata',
  'update.info.mfa-phone',
  'update.info.delete.mfa-phone',
  'update.info.delete.password',
  'update.info.delete.mfa-totp',
  'update.info.unlink.retired-email',
  'update.settings.mfa-enrolled',
  'update.settings.default-mfa-method',
  'delete',
  'revoke-sessions',
  'get.connected-apps',
  'revoke.connected-app',
] as const;

export const ORGANIZATION_ACTIONS = [
  'update.info.name',
  'update.info.slug',
  'update.info.logo-url',
  'update.settings.allowed-auth-methods',
  'update.settings.allowed-mfa-methods',
  'update.settings.mfa-policy',
  'update.settings.email-jit-provisioning',
  'update.settings.email-invites',
  'update.settings.allowed-domains',
  'update.settings.sso-jit-provisioning',
  'update.settings.default-sso-connection',
  'update.settings.implicit-roles',
  'update.settings.oauth-tenant-jit-provisioning',
  'update.settings.allowed-oauth-tenants',
  'delete',
];

export const MEMBER_ACTIONS = [
  'create',
  'search',
  ...OWN_MEMBER_ACTIONS,
  'update.settings.is-breakglass',
  'update.settings.roles',
];

export const SELF_ACTIONS: readonly string[] = OWN_MEMBER_ACTIONS;

export const SSO_ACTIONS = ['create', 'get', 'update', 'delete'];

/**
 * The action each organization field asks for. `session_max_duration_minutes` has no action of
 * its own at the provider: it needs every action on the organization (`*`). The e-mail role rules
 * are checked where they are compared with the stored ones (tenancy/rbac/grants.ts): sending them
 * back unchanged needs nothing.
 */
const ORGANIZATION_FIELD_ACTIONS: Readonly<Record<string, string>> = {
  organization_name: 'update.info.name',
  organization_slug: 'update.info.slug',
  organization_logo_url: 'update.info.logo-url',
  email_jit_provisioning: 'update.settings.email-jit-provisioning',
  email_allowed_domains: 'update.settings.allowed-domains',
  email_invites: 'update.settings.email-invites',
  auth_methods: 'update.settings.allowed-auth-methods',
  allowed_auth_methods: 'update.settings.allowed-auth-methods',
  mfa_policy: 'update.settings.mfa-policy',
  mfa_methods: 'update.settings.allowed-mfa-methods',
  allowed_mfa_methods: 'update.settings.allowed-mfa-methods',
  oauth_tenant_jit_provisioning: 'update.settings.oauth-tenant-jit-provisioning',
  allowed_oauth_tenants: 'update.settings.allowed-oauth-tenants',
  sso_jit_provisioning: 'update.settings.sso-jit-provisioning',
  sso_jit_provisioning_allowed_connections: 'update.settings.sso-jit-provisioning',
  sso_default_connection_id: 'update.settings.default-sso-connection',
  session_max_duration_minutes: '*',
};

/** The action each member field asks for; `self`: whether `stytch.self` covers it for oneself. */
const MEMBER_FIELD_ACTIONS: Readonly<Record<string, { action: string; self: boolean }>> = {
  name: { action: 'update.info.name', self: true },
  untrusted_metadata: { action: 'update.info.untrusted-metadata', self: true },
  mfa_phone_number: { action: 'update.info.mfa-phone', self: true },
  // Marking a phone number verified is never one's own to do.
  mfa_phone_number_verified: { action: 'update.info.mfa-phone', self: false },
  mfa_enrolled: { action: 'update.settings.mfa-enrolled', self: true },
  default_mfa_method: { action: 'update.settings.default-mfa-method', self: true },
  is_breakglass: { action: 'update.settings.is-breakglass', self: false },
  roles: { action: 'update.settings.roles', self: false },
};

/** The fields a body sends (a JSON body has no undefined values; a parsed one may). */
function sentFields(body: unknown): string[] {
  if (typeof body !== 'object' || body === null) return [];
  return Object.entries(body)
    .filter(([, value]) => value !== undefined)
    .map(([field]) => field);
}

const unique = (needs: Need[]): Need[] => {
  const seen = new Set<string>();
  return needs.filter((n) => {
    const key = JSON.stringify(n);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
};

/**
 * What an organization update needs: the action of each field it sends; fields without one
 * (`updated_at`, unknown ones the body's check refuses) need nothing.
 *
 * @example
 * organizationUpdateNeeds({ organization_name: 'Acme' }); // [[['stytch.organization', 'update.info.name']]]
 */
export function organizationUpdateNeeds(body: unknown): Need[] {
  return unique(
    sentFields(body).flatMap((field) => {
      const action = ORGANIZATION_FIELD_ACTIONS[field];
      if (action === '*')
        return ORGANIZATION_ACTIONS.map((a) => [[ORGANIZATION_RESOURCE, a] as const]);
      return action ? [[[ORGANIZATION_RESOURCE, action] as const]] : [];
    }),
  );
}

/**
 * What a member call needs of `actions` on `stytch.member`; when the member is the caller
 * (`self`), `stytch.self` with the same action suffices for the actions it has.
 *
 * @example
 * memberNeeds(['delete'], true); // [[['stytch.member', 'delete'], ['stytch.self', 'delete']]]
 */
export function memberNeeds(actions: readonly string[], self: boolean): Need[] {
  return unique(
    actions.map((action) =>
      self && SELF_ACTIONS.includes(action)
        ? [
            [MEMBER_RESOURCE, action],
            [SELF_RESOURCE, action],
          ]
        : [[MEMBER_RESOURCE, action]],
    ),
  );
}

/**
 * What a member update needs: the action of each field it sends, on `stytch.member`, or for the
 * caller's own fields that `stytch.self` covers, on either.
 *
 * @example
 * memberUpdateNeeds({ roles: ['admin'] }, true); // [[['stytch.member', 'update.settings.roles']]]
 */
export function memberUpdateNeeds(body: unknown, self: boolean): Need[] {
  return unique(
    sentFields(body).flatMap((field): Need[] => {
      const rule = MEMBER_FIELD_ACTIONS[field];
      if (!rule) return [];
      return memberNeeds([rule.action], self && rule.self);
    }),
  );
}

/**
 * What a member's own update through `stytch.self` needs (the browser SDK's `self.update`).
 *
 * @example
 * selfUpdateNeeds({ name: 'Ada' }); // [[['stytch.self', 'update.info.name']]]
 */
export function selfUpdateNeeds(body: unknown): Need[] {
  return unique(
    sentFields(body).flatMap((field): Need[] => {
      const rule = MEMBER_FIELD_ACTIONS[field];
      return rule ? [[[SELF_RESOURCE, rule.action]]] : [];
    }),
  );
}
