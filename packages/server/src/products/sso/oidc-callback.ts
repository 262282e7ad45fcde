/**
 * The OIDC SSO callback (docs/protocol.md §8): the request found by its state and claimed once,
 * from the browser that started; the code exchanged and the ID token checked by the one OIDC
 * client of federated sign-in; the member signed in.
 */
import { personClaims, stringClaim } from '../../auth/federated/claims.js';
import { reasonOf } from '../../auth/federated/oidc-client.js';
import { oidcConnectionVouches } from '../../auth/federated/trust.js';
import type { Context } from '../../context.js';
import { hashToken } from '../../crypto/random.js';
import { allOrNothing, fail, isFailure, type Failure } from '../../result.js';
import { organizationById } from '../../tenancy/organizations/store.js';
import {
  alreadyAnswered,
  connectionDisabled,
  connectionGone,
  connectionOrganizationGone,
  emailNotVerified,
  noEmail,
  noIdToken,
  otherBrowser,
  unknownState,
} from './errors.js';
import type { SsoTestFinished } from './connection-test.js';
import { exchangeCallback, oidcProvider, sameBrowser, type SsoRedirect } from './flow.js';
import { oidcSettings } from './connections.js';
import { mappedClaims } from './oidc-mapping.js';
import { finishOidcTest } from './oidc-test.js';
import { signInFederated } from './sign-in.js';
import { claimRequest, connectionRowById, liveRequestByState } from './store.js';

/**
 * The OIDC callback: finds the request by its state, exchanges the code with our PKCE verifier,
 * and checks the ID token (signature, issuer, audience, expiry, nonce). The connection's
 * attribute mapping names the claims of the e-mail, names and groups; the e-mail must be
 * vouched for (`oidcConnectionVouches`); ID-token claims win over userinfo's.
 */
export async function finishOidc(
  ctx: Context,
  callbackQuery: URLSearchParams,
  browser: string | null,
): Promise<SsoRedirect | SsoTestFinished | Failure> {
  const state = callbackQuery.get('state') ?? '';
  const now = ctx.now();
  const request =
    state === '' ? undefined : await liveRequestByState(ctx.db, hashToken(state), now);
  if (!request) {
    return unknownState();
  }
  // Answered once, whatever happens next: a code or state is never tried twice.
  if (!(await claimRequest(ctx.db, request.id, now))) {
    return alreadyAnswered();
  }
  // A test's answer only fills its report (oidc-test.ts): it never signs anyone in.
  if (request.test_member_id != null) return finishOidcTest(ctx, request, callbackQuery);
  // Spent either way: a callback in another browser cannot be retried from the one that started.
  if (!sameBrowser(request, browser)) return otherBrowser('oidc');
  const providerError = callbackQuery.get('error');
  if (providerError !== null) {
    const description = callbackQuery.get('error_description');
    return fail(
      'invalid_oidc_response',
      `The identity provider refused the sign-in: ${providerError}${description ? ` (${description})` : ''}.`,
    );
  }
  const row = await connectionRowById(ctx.db, request.connection_id);
  const project = row ? await ctx.projects.byId(row.project_id) : null;
  if (!row || row.kind !== 'oidc' || !project) {
    return connectionGone();
  }
  if (!oidcSettings(row).sign_in_enabled) return connectionDisabled();
  const config = await oidcProvider(ctx, row);
  if (isFailure(config)) return config;

  let claims: Record<string, unknown>;
  try {
    const completed = await exchangeCallback(ctx, config, request, callbackQuery);
    if (!completed) return noIdToken();
    claims = completed.claims;
  } catch (error) {
    return fail(
      'invalid_oidc_response',
      `The identity provider's answer was refused: ${reasonOf(error)}`,
    );
  }
  // The connection's attribute mapping names the claims; its groups claim gives the roles.
  const mapped = mappedClaims(oidcSettings(row), claims);
  if (mapped.email === '') return noEmail();
  // Whichever claim carries the address, the provider must say it verified it, or leave the
  // claim out for an address in a domain its organization verified (auth/federated/trust.ts).
  const org = await organizationById(ctx.db, project.id, row.organization_id);
  if (!org) return connectionOrganizationGone();
  if (!oidcConnectionVouches(claims.email_verified, mapped.email, org)) {
    return emailNotVerified();
  }
  return allOrNothing(ctx.db, (trx) =>
    signInFederated(ctx, trx, project, row, request, {
      email: mapped.email,
      name: mapped.name,
      groups: mapped.groups,
      issuer: stringClaim(claims, 'iss'),
      subject: stringClaim(claims, 'sub'),
      attributes: personClaims(claims),
    }),
  );
}
