import { describe, expect, it } from 'vitest';
import { resolveConfig, type WidgetConfig } from '../config.js';
import { TEST_BOOTSTRAP, discovered, organization } from '@gatehouse/testing';
import {
  canCreateOrganization,
  directLoginOrganization,
  discoveredOrganizationStep,
  discoveryRowAction,
  mainHeading,
  mainSections,
} from './selectors.js';
import { initialState, type FlowOrganization, type WidgetState } from './state.js';

function setup(config: WidgetConfig, org: FlowOrganization | null = null) {
  const resolved = resolveConfig(config);
  const state: WidgetState = {
    ...initialState({
      config: resolved,
      bootstrap: TEST_BOOTSTRAP,
      hasSession: false,
      urlToken: null,
    }),
  };
  return { config: resolved, state: { ...state, flow: { ...state.flow, organization: org } } };
}

const providers = { providers: ['google' as const, 'microsoft' as const] };

describe('mainSections', () => {
  it('puts the divider rule into practice: one form block and one button block', () => {
    const { state, config } = setup({
      products: ['emailMagicLinks', 'oauth'],
      authFlowType: 'discovery',
      oauthOptions: providers,
    });
    const sections = mainSections(state, config);
    expect(sections.map((s) => s.kind)).toEqual(['emailForm', 'buttons']);
    const buttons = sections[1]?.kind === 'buttons' ? sections[1].buttons : [];
    expect(buttons.map((b) => (b.kind === 'oauth' ? b.provider.type : b.kind))).toEqual([
      'google',
      'microsoft',
    ]);
  });

  it('follows the configured product order', () => {
    const { state, config } = setup({
      products: ['oauth', 'emailMagicLinks'],
      authFlowType: 'discovery',
      oauthOptions: providers,
    });
    expect(mainSections(state, config).map((s) => s.kind)).toEqual(['buttons', 'emailForm']);
  });

  it('offers SSO connections only in an organization', () => {
    const org = organization({
      sso_active_connections: [
        {
          connection_id: 'saml-connection-test-1',
          display_name: 'Okta',
          identity_provider: 'okta',
        },
      ],
    });
    const sso = setup({ products: ['sso'], authFlowType: 'organization' }, org);
    expect(mainSections(sso.state, sso.config)).toEqual([
      { kind: 'buttons', buttons: [{ kind: 'sso', connection: org.sso_active_connections[0] }] },
    ]);
    const disc = setup({ products: ['sso'], authFlowType: 'discovery' });
    expect(mainSections(disc.state, disc.config)).toEqual([]);
  });

  it('shows only the methods a restricting organization allows', () => {
    const org = organization({
      auth_methods: 'RESTRICTED',
      allowed_auth_methods: ['microsoft_oauth'],
      sso_active_connections: [
        {
          connection_id: 'saml-connection-test-1',
          display_name: 'Okta',
          identity_provider: 'okta',
        },
      ],
    });
    const { state, config } = setup(
      {
        products: ['emailMagicLinks', 'oauth', 'sso'],
        authFlowType: 'organization',
        oauthOptions: providers,
      },
      org,
    );
    const sections = mainSections(state, config);
    expect(sections).toHaveLength(1);
    const [only] = sections;
    expect(
      only?.kind === 'buttons' && only.buttons.map((b) => b.kind === 'oauth' && b.provider.type),
    ).toEqual(['microsoft']);
  });
});

describe('mainHeading', () => {
  it('names the flow', () => {
    expect(mainHeading(setup({ products: [], authFlowType: 'discovery' }).state)).toEqual({
      key: 'main.heading.discovery',
    });
    expect(
      mainHeading(setup({ products: [], authFlowType: 'organization' }, organization()).state),
    ).toEqual({ key: 'main.heading.organization', organizationName: 'Acme' });
  });
});

