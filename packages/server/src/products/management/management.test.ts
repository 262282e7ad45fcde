// The management API (/v1/b2b) for host backends: secret-key auth, organizations, members, sessions.
import { ENDPOINTS } from '@gatehouse/protocol/endpoints';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  basic,
  expectOk,
  startHarness,
  type Harness,
  type RequestOptions,
} from '../../test/harness.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h.close();
});

/** An untyped management call, for bodies the endpoint table's types refuse on purpose. */
const api = (path: string, options: RequestOptions = {}) =>
  h.request(`/v1/b2b${path}`, {
    authorization: basic(h.project.project_id, h.project.secret),
    origin: null,
    ...options,
  });

describe('authentication', () => {
  it('refuses a missing, wrong or foreign secret with 401', async () => {
    const other = await h.admin.createProject({ name: 'Other' });
    for (const authorization of [
      null,
      basic(h.project.project_id, 'secret-test-wrong'),
      basic(h.project.project_id, other.secret),
      basic('project-test-unknown', h.project.secret),
      basic(h.project.public_token, h.project.public_token),
    ]) {
      const res = await h.call(ENDPOINTS.getOrganization, {
        params: { organization_id: h.org.organization_id },
        authorization,
      });
      expect([res.status, res.error?.error_type]).toEqual([401, 'unauthorized_credentials']);
    }
  });
});

describe('organizations and members', () => {
  it('creates and reads organizations', async () => {
    const created = await h.call(ENDPOINTS.createOrganization, {
      body: {
        organization_name: 'Initech',
        organization_slug: 'initech',
        email_allowed_domains: ['initech.example'],
      },
    });
    expect(created.status).toBe(200);
    const org = expectOk(created).organization;
    expect(org).toMatchObject({
      organization_name: 'Initech',
      organization_slug: 'initech',
      email_jit_provisioning: 'RESTRICTED',
    });
    expect(org.organization_id).toMatch(/^organization-test-/);
    const read = await h.call(ENDPOINTS.getOrganization, {
      params: { organization_id: org.organization_id },
    });
    expect(expectOk(read).organization).toEqual(org);

    const taken = await h.call(ENDPOINTS.createOrganization, {
      body: { organization_name: 'X', organization_slug: 'initech' },
    });
    expect([taken.status, taken.error?.error_type]).toEqual([400, 'organization_slug_taken']);
    const badSlug = await h.call(ENDPOINTS.createOrganization, {
      body: { organization_name: 'X', organization_slug: 'Not A Slug!' },
    });
    expect(badSlug.status).toBe(400);
    // Untyped: the body lacks a required field.
    const missing = await api('/organizations', { body: { organization_slug: 'y' } });
    expect(missing.error?.body).toEqual([
      { dataPath: '.organization_name', message: 'is required' },
    ]);
    const unknown = await h.call(ENDPOINTS.getOrganization, {
      params: { organization_id: 'organization-test-nope' },
    });
    expect([unknown.status, unknown.error?.error_type]).toEqual([404, 'organization_not_found']);
  });

  it('creates and reads members', async () => {
    const inAcme = { organization_id: h.org.organization_id };
    const created = await h.call(ENDPOINTS.createMember, {
      params: inAcme,
      body: { email_address: 'Linus@Acme.test', name: 'Linus', roles: ['admin'] },
    });
    expect(created.status).toBe(200);
    const member = expectOk(created).member;
    expect(member).toMatchObject({
      email_address: 'linus@acme.test',
      name: 'Linus',
      status: 'active',
    });
    expect(member.roles.map((r) => r.role_id).sort()).toEqual(['admin', 'member']);
    const read = await h.call(ENDPOINTS.getMember, {
      params: { ...inAcme, member_id: member.member_id },
    });
    expect(expectOk(read).member).toEqual(member);
    expect(expectOk(read).organization.organization_id).toBe(h.org.organization_id);

    const dup = await h.call(ENDPOINTS.createMember, {
      params: inAcme,
      body: { email_address: 'linus@acme.test' },
    });
    expect(dup.status).toBe(400);
    const badEmail = await h.call(ENDPOINTS.createMember, {
      params: inAcme,
      body: { email_address: 'nope' },
    });
    expect(badEmail.error?.error_type).toBe('invalid_email');
    // Untyped: 'deleted' is no member status.
    const badStatus = await api(`/organizations/${h.org.organization_id}/members`, {
      body: { email_address: 'a@acme.test', status: 'deleted' },
    });
    expect(badStatus.error?.body?.[0]?.dataPath).toBe('.status');
    const wrongOrg = await h.call(ENDPOINTS.getMember, {
      params: { organization_id: 'organization-test-nope', member_id: member.member_id },
    });
    expect(wrongOrg.error?.error_type).toBe('organization_not_found');
    const unknown = await h.call(ENDPOINTS.getMember, {
      params: { ...inAcme, member_id: 'member-test-nope' },
    });
    expect([unknown.status, unknown.error?.error_type]).toEqual([404, 'member_not_found']);
  });
});

describe('sessions/authenticate', () => {
  it('authenticates by session token and by JWT', async () => {
    const login = await h.login();
    for (const body of [
      { session_token: login.session_token },
      { session_jwt: login.session_jwt },
    ]) {
      const res = await h.call(ENDPOINTS.authenticateSession, { body });
      expect(res.status).toBe(200);
      const data = expectOk(res);
      expect(data.member.member_id).toBe(login.member_id);
      expect(data.organization.organization_id).toBe(h.org.organization_id);
      expect(data.member_session.member_session_id).toBe(login.member_session.member_session_id);
      expect(data.session_jwt.split('.')).toHaveLength(3);
      // The provider's SDK types it as always there: the token itself, or '' for a JWT alone.
      expect(data.session_token).toBe('session_token' in body ? login.session_token : '');
    }
  });

  it('refuses revoked sessions, tampered JWTs, other projects and empty bodies', async () => {
    const login = await h.login();
    const other = await h.admin.createProject({ name: 'Other' });
    const authenticate = (body: { session_token?: string; session_jwt?: string }) =>
      h.call(ENDPOINTS.authenticateSession, { body });
    const foreign = await h.call(ENDPOINTS.authenticateSession, {
      authorization: basic(other.project_id, other.secret),
      body: { session_jwt: login.session_jwt },
    });
    expect([foreign.status, foreign.error?.error_type]).toEqual([404, 'session_not_found']);
    const tampered = `${login.session_jwt.slice(0, -4)}AAAA`;
    expect((await authenticate({ session_jwt: tampered })).error?.error_type).toBe(
      'session_not_found',
    );
    expect((await authenticate({ session_jwt: 'not.a.jwt' })).status).toBe(404);
    await h.call(ENDPOINTS.sessionsRevoke, { token: login.session_token });
    for (const body of [
      { session_token: login.session_token },
      { session_jwt: login.session_jwt },
    ]) {
      const res = await authenticate(body);
      expect([res.status, res.error?.error_type]).toEqual([404, 'session_not_found']);
    }
    // An empty body passes the type (both fields are optional) but not the schema's refinement.
    const empty = await authenticate({});
    expect([empty.status, empty.error?.error_type]).toEqual([400, 'invalid_request']);
  });
});
