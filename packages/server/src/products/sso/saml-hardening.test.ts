// The SAML ACS against hostile input, over HTTP with the real SAML IdP stand-in: oversized and
// deep documents, DTDs, subject confirmations the Web Browser SSO profile refuses, and values
// read from outside what the signature covers. Signature wrapping: saml-xsw.test.ts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSamlIdp, type SamlIdp, type SamlResponseInput } from '@gatehouse/testing/idp';
import { startHarness, type Harness } from '../../test/harness.js';
import {
  addSamlConnection,
  authnRequestId,
  navigate,
  postToAcs,
  startUrl,
  TestBrowser,
  type TestConnection,
} from '../../test/sso.js';

const PROTOCOL_NS = 'urn:oasis:names:tc:SAML:2.0:protocol';
const ASSERTION_NS = 'urn:oasis:names:tc:SAML:2.0:assertion';
const VICTIM = 'ada@acme.test';

let h: Harness;
let idp: SamlIdp;
/** SP-initiated sign-ins only. */
let conn: TestConnection;
/** Accepts IdP-initiated responses, so that a response needs no start. */
let open: TestConnection;

beforeAll(async () => {
  [h, idp] = await Promise.all([startHarness({ listen: true }), startSamlIdp()]);
  const base = {
    idpEntityId: idp.entityId,
    idpSsoUrl: idp.ssoUrl,
    certificates: [idp.certificate],
  };
  conn = await addSamlConnection(h, base);
  open = await addSamlConnection(h, { ...base, allowIdpInitiated: true, displayName: 'Open' });
  // The first response starts the SAML workers, the first bootstrap warms its route: timings
  // below are of a running server.
  const first = await postToAcs(open.acsUrl, await genuine());
  expect(first.status, first.text).toBe(302);
  expect((await fetch(bootstrapUrl())).status).toBe(200);
});

afterAll(async () => {
  await Promise.all([h?.close(), idp?.close()]);
});

const bootstrapUrl = () => `${h.url}/sdk/v1/projects/bootstrap/${h.project.public_token}`;

type Navigation = Awaited<ReturnType<typeof navigate>>;

/** A refusal at the ACS: an HTML page naming the error type, no redirect. */
function expectRefusal(res: Navigation, errorType = 'invalid_saml_response', status = 400): void {
  expect(res.status).toBe(status);
  expect(res.location).toBeNull();
  expect(res.type).toContain('text/html');
  expect(res.text).toContain(`<code id="error-type">${errorType}</code>`);
}

/** A response of the stand-in for the open connection, unprompted unless said otherwise. */
function genuine(extra: Partial<SamlResponseInput> = {}): Promise<string> {
  return idp.createResponse({
    sp: { entityId: open.entityId, acsUrl: open.acsUrl },
    email: VICTIM,
    ...extra,
  });
}

/** Starts a sign-in in `browser`; answers the AuthnRequest ID. */
async function start(browser: TestBrowser, c: TestConnection): Promise<string> {
  const res = await browser.navigate(startUrl(h, c.connectionId));
  expect(res.status).toBe(302);
  return authnRequestId(res.location ?? '');
}

/** Posts a response to the ACS from `browser`, as the IdP's auto-submitting form would. */
function postFrom(browser: TestBrowser, acsUrl: string, samlResponse: string): Promise<Navigation> {
  return browser.navigate(acsUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ SAMLResponse: samlResponse, RelayState: '' }).toString(),
  });
}

const decode = (b64: string) => Buffer.from(b64, 'base64').toString('utf8');
const encode = (xml: string) => Buffer.from(xml, 'utf8').toString('base64');

/** Times one request. */
async function timed<T>(run: () => Promise<T>): Promise<{ result: T; ms: number }> {
  const started = performance.now();
  const result = await run();
  return { result, ms: performance.now() - started };
}

/** An unsigned response of `siblings` empty elements beside a bare assertion. */
function hostile(siblings: number, depth = 0): string {
  const open_ = '<s:w>'.repeat(depth);
  const close = '</s:w>'.repeat(depth);
  return encode(
    `<samlp:Response xmlns:samlp="${PROTOCOL_NS}" xmlns:saml="${ASSERTION_NS}" xmlns:s="urn:x" ID="_h" Version="2.0" IssueInstant="${new Date().toISOString()}">` +
      `<saml:Issuer>${idp.entityId}</saml:Issuer>${open_}${'<s:x/>'.repeat(siblings)}${close}` +
      `<saml:Assertion ID="_a" Version="2.0"/></samlp:Response>`,
  );
}

