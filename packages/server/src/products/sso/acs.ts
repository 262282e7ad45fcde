/**
 * The SAML ACS (docs/protocol.md §8): a response checked off the main thread, matched to a
 * request we sent from this browser (or accepted unprompted where the connection allows it),
 * its assertion recorded against replay, and the member signed in.
 */
import { allOrNothing, fail, isFailure, type Failure } from '../../result.js';
import type { Context } from '../../context.js';
import type { SsoRequestsTable } from '../../store/schema.js';
import { resolveRedirectUrl } from '../../tenancy/projects/policy.js';
import {
  assertionReplayed,
  connectionNotFound,
  idpInitiatedNotAllowed,
  otherBrowser,
  unknownInResponseTo,
} from './errors.js';
import { finishSamlTest, testAnsweredBy, type SsoTestFinished } from './connection-test.js';
import { sameBrowser, samlProvider, type SsoRedirect } from './flow.js';
import { verifySamlResponse } from './saml.js';
import { signInFederated } from './sign-in.js';
import { claimRequest, connectionRowById, liveRequestById, recordAssertion } from './store.js';

/**
 * The SAML ACS: verifies the response (signature, issuer, audience, destination, recipient,
 * times), matches `InResponseTo` to a request we sent and have not seen answered, refuses
 * unprompted responses unless the connection allows them, records the assertion ID so it is
 * never accepted twice (on any instance), then signs the member in to the app. The answer to a
 * test sign-in is stored as the test's report instead (connection-test.ts).
 */
export async function finishSaml(
  ctx: Context,
  connectionId: string,
  samlResponse: string,
  browser: string | null,
): Promise<SsoRedirect | SsoTestFinished | Failure> {
  const row = await connectionRowById(ctx.db, connectionId);
  if (!row || row.kind !== 'saml') {
    return connectionNotFound();
  }
  const project = await ctx.projects.byId(row.project_id);
  if (!project) return connectionNotFound();
  const now = ctx.now();
  const provider = await samlProvider(ctx, row);
  const assertion = await verifySamlResponse(provider, samlResponse, now);
  // A test's answer, accepted or refused, becomes its report and never signs anyone in.
  const testId = await testAnsweredBy(ctx, row.id, samlResponse, assertion);
  if (testId !== null) return finishSamlTest(ctx, row, provider.settings, testId, assertion);
  if (isFailure(assertion)) return assertion;
  // Whether the connection is on is read by signInFederated, under the connection's lock.

  return allOrNothing(ctx.db, async (trx) => {
    let request: Pick<
      SsoRequestsTable,
      'pkce_challenge' | 'login_redirect_url' | 'signup_redirect_url'
    >;
    if (assertion.inResponseTo !== null) {
      const sent = await liveRequestById(trx, row.id, assertion.inResponseTo, now);
      if (!sent || !(await claimRequest(trx, sent.id, now))) {
        return unknownInResponseTo();
      }
      if (!sameBrowser(sent, browser)) return otherBrowser('saml');
      request = sent;
    } else {
      if (!provider.settings.allow_idp_initiated) {
        return idpInitiatedNotAllowed();
      }
      const login = resolveRedirectUrl(project, 'login', undefined);
      const signup = resolveRedirectUrl(project, 'signup', undefined);
      if (!login.ok) return fail('invalid_redirect_url', login.message);
      if (!signup.ok) return fail('invalid_redirect_url', signup.message);
      request = {
        pkce_challenge: null,
        login_redirect_url: login.url,
        signup_redirect_url: signup.url,
      };
    }
    if (!(await recordAssertion(trx, row.id, assertion.assertionId, assertion.expiresAt))) {
      return assertionReplayed();
    }
    const name = [assertion.firstName, assertion.lastName].filter((n) => n !== '').join(' ');
    return signInFederated(ctx, trx, project, row, request, {
      email: assertion.email,
      name,
      groups: assertion.groups,
      issuer: provider.settings.idp_entity_id,
      subject: assertion.subject,
      attributes: assertion.attributes,
    });
  });
}