describe('discovery', () => {
  it('labels rows by membership', () => {
    expect(discoveryRowAction(discovered('eligible_to_join_by_email_domain'))).toBe('join');
    expect(discoveryRowAction(discovered('pending_member'))).toBe('join');
    expect(discoveryRowAction(discovered('invited_member'))).toBe('acceptInvite');
    expect(discoveryRowAction(discovered('active_member'))).toBe('continue');
  });

  it('offers creation only when the project and the configuration allow it', () => {
    const { state, config } = setup({ products: [], authFlowType: 'discovery' });
    expect(canCreateOrganization(state, config)).toBe(true);
    const disabled = resolveConfig({
      products: [],
      authFlowType: 'discovery',
      disableCreateOrganization: true,
    });
    expect(canCreateOrganization(state, disabled)).toBe(false);
    const off = { ...state, bootstrap: { ...state.bootstrap, createOrganizationEnabled: false } };
    expect(canCreateOrganization(off, config)).toBe(false);
  });

  it('exchanges, shows the login, or starts SSO depending on primary_required', () => {
    expect(discoveredOrganizationStep(discovered('active_member'))).toEqual({ kind: 'exchange' });
    expect(
      discoveredOrganizationStep(
        discovered(
          'active_member',
          { sso_default_connection_id: 'saml-connection-test-1' },
          {
            allowed_auth_methods: ['sso'],
          },
        ),
      ),
    ).toEqual({ kind: 'startSso', connectionId: 'saml-connection-test-1' });
    expect(
      discoveredOrganizationStep(
        discovered('active_member', {}, { allowed_auth_methods: ['sso'] }),
      ),
    ).toEqual({ kind: 'showLogin' });
    expect(
      discoveredOrganizationStep(
        discovered(
          'active_member',
          { sso_default_connection_id: 'saml-connection-test-1' },
          {
            allowed_auth_methods: ['sso', 'password'],
          },
        ),
      ),
    ).toEqual({ kind: 'showLogin' });
  });

  it('picks the single active membership for direct login, minding invites and joins', () => {
    const on = { status: true, ignoreInvites: false, ignoreJitProvisioning: false };
    const active = discovered('active_member');
    expect(directLoginOrganization([active], on)).toBe(active);
    expect(directLoginOrganization([active], { ...on, status: false })).toBeNull();
    expect(directLoginOrganization([active, discovered('active_member')], on)).toBeNull();

    const withInvite = [active, discovered('invited_member')];
    expect(directLoginOrganization(withInvite, on)).toBeNull();
    expect(directLoginOrganization(withInvite, { ...on, ignoreInvites: true })).toBe(active);

    const withJoin = [active, discovered('eligible_to_join_by_email_domain')];
    expect(directLoginOrganization(withJoin, on)).toBeNull();
    expect(directLoginOrganization(withJoin, { ...on, ignoreJitProvisioning: true })).toBe(active);
  });
});

describe('mainSections with passwords', () => {
  const both: WidgetConfig = {
    products: ['emailMagicLinks', 'passwords', 'oauth'],
    authFlowType: 'organization',
    oauthOptions: providers,
  };

  it('offers the password link under the magic link form when both apply', () => {
    const { config, state } = setup(both, organization());
    expect(mainSections(state, config)[0]).toEqual({ kind: 'emailForm', offerPassword: true });
  });

  it('shows the password form in the e-mail block when passwords are the only e-mail method', () => {
    const { config, state } = setup(
      { products: ['oauth', 'passwords'], authFlowType: 'organization', oauthOptions: providers },
      organization(),
    );
    expect(mainSections(state, config).map((s) => s.kind)).toEqual(['buttons', 'passwordForm']);

    const noMagicLinks = setup(
      both,
      organization({ auth_methods: 'RESTRICTED', allowed_auth_methods: ['password'] }),
    );
    expect(mainSections(noMagicLinks.state, noMagicLinks.config)).toEqual([
      { kind: 'passwordForm' },
    ]);
  });

  it('leaves passwords out where the organization forbids them, or in discovery', () => {
    const restricted = setup(
      both,
      organization({ auth_methods: 'RESTRICTED', allowed_auth_methods: ['magic_link'] }),
    );
    expect(mainSections(restricted.state, restricted.config)).toEqual([
      { kind: 'emailForm', offerPassword: false },
    ]);
    const discovery = setup({ products: ['passwords'], authFlowType: 'discovery' });
    expect(mainSections(discovery.state, discovery.config)).toEqual([]);
  });
});
