// GET and PUT /v1/b2b/project: a project's settings by its secret key, every field checked, a
// refused change storing nothing, and bootstrap reflecting what was stored.
import { ENDPOINTS, type RequestOf } from '@gatehouse/protocol/endpoints';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { basic, expectOk, startHarness, type Harness } from '../../test/harness.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h.close();
});

const read = async () => expectOk(await h.call(ENDPOINTS.getProject)).project;

/** A PUT with a body the endpoint table's types may refuse on purpose. */
const put = (body: unknown, authorization = basic(h.project.project_id, h.project.secret)) =>
  h.request('/v1/b2b/project', { method: 'PUT', body, authorization, origin: null });

const bootstrap = async () => {
  h.clock.advance(10_000); // past the short project cache
  return expectOk(
    await h.call(ENDPOINTS.bootstrap, { params: { public_token: h.project.public_token } }),
  );
};

describe('GET /v1/b2b/project', () => {
  it("answers the calling project's settings, never a secret", async () => {
    const res = await h.call(ENDPOINTS.getProject);
    expect(res.status).toBe(200);
    expect(expectOk(res).project).toEqual({
      project_id: h.project.project_id,
      name: 'Acme Cloud',
      environment: 'test',
      public_token: h.project.public_token,
      slug_pattern: null,
      pkce_required_for_email_magic_links: false,
      pkce_required_for_password_resets: false,
      pkce_required_for_oauth: false,
      pkce_required_for_sso: false,
      authorized_origins: [],
      redirect_urls: {
        login: ['http://localhost:3000/authenticate'],
        signup: ['http://localhost:3000/authenticate'],
        discovery: ['http://localhost:3000/discovery'],
        reset_password: ['http://localhost:3000/reset'],
      },
      create_organization_enabled: true,
      password_policy: { strength_policy: 'zxcvbn', luds_complexity: 3, luds_minimum_count: 8 },
      session_max_lifetime_minutes: null,
      display_watermark: false,
    });
    expect(res.text).not.toContain(h.project.secret);
  });

  it('refuses a missing or wrong secret with 401', async () => {
    for (const authorization of [null, basic(h.project.project_id, 'secret-test-wrong')]) {
      const res = await h.call(ENDPOINTS.getProject, { authorization });
      expect([res.status, res.error?.error_type]).toEqual([401, 'unauthorized_credentials']);
    }
  });
});

