/**
 * Test sign-ins of an OIDC connection (docs/protocol.md §7.10): an admin starts an authorization
 * request of their own, the IdP answers it at the usual OIDC callback, and the callback checks
 * the answer with the one OIDC client of real sign-ins and stores a report of each check instead
 * of signing anyone in. The callback tells a test's request from a sign-in's by its
 * `test_member_id`; either is answered once.
 */
import type { SsoConnectionTest, SsoTestCheck, SsoTestCheckName } from '@gatehouse/protocol';
import { jwtVerify } from 'jose';
import { personClaims, stringClaim } from '../../auth/federated/claims.js';
import { keySetOf } from '../../auth/federated/id-tokens.js';
import { beginAuthorization, reasonOf } from '../../auth/federated/oidc-client.js';
import { oidcConnectionVouches } from '../../auth/federated/trust.js';
import type { Context } from '../../context.js';
import { hashToken } from '../../crypto/random.js';
import { fail, isFailure, type Failure } from '../../result.js';
import type { SsoConnectionsTable, SsoRequestsTable } from '../../store/schema.js';
import { domainOf } from '../../tenancy/organizations/service.js';
import { organizationById } from '../../tenancy/organizations/store.js';
import type { Project } from '../../tenancy/projects/service.js';
import { projectPolicy } from '../../tenancy/rbac/service.js';
import {
  PENDING,
  testNotFound,
  testRequest,
  toWire,
  type Report,
  type SsoTestFinished,
} from './connection-test.js';
import { oidcSettings } from './connections.js';
import { connectionGone, connectionInactive } from './errors.js';
import { exchangeCallback, oidcProvider, urlsOf } from './flow.js';
import { mappedClaims, scopesOf } from './oidc-mapping.js';
import { ownConnection } from './owned.js';
import { connectionRowById, insertRequest } from './store.js';
import { storeTestReport, testRequestById } from './store-tests.js';

/**
 * Starts a test sign-in of one of the organization's active OIDC connections: the provider's
 * authorization URL to open, and the test whose report `readConnectionTest` answers. A discovery
 * document that cannot be read refuses the start (`oidc_discovery_failed`).
 */
export async function startOidcTest(
  ctx: Context,
  project: Project,
  organizationId: string,
  memberId: string,
  connectionId: string,
): Promise<{ test: SsoConnectionTest; idp_url: string } | Failure> {
  const row = await ownConnection(ctx.db, project, organizationId, connectionId, 'oidc');
  if (isFailure(row)) return row;
  if (row.status !== 'active') return connectionInactive();
  const config = await oidcProvider(ctx, row);
  if (isFailure(config)) return config;
  const started = await beginAuthorization(config, {
    redirectUri: urlsOf(ctx).oidcRedirectUrl(),
    scopes: scopesOf(oidcSettings(row)),
  });
  const request = testRequest(ctx, project, row, memberId, {
    state_hash: hashToken(started.state),
    nonce: started.nonce,
    code_verifier_encrypted: ctx.box.seal(started.codeVerifier),
  });
  await insertRequest(ctx.db, request);
  return { test: toWire(request), idp_url: started.location };
}

/**
 * Fills the report of a test whose request the callback has just claimed (so never twice).
 */
export async function finishOidcTest(
  ctx: Context,
  request: SsoRequestsTable,
  callbackQuery: URLSearchParams,
): Promise<SsoTestFinished | Failure> {
  const row = await connectionRowById(ctx.db, request.connection_id);
  if (!row || row.kind !== 'oidc') return connectionGone();
  const report = await checkAnswer(ctx, row, request, callbackQuery);
  if (!(await storeTestReport(ctx.db, request.id, JSON.stringify(report)))) {
    return fail(
      'invalid_oidc_response',
      'This test sign-in was answered already: start a new test.',
    );
  }
  const stored = await testRequestById(ctx.db, row.id, request.id);
  return stored ? { test: toWire(stored) } : testNotFound();
}

/** The checks in the order they are made and shown. */
const ORDER: SsoTestCheckName[] = [
  'discovery',
  'token_exchange',
  'signature',
  'issuer',
  'audience',
  'nonce',
  'expiry',
  'email',
  'email_verified',
  'attributes',
];

const PASSED: Partial<Record<SsoTestCheckName, string>> = {
  discovery: "The provider's discovery document was read.",
  token_exchange: 'The code was exchanged for an ID token (PKCE).',
  signature: "Signed by one of the provider's published keys.",
  issuer: "Issued by the connection's issuer.",
  audience: "Meant for the connection's client ID.",
  nonce: "Carries this sign-in's nonce.",
  expiry: 'Not expired by the server’s clock.',
};

/** Which check an error of the OIDC client names; the code exchange when none. */
function failedCheckOf(reason: string): SsoTestCheckName {
  if (/signature/i.test(reason)) return 'signature';
  if (/"iss"|issuer/i.test(reason)) return 'issuer';
  if (/"aud"|"azp"|audience/i.test(reason)) return 'audience';
  if (/nonce/i.test(reason)) return 'nonce';
  if (/"exp"|"iat"|"nbf"|expir/i.test(reason)) return 'expiry';
  return 'token_exchange';
}

