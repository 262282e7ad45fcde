/**
 * Test sign-ins of a SAML connection (docs/protocol.md §7.10): an admin starts an AuthnRequest
 * of their own, the IdP answers it at the connection's usual ACS, and the ACS stores a report of
 * each check instead of signing anyone in. A test's request never answers a real sign-in, nor a
 * real request a test (store.ts `liveRequestById`, store-tests.ts).
 */
import { randomUUID } from 'node:crypto';
import type { SsoConnectionTest, SsoTestCheck, SsoTestCheckName } from '@gatehouse/protocol';
import { isoAt, type Context } from '../../context.js';
import { fail, isFailure, type Failure } from '../../result.js';
import type { SsoConnectionsTable, SsoRequestsTable } from '../../store/schema.js';
import type { Project } from '../../tenancy/projects/service.js';
import { projectPolicy } from '../../tenancy/rbac/service.js';
import type { SamlSettings } from './connections.js';
import { connectionInactive } from './errors.js';
import { samlProvider } from './flow.js';
import { ownConnection } from './owned.js';
import { authnRequestUrl, type SamlAssertion, type SamlRefusal } from './saml.js';
import { insertRequest, recordAssertion } from './store.js';
import { finishTestRequest, testRequestById } from './store-tests.js';

/** How long the IdP may take to answer a test (the admin signs in at the IdP meanwhile). */
export const TEST_LIFETIME_MS = 10 * 60_000;

export const testNotFound = (): Failure =>
  fail('sso_test_not_found', 'This connection has no test sign-in with this id.');

const testAnswered = (): Failure =>
  fail('invalid_saml_response', 'This test sign-in was answered already: start a new test.');

/** What the ACS answers once a test's response was checked: the popup shows a closing page. */
export interface SsoTestFinished {
  test: SsoConnectionTest;
}

/** The report a test shows until the IdP answers. */
export const PENDING = {
  checks: [] as SsoTestCheck[],
  error: null,
  name_id: '',
  attributes: {},
  mapped: { email: '', first_name: '', last_name: '', groups: [] as string[] },
  roles: [] as string[],
};

export type Report = Pick<
  SsoConnectionTest,
  'status' | 'checks' | 'error' | 'name_id' | 'attributes' | 'mapped' | 'roles'
>;

export function toWire(row: SsoRequestsTable): SsoConnectionTest {
  const report: Report =
    row.test_report == null
      ? { status: 'pending', ...PENDING }
      : (JSON.parse(row.test_report) as Report);
  return {
    test_id: row.id,
    connection_id: row.connection_id,
    started_at: row.created_at,
    expires_at: row.expires_at,
    finished_at: row.test_report == null ? null : row.used_at,
    ...report,
  };
}

/** What an OIDC test's request keeps of its authorization request; a SAML test keeps nothing. */
type TestFlow = Pick<SsoRequestsTable, 'state_hash' | 'nonce' | 'code_verifier_encrypted'>;

/**
 * The stored request of a test of the connection, started by the member: it redirects nowhere
 * (the IdP's answer shows a page that says to return to the portal), and has no browser binding
 * (a test signs nobody in, and only the organization's SSO admins read it).
 */
export function testRequest(
  ctx: Context,
  project: Project,
  row: SsoConnectionsTable,
  memberId: string,
  flow: TestFlow = { state_hash: null, nonce: null, code_verifier_encrypted: null },
): SsoRequestsTable {
  const now = ctx.now();
  return {
    // A SAML request ID must be an XML name: it may not start with a digit.
    id: `_${randomUUID()}`,
    project_id: project.id,
    connection_id: row.id,
    ...flow,
    pkce_challenge: null,
    login_redirect_url: '',
    signup_redirect_url: '',
    browser_hash: null,
    created_at: isoAt(now),
    expires_at: isoAt(now + TEST_LIFETIME_MS),
    used_at: null,
    test_member_id: memberId,
    test_report: null,
  };
}

