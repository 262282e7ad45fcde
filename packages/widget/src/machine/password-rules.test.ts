import { describe, expect, it } from 'vitest';
import { resolveConfig, type WidgetConfig } from '../config.js';
import { TEST_BOOTSTRAP, organization } from '@gatehouse/testing';
import { emailMayJoin, ludsRequirements } from './password-rules.js';
import { initialState } from './state.js';

function setup(config: WidgetConfig) {
  const resolved = resolveConfig(config);
  const state = initialState({
    config: resolved,
    bootstrap: TEST_BOOTSTRAP,
    hasSession: false,
    urlToken: null,
  });
  return { config: resolved, state };
}

describe('emailMayJoin', () => {
  it('follows the e-mail provisioning rule of the organization', () => {
    expect(emailMayJoin(organization(), 'a@ACME.test')).toBe(true);
    expect(emailMayJoin(organization(), 'a@acme.test.evil')).toBe(false);
    expect(
      emailMayJoin(organization({ email_jit_provisioning: 'NOT_ALLOWED' }), 'a@acme.test'),
    ).toBe(false);
  });
});

describe('ludsRequirements', () => {
  it("prefers the project's rules, then the widget's, then 8 and 3", () => {
    const { config, state } = setup({
      products: ['passwords'],
      authFlowType: 'passwordReset',
      passwordConfig: { ludsMinimumCount: 10, ludsComplexity: 2 },
    });
    expect(ludsRequirements(state, config)).toEqual({ minimumCount: 10, complexity: 2 });
    const project = {
      ...state,
      bootstrap: {
        ...state.bootstrap,
        passwordConfig: { ludsMinimumCount: 12, ludsComplexity: 4 },
      },
    };
    expect(ludsRequirements(project, config)).toEqual({ minimumCount: 12, complexity: 4 });
    const bare = setup({ products: ['passwords'], authFlowType: 'passwordReset' });
    expect(ludsRequirements(bare.state, bare.config)).toEqual({ minimumCount: 8, complexity: 3 });
  });
});