/** A refused answer: the checks before `failed` passed, those after it were not reached. */
function refused(failed: SsoTestCheckName, message: string): Report {
  const at = ORDER.indexOf(failed);
  const reachedFirst = (check: SsoTestCheckName) =>
    // Only the discovery and the exchange come strictly before the ID token's checks.
    ORDER.indexOf(check) < Math.min(at, ORDER.indexOf('signature'));
  const checks = ORDER.map((check): SsoTestCheck => {
    if (check === failed) return { check, status: 'failed', message };
    if (reachedFirst(check)) return { check, status: 'passed', message: PASSED[check] ?? '' };
    return { check, status: 'not_checked', message: 'Not checked: the answer was refused.' };
  });
  return { status: 'failed', ...PENDING, checks, error: message };
}

async function checkAnswer(
  ctx: Context,
  row: SsoConnectionsTable,
  request: SsoRequestsTable,
  callbackQuery: URLSearchParams,
): Promise<Report> {
  const providerError = callbackQuery.get('error');
  if (providerError !== null) {
    const description = callbackQuery.get('error_description');
    const detail = description ? ` (${description})` : '';
    return refused(
      'token_exchange',
      `The identity provider refused the sign-in: ${providerError}${detail}.`,
    );
  }
  const config = await oidcProvider(ctx, row);
  if (isFailure(config)) return refused('discovery', config.message);
  let claims: Record<string, unknown>;
  let idToken: string;
  try {
    const completed = await exchangeCallback(ctx, config, request, callbackQuery);
    if (!completed) return refused('token_exchange', 'The token response has no ID token.');
    ({ claims, idToken } = completed);
  } catch (error) {
    const reason = reasonOf(error);
    return refused(failedCheckOf(reason), `The identity provider's answer was refused: ${reason}`);
  }
  // The OIDC client trusts an ID token the token endpoint answered over TLS; the test also
  // checks its signature against the provider's keys, to catch a wrong JWKS early.
  const jwksUri = config.serverMetadata().jwks_uri;
  try {
    if (jwksUri === undefined) throw new Error('the provider publishes no jwks_uri');
    await jwtVerify(idToken, keySetOf(jwksUri), { currentDate: new Date(ctx.now()) });
  } catch (error) {
    return refused('signature', `The ID token's signature was refused: ${reasonOf(error)}`);
  }
  return passedReport(ctx, row, claims);
}

/** The `email_verified` check, under the rule of real sign-ins (auth/federated/trust.ts). */
async function emailVerifiedCheck(
  ctx: Context,
  row: SsoConnectionsTable,
  emailVerified: unknown,
  email: string,
): Promise<SsoTestCheck> {
  const org = await organizationById(ctx.db, row.project_id, row.organization_id);
  if (emailVerified === true) {
    return { check: 'email_verified', status: 'passed', message: 'email_verified is true.' };
  }
  if (org && email !== '' && oidcConnectionVouches(emailVerified, email, org)) {
    return {
      check: 'email_verified',
      status: 'passed',
      message: `email_verified is absent, and ${domainOf(email)} is a verified domain of the organization.`,
    };
  }
  return {
    check: 'email_verified',
    status: 'failed',
    message:
      emailVerified === undefined
        ? 'email_verified is absent and the address is not in a verified domain of the organization: the sign-in would be refused.'
        : 'email_verified is not true: the sign-in would be refused.',
  };
}

async function passedReport(
  ctx: Context,
  row: SsoConnectionsTable,
  claims: Record<string, unknown>,
): Promise<Report> {
  const checks: SsoTestCheck[] = ORDER.slice(0, ORDER.indexOf('email')).map((check) => ({
    check,
    status: 'passed',
    message: PASSED[check] ?? '',
  }));
  const settings = oidcSettings(row);
  const mapping = settings.attribute_mapping;
  const mapped = mappedClaims(settings, claims);
  const emailClaim = mapping.email;
  checks.push(
    mapped.email === ''
      ? {
          check: 'email',
          status: 'failed',
          message: `No ${emailClaim} claim: nobody could sign in.`,
        }
      : {
          check: 'email',
          status: 'passed',
          message: `The ${emailClaim} claim is ${mapped.email}.`,
        },
    await emailVerifiedCheck(ctx, row, claims.email_verified, mapped.email),
  );
  const expected = [mapping.first_name, mapping.last_name].filter((claim) => claim !== '');
  if (settings.group_roles.length > 0 && mapping.groups !== '') expected.push(mapping.groups);
  const missing = expected.filter((name) => claims[name] === undefined);
  checks.push(
    missing.length === 0
      ? { check: 'attributes', status: 'passed', message: 'Every mapped claim was received.' }
      : {
          check: 'attributes',
          status: 'warning',
          message: `Mapped but not received: ${missing.join(', ')}.`,
        },
  );
  const known = new Set((await projectPolicy(ctx.db, row.project_id)).roles.map((r) => r.role_id));
  const roles = [
    ...new Set(
      settings.group_roles
        .filter((a) => mapped.groups.includes(a.group) && known.has(a.role_id))
        .map((a) => a.role_id),
    ),
  ];
  const attributes = Object.fromEntries(
    Object.entries(personClaims(claims)).map(([name, value]) => [
      name,
      (Array.isArray(value) ? value : [value]).map((v) =>
        typeof v === 'string' ? v : JSON.stringify(v),
      ),
    ]),
  );
  return {
    status: checks.some((c) => c.status === 'failed') ? 'failed' : 'passed',
    checks,
    error: null,
    name_id: stringClaim(claims, 'sub'),
    attributes,
    mapped: {
      email: mapped.email,
      first_name: mapped.firstName,
      last_name: mapped.lastName,
      groups: mapped.groups,
    },
    roles,
  };
}