/**
 * Starts a test sign-in of one of the organization's active SAML connections: the IdP URL to
 * open, and the test whose report `readConnectionTest` answers.
 *
 * @example
 * const started = await startSamlTest(ctx, project, organizationId, memberId, connectionId);
 * if (!isFailure(started)) window.open(started.idp_url);
 */
export async function startSamlTest(
  ctx: Context,
  project: Project,
  organizationId: string,
  memberId: string,
  connectionId: string,
): Promise<{ test: SsoConnectionTest; idp_url: string } | Failure> {
  const row = await ownConnection(ctx.db, project, organizationId, connectionId, 'saml');
  if (isFailure(row)) return row;
  if (row.status !== 'active') return connectionInactive();
  const request = testRequest(ctx, project, row, memberId);
  const idpUrl = await authnRequestUrl(await samlProvider(ctx, row), request.id);
  await insertRequest(ctx.db, request);
  return { test: toWire(request), idp_url: idpUrl };
}

/** A test of one of the organization's connections of that kind, pending or with its report. */
export async function readConnectionTest(
  ctx: Context,
  project: Project,
  organizationId: string,
  connectionId: string,
  testId: string,
  kind: SsoConnectionsTable['kind'],
): Promise<SsoConnectionTest | Failure> {
  const row = await ownConnection(ctx.db, project, organizationId, connectionId, kind);
  if (isFailure(row)) return row;
  const test = await testRequestById(ctx.db, row.id, testId);
  return test ? toWire(test) : testNotFound();
}

/**
 * The test a response answers, if any: the verified `InResponseTo` when the response passed;
 * when it was refused, any `InResponseTo` it carries (the refusal itself is what the admin must
 * see). Null for a response to a real sign-in or one the IdP sent unprompted.
 */
export async function testAnsweredBy(
  ctx: Context,
  connectionId: string,
  samlResponse: string,
  checked: SamlAssertion | SamlRefusal,
): Promise<string | null> {
  let candidates: string[];
  if (!isFailure(checked)) {
    candidates = checked.inResponseTo === null ? [] : [checked.inResponseTo];
  } else if (checked.failure === 'too_many_requests') {
    return null;
  } else {
    const xml = Buffer.from(samlResponse, 'base64').toString('utf8');
    candidates = [...xml.matchAll(/InResponseTo="(_[0-9a-f-]{36})"/g)]
      .map((m) => m[1] ?? '')
      .slice(0, 4);
  }
  for (const id of new Set(candidates)) {
    if (await testRequestById(ctx.db, connectionId, id)) return id;
  }
  return null;
}

/**
 * Stores the report of the response to test `testId`, once: a second response to the same test
 * (a replay) is refused, and the assertion is recorded as a real sign-in's would be, so that it
 * can never be presented again anywhere.
 */
export async function finishSamlTest(
  ctx: Context,
  row: SsoConnectionsTable,
  settings: SamlSettings,
  testId: string,
  checked: SamlAssertion | SamlRefusal,
): Promise<SsoTestFinished | Failure> {
  const now = ctx.now();
  const test = await testRequestById(ctx.db, row.id, testId);
  if (!test || test.used_at !== null || Date.parse(test.expires_at) <= now) return testAnswered();
  if (!isFailure(checked)) {
    if (!(await recordAssertion(ctx.db, row.id, checked.assertionId, checked.expiresAt))) {
      return testAnswered();
    }
  }
  const known = new Set((await projectPolicy(ctx.db, row.project_id)).roles.map((r) => r.role_id));
  const report = testReport(checked, settings, known);
  if (!(await finishTestRequest(ctx.db, testId, JSON.stringify(report), now))) {
    return testAnswered();
  }
  const stored = await testRequestById(ctx.db, row.id, testId);
  return stored ? { test: toWire(stored) } : testNotFound();
}