describe('resource bounds', () => {
  /**
   * What this machine needs, right now, for a bootstrap and for a plain ACS refusal with nobody
   * attacking: the slowest of a few of each. The limits below (200 ms for the bootstrap, 1 s for a
   * hostile response) are on top of that cost, so a test runner busy with other suites does not
   * fail them, while a server that blocks its event loop on a response (for seconds: 12 s and more
   * for 20,000 siblings before the ACS bounded and moved its checks) still does. On a quiet
   * machine the quiet cost is a few milliseconds, so the limits are the stated ones.
   */
  async function quietCost(): Promise<{ bootstrap: number; refusal: number }> {
    let bootstrap = 0;
    let refusal = 0;
    for (let i = 0; i < 5; i += 1) {
      bootstrap = Math.max(bootstrap, (await timed(() => fetch(bootstrapUrl()))).ms);
      refusal = Math.max(refusal, (await timed(() => postToAcs(open.acsUrl, hostile(1)))).ms);
    }
    return { bootstrap, refusal };
  }

  /** Posts `responses` together and asks for the bootstrap over and over until they are answered. */
  async function underLoad(responses: string[]) {
    const quiet = await quietCost();
    let pending = true;
    const posts = Promise.all(responses.map((r) => timed(() => postToAcs(open.acsUrl, r)))).finally(
      () => {
        pending = false;
      },
    );
    const bootstraps: number[] = [];
    do {
      const { result, ms } = await timed(() => fetch(bootstrapUrl()).then((res) => res.status));
      expect(result).toBe(200);
      bootstraps.push(ms);
    } while (pending);
    return {
      posts: await posts,
      bootstraps,
      // A busy runner stretches every request alike: allow a few times the quiet cost on top.
      bootstrapLimit: 200 + 4 * quiet.bootstrap,
      // The responses are posted together, so each may wait for the others' share of the CPU.
      postLimit: 1_000 + quiet.refusal * responses.length,
    };
  }

  it('refuses a response with 20,000 sibling elements at once, while other requests are answered', async () => {
    const response = hostile(20_000);
    expect(decode(response).length).toBeGreaterThan(110_000);
    const load = await underLoad(Array.from({ length: 6 }, () => response));
    for (const { result, ms } of load.posts) {
      expectRefusal(result);
      expect(result.text).toContain('more than 1000 elements');
      expect(ms).toBeLessThan(load.postLimit);
    }
    expect(Math.max(...load.bootstraps)).toBeLessThan(load.bootstrapLimit);
  });

  it('checks responses just within the bounds off the main thread', async () => {
    const response = hostile(990);
    const load = await underLoad(Array.from({ length: 6 }, () => response));
    for (const { result, ms } of load.posts) {
      expectRefusal(result);
      expect(result.text).toContain('is signed');
      expect(ms).toBeLessThan(load.postLimit);
    }
    expect(Math.max(...load.bootstraps)).toBeLessThan(load.bootstrapLimit);
  });

  it('refuses deep nesting and elements with too many attributes', async () => {
    expectRefusal(await postToAcs(open.acsUrl, hostile(1, 40)));
    const attributes = Array.from({ length: 40 }, (_, i) => ` a${i}="1"`).join('');
    const xml = decode(await genuine()).replace('<saml:Issuer>', `<saml:Issuer${attributes}>`);
    const res = await postToAcs(open.acsUrl, encode(xml));
    expectRefusal(res);
    expect(res.text).toContain('more than 32 attributes');
  });

  it('answers a body over 1 MiB with the HTML error page', async () => {
    const res = await postToAcs(open.acsUrl, 'A'.repeat(1024 * 1024 + 1));
    expectRefusal(res, 'invalid_request');
    expect(res.text).toContain('1 MiB');
  });

  it('answers a form holding NUL with the HTML error page, before reading the response', async () => {
    const res = await navigate(open.acsUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: `SAMLResponse=${encodeURIComponent(await genuine())}%00`,
    });
    expectRefusal(res, 'invalid_request');
    expect(res.text).toContain('NUL character');
  });

  it('answers a body that is not a form with the HTML error page', async () => {
    const res = await navigate(open.acsUrl, {
      method: 'POST',
      headers: { 'content-type': 'text/plain' },
      body: `SAMLResponse=${await genuine()}`,
    });
    expectRefusal(res, 'invalid_request');
  });
});

