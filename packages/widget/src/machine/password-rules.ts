/** Rules of the password flows (docs/widget.md §5), apart from Main's selectors so they load with them. */
import type { ResolvedConfig } from '../config.js';
import type { FlowOrganization, WidgetState } from './state.js';

/**
 * Whether an e-mail may join an organization it is not yet a member of by e-mail: never under
 * NOT_ALLOWED, only from the allowed domains under RESTRICTED (docs/widget.md §5).
 */
export function emailMayJoin(organization: FlowOrganization, email: string): boolean {
  if (organization.email_jit_provisioning === 'NOT_ALLOWED') return false;
  if (organization.email_jit_provisioning !== 'RESTRICTED') return true;
  const domain = email.slice(email.lastIndexOf('@') + 1).toLowerCase();
  return organization.email_allowed_domains.some((allowed) => allowed.toLowerCase() === domain);
}

/** The LUDS password rules the reset form lists: the project's, else the widget's, else 8 and 3. */
export function ludsRequirements(
  state: WidgetState,
  config: ResolvedConfig,
): { minimumCount: number; complexity: number } {
  const project = state.bootstrap.passwordConfig;
  return {
    minimumCount: project?.ludsMinimumCount ?? config.passwordConfig.ludsMinimumCount ?? 8,
    complexity: project?.ludsComplexity ?? config.passwordConfig.ludsComplexity ?? 3,
  };
}
