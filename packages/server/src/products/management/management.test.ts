// The management API (/v1/b2b) for host backends: secret-key auth, organizations, members, sessions.
/* eslint-disable @typescript-eslint/no-unsafe-assignment, @typescript-eslint/no-unsafe-member-access, @typescript-eslint/no-unsafe-call -- tests assert on untyped JSON response bodies */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { basic, startHarness, type Harness, type RequestOptions } from '../../test/harness.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h.close();
});

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
      const res = await api(`/organizations/${h.org.organization_id}`, { authorization });
      expect([res.status, res.body.error_type]).toEqual([401, 'unauthorized_credentials']);
    }
  });
});

describe('organizations and members', () => {
  it('creates and reads organizations', async () => {
    const created = await api('/organizations', {
      body: {
        organization_name: 'Initech',
        organization_slug: 'initech',
        email_allowed_domains: ['initech.example'],
      },
    });
    expect(created.status).toBe(200);
    const org = created.body.data.organization;
    expect(org).toMatchObject({
      organization_name: 'Initech',
      organization_slug: 'initech',
      email_jit_provisioning: 'RESTRICTED',
    });
    expect(org.organization_id).toMatch(/^organization-test-/);
    const read = await api(`/organizations/${org.organization_id}`);
    expect(read.body.data.organization).toEqual(org);

    const taken = await api('/organizations', {
      body: { organization_name: 'X', organization_slug: 'initech' },
    });
    expect([taken.status, taken.body.error_type]).toEqual([400, 'organization_slug_taken']);
    const badSlug = await api('/organizations', {
      body: { organization_name: 'X', organization_slug: 'Not A Slug!' },
    });
    expect(badSlug.status).toBe(400);
    const missing = await api('/organizations', { body: { organization_slug: 'y' } });
    expect(missing.body.body).toEqual([{ dataPath: '.organization_name', message: 'is required' }]);
    const unknown = await api('/organizations/organization-test-nope');
    expect([unknown.status, unknown.body.error_type]).toEqual([404, 'organization_not_found']);
  });

  it('creates and reads members', async () => {
    const created = await api(`/organizations/${h.org.organization_id}/members`, {
      body: { email_address: 'Linus@Acme.test', name: 'Linus', roles: ['admin'] },
    });
    expect(created.status).toBe(200);
    const member = created.body.data.member;
    expect(member).toMatchObject({
      email_address: 'linus@acme.test',
      name: 'Linus',
      status: 'active',
    });
    expect(member.roles.map((r: { role_id: string }) => r.role_id).sort()).toEqual([
      'admin',
      'member',
    ]);
    const read = await api(`/organizations/${h.org.organization_id}/members/${member.member_id}`);
    expect(read.body.data.member).toEqual(member);
    expect(read.body.data.organization.organization_id).toBe(h.org.organization_id);

    const dup = await api(`/organizations/${h.org.organization_id}/members`, {
      body: { email_address: 'linus@acme.test' },
    });
    expect(dup.status).toBe(400);
    const badEmail = await api(`/organizations/${h.org.organization_id}/members`, {
      body: { email_address: 'nope' },
    });
    expect(badEmail.body.error_type).toBe('invalid_email');
    const badStatus = await api(`/organizations/${h.org.organization_id}/members`, {
      body: { email_address: 'a@acme.test', status: 'deleted' },
    });
    expect(badStatus.body.body[0].dataPath).toBe('.status');
    const wrongOrg = await api(`/organizations/organization-test-nope/members/${member.member_id}`);
    expect(wrongOrg.body.error_type).toBe('organization_not_found');
    const unknown = await api(`/organizations/${h.org.organization_id}/members/member-test-nope`);
    expect([unknown.status, unknown.body.error_type]).toEqual([404, 'member_not_found']);
  });
});

describe('sessions/authenticate', () => {
  it('authenticates by session token and by JWT', async () => {
    const login = await h.login();
    for (const body of [
      { session_token: login.session_token },
      { session_jwt: login.session_jwt },
    ]) {
      const res = await api('/sessions/authenticate', { body });
      expect(res.status).toBe(200);
      expect(res.body.data.member.member_id).toBe(login.member_id);
      expect(res.body.data.organization.organization_id).toBe(h.org.organization_id);
      expect(res.body.data.member_session.member_session_id).toBe(
        login.member_session.member_session_id,
      );
      expect(res.body.data.session_jwt.split('.')).toHaveLength(3);
      expect(res.body.data.session_token).toBeUndefined();
    }
  });

  it('refuses revoked sessions, tampered JWTs, other projects and empty bodies', async () => {
    const login = await h.login();
    const other = await h.admin.createProject({ name: 'Other' });
    const foreign = await h.request('/v1/b2b/sessions/authenticate', {
      authorization: basic(other.project_id, other.secret),
      origin: null,
      body: { session_jwt: login.session_jwt },
    });
    expect([foreign.status, foreign.body.error_type]).toEqual([404, 'session_not_found']);
    const tampered = `${login.session_jwt.slice(0, -4)}AAAA`;
    expect(
      (await api('/sessions/authenticate', { body: { session_jwt: tampered } })).body.error_type,
    ).toBe('session_not_found');
    expect(
      (await api('/sessions/authenticate', { body: { session_jwt: 'not.a.jwt' } })).status,
    ).toBe(404);
    await h.sdk('/b2b/sessions/revoke', { token: login.session_token });
    for (const body of [
      { session_token: login.session_token },
      { session_jwt: login.session_jwt },
    ]) {
      const res = await api('/sessions/authenticate', { body });
      expect([res.status, res.body.error_type]).toEqual([404, 'session_not_found']);
    }
    const empty = await api('/sessions/authenticate', { body: {} });
    expect([empty.status, empty.body.error_type]).toEqual([400, 'invalid_request']);
  });
});