describe('document type declarations', () => {
  it('refuses a genuine response that carries a DOCTYPE', async () => {
    const doctype = '<!DOCTYPE samlp:Response [<!ENTITY who "ada">]>';
    const xml = decode(await genuine()).replace(/^(<\?xml[^>]*\?>)?/, (decl) => decl + doctype);
    const res = await postToAcs(open.acsUrl, encode(xml));
    expectRefusal(res);
    expect(res.text).toContain('DOCTYPE');
  });

  it('refuses an entity declaration even inside the document', async () => {
    const xml = decode(await genuine()).replace('<saml:Issuer>', '<!ENTITY x "y"><saml:Issuer>');
    expectRefusal(await postToAcs(open.acsUrl, encode(xml)));
  });
});

describe('subject confirmation (Web Browser SSO profile)', () => {
  it('refuses a bearer confirmation that has expired while the conditions are still open', async () => {
    const response = await genuine({
      subjectConfirmation: { notOnOrAfter: new Date(Date.now() - 5 * 60_000) },
    });
    const res = await postToAcs(open.acsUrl, response);
    expectRefusal(res);
    expect(res.text).toContain('expired');
  });

  it('refuses a confirmation without NotOnOrAfter', async () => {
    expectRefusal(
      await postToAcs(open.acsUrl, await genuine({ subjectConfirmation: { notOnOrAfter: null } })),
    );
  });

  it('refuses a confirmation method other than bearer', async () => {
    const response = await genuine({
      subjectConfirmation: { method: 'urn:oasis:names:tc:SAML:2.0:cm:holder-of-key' },
    });
    const res = await postToAcs(open.acsUrl, response);
    expectRefusal(res);
    expect(res.text).toContain('no bearer SubjectConfirmation');
  });

  it('refuses a Recipient other than our ACS', async () => {
    const response = await genuine({ subjectConfirmation: { recipient: conn.acsUrl } });
    expectRefusal(await postToAcs(open.acsUrl, response));
  });

  it('refuses a solicited response whose confirmation names no request', async () => {
    const browser = new TestBrowser();
    const response = await idp.createResponse({
      sp: { entityId: conn.entityId, acsUrl: conn.acsUrl },
      email: VICTIM,
      inResponseTo: await start(browser, conn),
      subjectConfirmation: { inResponseTo: null },
    });
    expectRefusal(await postFrom(browser, conn.acsUrl, response));
  });

  it('takes the request from the signed confirmation when the response names none', async () => {
    const browser = new TestBrowser();
    const requestId = await start(browser, conn);
    const unknown = await idp.createResponse({
      sp: { entityId: conn.entityId, acsUrl: conn.acsUrl },
      email: VICTIM,
      subjectConfirmation: { inResponseTo: '_never-issued' },
    });
    // Solicited by its signed confirmation: no unprompted sign-in, and no request of ours.
    expectRefusal(await postFrom(browser, conn.acsUrl, unknown));
    const answered = await idp.createResponse({
      sp: { entityId: conn.entityId, acsUrl: conn.acsUrl },
      email: VICTIM,
      subjectConfirmation: { inResponseTo: requestId },
    });
    expect((await postFrom(browser, conn.acsUrl, answered)).status).toBe(302);
  });
});

describe('values the signature covers', () => {
  it('reads the Destination from the signed response, not from a comment before it', async () => {
    const signed = decode(
      await idp.createResponse({
        sp: { entityId: open.entityId, acsUrl: open.acsUrl },
        email: VICTIM,
        destination: conn.acsUrl,
      }),
    );
    const decoy = `<!--<samlp:Response Destination="${open.acsUrl}">-->`;
    const xml = signed.replace(/<samlp:Response\b/, `${decoy}$&`);
    const res = await postToAcs(open.acsUrl, encode(xml));
    expectRefusal(res);
    expect(res.text).toContain('Destination');
  });

  it('reads the Destination from the parsed response when only the assertion is signed', async () => {
    const response = await genuine({ signed: 'assertion', destination: conn.acsUrl });
    expectRefusal(await postToAcs(open.acsUrl, response));
  });
});