const SIGNATURE_CHECKS = ['signature', 'issuer', 'audience', 'recipient', 'clock'] as const;

const PASSED: Record<(typeof SIGNATURE_CHECKS)[number], string> = {
  signature: "Signed by one of the connection's certificates.",
  issuer: "Issued by the connection's IdP entity ID.",
  audience: "Meant for this connection's SP entity ID.",
  recipient: "Sent to this connection's ACS URL.",
  clock: "Within its validity period by the server's clock (60 s of skew allowed).",
};

const looksLikeEmail = (value: string) => /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(value);

/** The checks of a response, each passed, failed, warned about or not reached. */
export function testReport(
  checked: SamlAssertion | SamlRefusal,
  settings: SamlSettings,
  knownRoles: ReadonlySet<string>,
): Report {
  if (isFailure(checked)) {
    // The checks stop at the first refusal; the signature is checked before any other named one.
    const failed = checked.check;
    const names: SsoTestCheckName[] = [...SIGNATURE_CHECKS, 'name_id', 'email', 'attributes'];
    const checks = names.map((check): SsoTestCheck => {
      if (check === failed) return { check, status: 'failed', message: checked.message };
      if (check === 'signature' && failed !== undefined) {
        return { check, status: 'passed', message: PASSED.signature };
      }
      return { check, status: 'not_checked', message: 'Not checked: the response was refused.' };
    });
    return { status: 'failed', ...PENDING, checks, error: checked.message };
  }
  const mapping = settings.attribute_mapping;
  const checks: SsoTestCheck[] = SIGNATURE_CHECKS.map((check) => ({
    check,
    status: 'passed',
    message: PASSED[check],
  }));
  checks.push(
    checked.subject === ''
      ? { check: 'name_id', status: 'failed', message: 'The assertion has no NameID.' }
      : { check: 'name_id', status: 'passed', message: `NameID: ${checked.subject}` },
  );
  const emailAttribute = mapping.email === '' ? undefined : checked.attributes[mapping.email]?.[0];
  if (emailAttribute !== undefined && looksLikeEmail(emailAttribute)) {
    checks.push({
      check: 'email',
      status: 'passed',
      message: `The attribute ${mapping.email} is ${emailAttribute}.`,
    });
  } else if (looksLikeEmail(checked.subject)) {
    checks.push({
      check: 'email',
      status: 'warning',
      message: `No e-mail address in the attribute ${mapping.email || '(none mapped)'}: the NameID ${checked.subject} is used.`,
    });
  } else {
    checks.push({
      check: 'email',
      status: 'failed',
      message: `Neither the attribute ${mapping.email || '(none mapped)'} nor the NameID is an e-mail address: nobody could sign in.`,
    });
  }
  const missing = (['first_name', 'last_name', 'groups'] as const)
    .map((field) => mapping[field])
    .filter((name) => name !== '' && checked.attributes[name] === undefined);
  checks.push(
    missing.length === 0
      ? { check: 'attributes', status: 'passed', message: 'Every mapped attribute was received.' }
      : {
          check: 'attributes',
          status: 'warning',
          message: `Mapped but not received: ${missing.join(', ')}.`,
        },
  );
  // What a real sign-in through the connection gives: the roles of the person's groups and those
  // of everyone who signs in through it, each once, skipping roles deleted from the policy.
  const roles = [
    ...new Set(
      [
        ...settings.group_roles
          .filter((a) => checked.groups.includes(a.group))
          .map((a) => a.role_id),
        ...settings.connection_roles.map((a) => a.role_id),
      ].filter((id) => knownRoles.has(id)),
    ),
  ];
  return {
    status: checks.some((c) => c.status === 'failed') ? 'failed' : 'passed',
    checks,
    error: null,
    name_id: checked.subject,
    attributes: checked.attributes,
    mapped: {
      email: checked.email,
      first_name: checked.firstName,
      last_name: checked.lastName,
      groups: checked.groups,
    },
    roles,
  };
}