describe('PUT /v1/b2b/project', () => {
  it('changes every setting at once, keeps what is left out, and bootstrap follows', async () => {
    const body: RequestOf<typeof ENDPOINTS.updateProject> = {
      slug_pattern: 'https://app.acme.example/{{slug}}/login',
      pkce_required_for_email_magic_links: true,
      pkce_required_for_password_resets: true,
      pkce_required_for_oauth: true,
      pkce_required_for_sso: true,
      authorized_origins: ['https://app.acme.example:443/', 'https://admin.acme.example'],
      redirect_urls: {
        login: ['https://app.acme.example/authenticate', 'http://localhost:3000/authenticate'],
        reset_password: ['https://app.acme.example/reset'],
      },
      create_organization_enabled: false,
      password_policy: { strength_policy: 'luds', luds_complexity: 4, luds_minimum_count: 12 },
    };
    const res = await h.call(ENDPOINTS.updateProject, { body });
    expect(res.status).toBe(200);
    const expected = {
      slug_pattern: 'https://app.acme.example/{{slug}}/login',
      pkce_required_for_email_magic_links: true,
      pkce_required_for_password_resets: true,
      pkce_required_for_oauth: true,
      pkce_required_for_sso: true,
      // Normalized to bare origins.
      authorized_origins: ['https://app.acme.example', 'https://admin.acme.example'],
      redirect_urls: {
        login: ['https://app.acme.example/authenticate', 'http://localhost:3000/authenticate'],
        // Kinds left out keep their list.
        signup: ['http://localhost:3000/authenticate'],
        discovery: ['http://localhost:3000/discovery'],
        reset_password: ['https://app.acme.example/reset'],
      },
      create_organization_enabled: false,
      password_policy: { strength_policy: 'luds', luds_complexity: 4, luds_minimum_count: 12 },
    };
    expect(expectOk(res).project).toMatchObject(expected);
    expect(await read()).toMatchObject(expected);

    expect(await bootstrap()).toMatchObject({
      slug_pattern: 'https://app.acme.example/{{slug}}/login',
      pkce_required_for_email_magic_links: true,
      pkce_required_for_password_resets: true,
      pkce_required_for_oauth: true,
      pkce_required_for_sso: true,
      create_organization_enabled: false,
      password_config: { luds_complexity: 4, luds_minimum_count: 12 },
    });

    // A partial change touches only its fields; the LUDS numbers left out stay.
    const partial = await h.call(ENDPOINTS.updateProject, {
      body: {
        pkce_required_for_oauth: false,
        slug_pattern: null,
        password_policy: { strength_policy: 'luds', luds_minimum_count: 10 },
      },
    });
    expect(expectOk(partial).project).toMatchObject({
      ...expected,
      pkce_required_for_oauth: false,
      slug_pattern: null,
      password_policy: { strength_policy: 'luds', luds_complexity: 4, luds_minimum_count: 10 },
    });
    expect(await bootstrap()).toMatchObject({
      pkce_required_for_oauth: false,
      pkce_required_for_sso: true,
      slug_pattern: null,
      password_config: { luds_complexity: 4, luds_minimum_count: 10 },
    });

    // Back to the seeded settings the other tests of this file expect.
    const restored = await h.call(ENDPOINTS.updateProject, {
      body: {
        pkce_required_for_email_magic_links: false,
        pkce_required_for_password_resets: false,
        pkce_required_for_sso: false,
        authorized_origins: [],
        redirect_urls: {
          login: ['http://localhost:3000/authenticate'],
          reset_password: ['http://localhost:3000/reset'],
        },
        create_organization_enabled: true,
        password_policy: { strength_policy: 'zxcvbn', luds_complexity: 3, luds_minimum_count: 8 },
      },
    });
    expect(restored.status).toBe(200);
  });

  it('refuses each invalid field with 400, an error_type and a message, storing nothing', async () => {
    const before = await read();
    const refusals: [unknown, string, RegExp][] = [
      // Schema: types, ranges, unknown fields.
      [{ slug_pattern: 42 }, 'invalid_request', /slug_pattern/],
      [{ pkce_required_for_sso: 'yes' }, 'invalid_request', /pkce_required_for_sso/],
      [{ authorized_origins: 'https://a.example' }, 'invalid_request', /authorized_origins/],
      [{ create_organization_enabled: 1 }, 'invalid_request', /create_organization_enabled/],
      [{ password_policy: { strength_policy: 'strong' } }, 'invalid_request', /strength_policy/],
      [
        { password_policy: { strength_policy: 'luds', luds_complexity: 5 } },
        'invalid_request',
        /luds_complexity/,
      ],
      [
        { password_policy: { strength_policy: 'luds', luds_minimum_count: 0 } },
        'invalid_request',
        /luds_minimum_count/,
      ],
      [
        { password_policy: { strength_policy: 'luds', luds_minimum_count: 8.5 } },
        'invalid_request',
        /luds_minimum_count/,
      ],
      [{ password_policy: { luds_complexity: 2 } }, 'invalid_request', /strength_policy/],
      [{ redirect_urls: { logout: ['https://a.example/'] } }, 'invalid_request', /logout/],
      [{ session_lifetime: 60 }, 'invalid_request', /session_lifetime/],
      [{ session_max_lifetime_minutes: 4 }, 'invalid_request', /session_max_lifetime_minutes/],
      [{ session_max_lifetime_minutes: 90.5 }, 'invalid_request', /session_max_lifetime_minutes/],
      // Semantics.
      [{ slug_pattern: 'https://app.example/login' }, 'invalid_request', /\{\{slug\}\}/],
      [{ slug_pattern: 'https://{{slug}}/{{slug}}' }, 'invalid_request', /exactly once/],
      [{ slug_pattern: 'javascript:{{slug}}' }, 'invalid_request', /http/],
      [{ slug_pattern: '/{{slug}}/login' }, 'invalid_request', /absolute/],
      [{ authorized_origins: ['not a url'] }, 'invalid_request', /authorized_origins\[0\]/],
      [
        { authorized_origins: ['https://ok.example', 'https://a.example/path'] },
        'invalid_request',
        /authorized_origins\[1\].*not an origin/,
      ],
      [{ authorized_origins: ['ftp://a.example'] }, 'invalid_request', /not an origin/],
      [{ authorized_origins: ['https://a.example?x=1'] }, 'invalid_request', /not an origin/],
      [{ authorized_origins: ['https://u:p@a.example'] }, 'invalid_request', /not an origin/],
      [
        { redirect_urls: { login: ['/authenticate'] } },
        'invalid_redirect_url',
        /redirect_urls\.login\[0\]/,
      ],
      [
        { redirect_urls: { signup: ['https://a.example/ok', 'javascript:alert(1)'] } },
        'invalid_redirect_url',
        /redirect_urls\.signup\[1\]/,
      ],
    ];
    for (const [body, errorType, message] of refusals) {
      const res = await put(body);
      expect([JSON.stringify(body), res.status, res.error?.error_type]).toEqual([
        JSON.stringify(body),
        400,
        errorType,
      ]);
      expect(typeof res.error?.error_message).toBe('string');
      expect(`${res.error?.error_message} ${JSON.stringify(res.error?.body ?? '')}`).toMatch(
        message,
      );
    }
    expect(await read()).toEqual(before);
  });

  it("caps the project's sessions by its own lifetime, and hands it back to the server's", async () => {
    const set = await put({ session_max_lifetime_minutes: 60 });
    expect(set.status).toBe(200);
    expect((await read()).session_max_lifetime_minutes).toBe(60);
    h.clock.advance(10_000); // past the short project cache
    const login = await h.login();
    const started = Date.parse(login.member_session.started_at);
    const refreshed = expectOk(
      await h.call(ENDPOINTS.sessionsAuthenticate, {
        token: login.session_token,
        body: { session_duration_minutes: 600 },
      }),
    );
    expect(Date.parse(refreshed.member_session.expires_at)).toBe(started + 60 * 60_000);
    h.clock.advance(61 * 60_000);
    const ended = await h.call(ENDPOINTS.sessionsAuthenticate, {
      token: login.session_token,
      body: {},
    });
    expect(ended.status).toBe(404);
    expect((await put({ session_max_lifetime_minutes: null })).status).toBe(200);
    expect((await read()).session_max_lifetime_minutes).toBeNull();
  });

  it("turns the widget's watermark on through bootstrap, and off again", async () => {
    expect((await bootstrap()).disable_sdk_watermark).toBe(true);
    expect((await put({ display_watermark: true })).status).toBe(200);
    expect((await bootstrap()).disable_sdk_watermark).toBe(false);
    expect((await put({ display_watermark: false })).status).toBe(200);
    expect((await bootstrap()).disable_sdk_watermark).toBe(true);
  });

  it('is all or nothing: valid fields are not stored beside a refused one', async () => {
    const before = await read();
    const res = await put({
      create_organization_enabled: false,
      pkce_required_for_sso: true,
      slug_pattern: 'https://app.example/{{slug}}',
      redirect_urls: { discovery: ['not absolute'] },
    });
    expect([res.status, res.error?.error_type]).toEqual([400, 'invalid_redirect_url']);
    expect(await read()).toEqual(before);
    expect(await bootstrap()).toMatchObject({
      create_organization_enabled: true,
      pkce_required_for_sso: false,
      slug_pattern: null,
    });
  });

  it('keeps every one of concurrent changes to the PKCE flags', async () => {
    const flags = [
      'pkce_required_for_email_magic_links',
      'pkce_required_for_password_resets',
      'pkce_required_for_oauth',
      'pkce_required_for_sso',
    ] as const;
    const set = (value: boolean) =>
      Promise.all(flags.map((flag) => put({ [flag]: value }, undefined)));
    for (const res of await set(true)) expect(res.status).toBe(200);
    expect(await read()).toMatchObject(Object.fromEntries(flags.map((f) => [f, true])));
    for (const res of await set(false)) expect(res.status).toBe(200);
    expect(await read()).toMatchObject(Object.fromEntries(flags.map((f) => [f, false])));
  });

  it("never lets another project's secret key read or change this project", async () => {
    const other = await h.admin.createProject({ name: 'Other' });
    const before = await read();
    for (const authorization of [
      basic(h.project.project_id, other.secret),
      basic(other.project_id, h.project.secret),
    ]) {
      const res = await put({ create_organization_enabled: false }, authorization);
      expect([res.status, res.error?.error_type]).toEqual([401, 'unauthorized_credentials']);
    }
    // Its own key changes its own project only.
    const own = await put(
      { slug_pattern: 'https://other.example/{{slug}}' },
      basic(other.project_id, other.secret),
    );
    expect(own.status).toBe(200);
    const seen = await h.call(ENDPOINTS.getProject, {
      authorization: basic(other.project_id, other.secret),
    });
    expect(expectOk(seen).project).toMatchObject({
      project_id: other.project_id,
      name: 'Other',
      slug_pattern: 'https://other.example/{{slug}}',
    });
    expect(await read()).toEqual(before);
  });
});
