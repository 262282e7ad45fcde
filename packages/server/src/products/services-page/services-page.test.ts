// The phone-parsing page's headers: framed by the projects' authorized origins and nobody else,
// scripts only its own library and its hashed listener.
import { ENDPOINTS } from '@gatehouse/protocol/endpoints';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../../test/harness.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h.close();
});

const directives = (header: string | null) =>
  new Map(
    (header ?? '')
      .split(';')
      .map((part) => part.trim().split(/\s+/))
      .map(([name = '', ...sources]) => [name, sources]),
  );

describe('GET /clientside-services/index.html', () => {
  it('may be framed by the authorized origins of the projects, and nobody else', async () => {
    await h.admin.updateProject(h.project.project_id, {
      authorizedOrigins: ['https://app.acme.test'],
    });
    const res = await h.request(ENDPOINTS.servicesPage.path, { authorization: null });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/html');
    const csp = directives(res.headers.get('content-security-policy'));
    expect(csp.get('frame-ancestors')).toEqual(["'self'", 'https://app.acme.test']);
    expect(csp.get('script-src')?.[0]).toBe("'self'");
    expect(
      csp
        .get('script-src')
        ?.slice(1)
        .every((s) => s.startsWith("'sha256-")),
    ).toBe(true);
    expect(res.headers.get('x-frame-options')).toBeNull();
    expect(res.text).toContain(`<script src="${ENDPOINTS.servicesPageLibrary.path}"></script>`);
  });

  it('serves libphonenumber-js for it', async () => {
    const res = await h.request(ENDPOINTS.servicesPageLibrary.path, { authorization: null });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/javascript');
    expect(res.text).toContain('libphonenumber');
  });
});
