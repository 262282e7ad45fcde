/** Pure reads of the widget state and configuration: what each screen shows and offers. */
import type {
  AuthMethod,
  DiscoveredOrganization,
  MembershipType,
  SsoConnectionRef,
} from '@gatehouse/protocol';
import type { Product, ResolvedConfig, ResolvedOAuthProvider } from '../config.js';
import type { FlowOrganization, WidgetState } from './state.js';

/** Whether an organization lets members use an auth method (no organization: no restriction). */
export function isAuthMethodAllowed(
  organization: FlowOrganization | null,
  method: AuthMethod,
): boolean {
  if (!organization || organization.auth_methods !== 'RESTRICTED') return true;
  return organization.allowed_auth_methods.includes(method);
}

/** A button of the Main screen. */
export type MainButton =
  | { kind: 'oauth'; provider: ResolvedOAuthProvider }
  | { kind: 'sso'; connection: SsoConnectionRef };

/**
 * A block of the Main screen: the e-mail magic link form (with 'Use a password instead' when
 * passwords are offered too), the password form when passwords are the only e-mail method, or a
 * group of sign-in buttons.
 */
export type MainSection =
  | { kind: 'emailForm'; offerPassword: boolean }
  | { kind: 'passwordForm' }
  | { kind: 'buttons'; buttons: MainButton[] };

/** Where a product's block sits: the e-mail methods share one, the buttons share the other. */
type BlockKind = 'email' | 'buttons';
const BLOCK_OF: Record<Product, BlockKind> = {
  emailMagicLinks: 'email',
  passwords: 'email',
  oauth: 'buttons',
  sso: 'buttons',
};

function buttonsFor(product: Product, state: WidgetState, config: ResolvedConfig): MainButton[] {
  const organization = state.flow.organization;
  if (product === 'oauth') {
    return config.oauth.providers
      .filter((p) => isAuthMethodAllowed(organization, `${p.type}_oauth`))
      .map((provider) => ({ kind: 'oauth', provider }));
  }
  if (product === 'sso') {
    // SSO connections belong to an organization, so discovery has none to offer.
    if (state.flow.type !== 'organization' || !organization) return [];
    if (!isAuthMethodAllowed(organization, 'sso')) return [];
    return organization.sso_active_connections.map((connection) => ({ kind: 'sso', connection }));
  }
  return [];
}

/**
 * The Google provider when Main offers its One Tap: configured with `one_tap`, and Google is
 * offered here (discovery, or an organization that allows it).
 */
export function oneTapProvider(
  state: WidgetState,
  config: ResolvedConfig,
): ResolvedOAuthProvider | null {
  if (state.flow.type === 'organization' && !state.flow.organization) return null;
  const buttons = config.products.includes('oauth') ? buttonsFor('oauth', state, config) : [];
  for (const button of buttons) {
    if (button.kind === 'oauth' && button.provider.type === 'google' && button.provider.oneTap) {
      return button.provider;
    }
  }
  return null;
}

/** Whether Main offers passwords: they need an organization to sign in to, and its consent. */
export function offersPasswords(state: WidgetState, config: ResolvedConfig): boolean {
  const organization = state.flow.organization;
  return (
    config.products.includes('passwords') &&
    state.flow.type === 'organization' &&
    organization !== null &&
    isAuthMethodAllowed(organization, 'password')
  );
}

/** The e-mail block: magic links (with the password link when both apply), else passwords. */
function emailSection(state: WidgetState, config: ResolvedConfig): MainSection | null {
  const magicLinks =
    config.products.includes('emailMagicLinks') &&
    isAuthMethodAllowed(state.flow.organization, 'magic_link');
  const passwords = offersPasswords(state, config);
  if (magicLinks) return { kind: 'emailForm', offerPassword: passwords };
  return passwords ? { kind: 'passwordForm' } : null;
}

/**
 * The blocks of the Main screen, in the order their products are configured. The e-mail methods
 * form one block and the buttons another, so when both exist the divider goes before the last.
 */
export function mainSections(state: WidgetState, config: ResolvedConfig): MainSection[] {
  const order: BlockKind[] = [];
  const buttons: MainButton[] = [];
  for (const product of config.products) {
    buttons.push(...buttonsFor(product, state, config));
    const block = BLOCK_OF[product];
    if (!order.includes(block)) order.push(block);
  }
  return order.flatMap((block): MainSection[] => {
    if (block === 'buttons') return buttons.length > 0 ? [{ kind: 'buttons', buttons }] : [];
    const section = emailSection(state, config);
    return section ? [section] : [];
  });
}

/** The heading of the Main screen: which message and the organization name it names. */
export function mainHeading(
  state: WidgetState,
):
  | { key: 'main.heading.discovery' }
  | { key: 'main.heading.organization'; organizationName: string }
  | null {
  if (state.flow.type === 'discovery') return { key: 'main.heading.discovery' };
  if (state.flow.type === 'organization' && state.flow.organization) {
    return {
      key: 'main.heading.organization',
      organizationName: state.flow.organization.organization_name,
    };
  }
  return null;
}

/** The action a Discovery row offers for a membership. */
export type DiscoveryRowAction = 'join' | 'acceptInvite' | 'continue';

const ROW_ACTION: Record<MembershipType, DiscoveryRowAction> = {
  eligible_to_join_by_email_domain: 'join',
  pending_member: 'join',
  invited_member: 'acceptInvite',
  active_member: 'continue',
};

/** The action label of a Discovery row (docs/widget.md §2). */
export function discoveryRowAction(discovered: DiscoveredOrganization): DiscoveryRowAction {
  return ROW_ACTION[discovered.membership.type];
}

/** Whether the Discovery screen offers to create an organization. */
export function canCreateOrganization(state: WidgetState, config: ResolvedConfig): boolean {
  return state.bootstrap.createOrganizationEnabled && !config.disableCreateOrganization;
}

/** What choosing a discovered organization does (docs/widget.md §4 "Discovery"). */
export type DiscoveredOrganizationStep =
  { kind: 'startSso'; connectionId: string } | { kind: 'showLogin' } | { kind: 'exchange' };

/** Decides how to enter a discovered organization. */
export function discoveredOrganizationStep(
  discovered: DiscoveredOrganization,
): DiscoveredOrganizationStep {
  const required = discovered.primary_required;
  if (!required) return { kind: 'exchange' };
  const methods = required.allowed_auth_methods;
  const connectionId = discovered.organization.sso_default_connection_id;
  if (methods.length === 1 && methods[0] === 'sso' && connectionId) {
    return { kind: 'startSso', connectionId };
  }
  return { kind: 'showLogin' };
}

/**
 * The organization to enter without asking, when directLoginForSingleMembership is on: exactly
 * one active membership, and no invites or e-mail-domain joins left unless those are ignored.
 */
export function directLoginOrganization(
  organizations: readonly DiscoveredOrganization[],
  options: ResolvedConfig['directLoginForSingleMembership'],
): DiscoveredOrganization | null {
  if (!options.status) return null;
  const active = organizations.filter((o) => o.membership.type === 'active_member');
  const invites = organizations.filter(
    (o) => o.membership.type === 'invited_member' || o.membership.type === 'pending_member',
  );
  const joins = organizations.filter(
    (o) => o.membership.type === 'eligible_to_join_by_email_domain',
  );
  if (active.length !== 1) return null;
  if (invites.length > 0 && !options.ignoreInvites) return null;
  if (joins.length > 0 && !options.ignoreJitProvisioning) return null;
  return active[0] ?? null;
}
