/** The expected failures of the RBAC product, as values (docs/contributing.md, habit 4). */
import { fail, type Failure } from '../../result.js';

/** The policy after the change would be inconsistent; the message says how. */
export const invalidPolicy = (message: string): Failure => fail('invalid_request', message);

/** A role id that the project's policy does not define. */
export const unknownRole = (roleId: string): Failure =>
  fail('invalid_request', `There is no role ${roleId} in the project's RBAC policy.`);

/** `member` and `admin` exist in every project. */
export const builtInRole = (roleId: string): Failure =>
  fail(
    'invalid_request',
    `The built-in role ${roleId} cannot be deleted; its added permissions can be changed.`,
  );

/** The `stytch.*` resources are fixed. */
export const builtInResource = (resourceId: string): Failure =>
  fail('invalid_request', `The built-in resource ${resourceId} cannot be changed or deleted.`);

/** Deleting a role or resource the policy does not have. */
export const notInPolicy = (kind: 'role' | 'resource', id: string): Failure =>
  fail('invalid_request', `There is no custom ${kind} ${id} in the project's RBAC policy.`);

/** The caller's roles do not grant the action. */
export const unauthorizedAction = (resourceId: string, action: string): Failure =>
  fail(
    'unauthorized_action',
    `Your roles do not allow the action ${action} on ${resourceId} in this organization.`,
  );

/**
 * The member whose session a management call carries (the provider's backend SDK's
 * `options.authorization`), or whose session an `authorization_check` is about, may not do what
 * is asked: the provider's error for it.
 */
export const sessionAuthorizationError = (resourceId: string, action: string): Failure =>
  fail(
    'session_authorization_error',
    `The member of the session is not allowed the action ${action} on ${resourceId} in this organization.`,
  );

/**
 * The member of the session a management call carries, or an `authorization_check` is about,
 * belongs to another organization than the one named.
 */
export const sessionTenancyError = (): Failure =>
  fail(
    'session_authorization_tenancy_error',
    "The call is about another organization than the session member's.",
  );
