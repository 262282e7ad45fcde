// The test SAML IdP checked by the service-provider library the server uses (node-saml): what it
// signs is accepted, each broken response is refused, and the browser flow works over plain HTTP.
import { SAML, ValidateInResponseTo, type SamlConfig } from '@node-saml/node-saml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSamlIdp, type SamlIdp } from './saml-idp.js';

const SP = { entityId: 'https://sp.test/saml/metadata', acsUrl: 'https://sp.test/saml/acs' };
const EMAIL = 'ada@acme.test';
const PASSWORD = 'correct horse battery staple';

let idp: SamlIdp;

beforeAll(async () => {
  idp = await startSamlIdp();
  idp.users.set(EMAIL, {
    password: PASSWORD,
    firstName: 'Ada',
    lastName: 'Lovelace',
    groups: ['engineering', 'admins'],
  });
});

afterAll(async () => {
  await idp?.close();
});

/** node-saml configured as the server configures it for a connection to this IdP. */
function serviceProvider(options: Partial<SamlConfig> = {}): SAML {
  return new SAML({
    idpCert: idp.certificate,
    issuer: SP.entityId,
    callbackUrl: SP.acsUrl,
    entryPoint: idp.ssoUrl,
    audience: SP.entityId,
    idpIssuer: idp.entityId,
    wantAssertionsSigned: true,
    wantAuthnResponseSigned: true,
    validateInResponseTo: ValidateInResponseTo.never,
    ...options,
  });
}

/** A service provider that checks the assertion's signature alone, the weaker of the two checks. */
const assertionOnly = () => serviceProvider({ wantAuthnResponseSigned: false });

const decode = (samlResponse: string) => Buffer.from(samlResponse, 'base64').toString('utf8');

/** The value of a named hidden or text field in an HTML page. */
function field(page: string, name: string): string | undefined {
  const input = new RegExp(`<input[^>]*name="${name}"[^>]*>`).exec(page)?.[0];
  return input === undefined ? undefined : (/value="([^"]*)"/.exec(input)?.[1] ?? '');
}

describe('metadata', () => {
  it('serves the metadata with the signing certificate and the redirect SSO endpoint', async () => {
    const res = await fetch(idp.metadataUrl);
    expect(res.status).toBe(200);
    const xml = await res.text();
    expect(xml).toBe(idp.metadataXml);
    expect(xml).toContain(`entityID="${idp.entityId}"`);
    expect(xml).toContain(`Location="${idp.ssoUrl}"`);
    const base64 = idp.certificate.replace(/-----[^-]+-----|\s/g, '');
    expect(xml).toContain(base64);
    expect(idp.otherCertificate).not.toBe(idp.certificate);
  });
});

describe('createResponse', () => {
  it('signs the response and the assertion with RSA-SHA256', async () => {
    const xml = decode(await idp.createResponse({ sp: SP, email: EMAIL }));
    expect(xml.match(/<(ds:)?Signature[\s>]/g)).toHaveLength(2);
    expect(xml).toContain('http://www.w3.org/2001/04/xmldsig-more#rsa-sha256');
  });

  it('is accepted, with the e-mail as NameID and the attributes', async () => {
    const samlResponse = await idp.createResponse({
      sp: SP,
      email: EMAIL,
      firstName: 'Ada',
      lastName: 'Lovelace',
      groups: ['engineering', 'admins'],
    });
    const { profile, loggedOut } = await serviceProvider().validatePostResponseAsync({
      SAMLResponse: samlResponse,
    });
    expect(loggedOut).toBe(false);
    expect(profile?.nameID).toBe(EMAIL);
    expect(profile?.nameIDFormat).toBe('urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress');
    expect(profile?.issuer).toBe(idp.entityId);
    expect(profile?.attributes).toEqual({
      email: EMAIL,
      firstName: 'Ada',
      lastName: 'Lovelace',
      groups: ['engineering', 'admins'],
    });
  });

  it('keeps the assertion ID and the InResponseTo it is given', async () => {
    const xml = decode(
      await idp.createResponse({
        sp: SP,
        email: EMAIL,
        assertionId: '_replayed-assertion',
        inResponseTo: '_request-1',
      }),
    );
    expect(xml).toMatch(/<saml:Assertion [^>]*ID="_replayed-assertion"/);
    expect(xml).toMatch(/<samlp:Response [^>]*InResponseTo="_request-1"/);
    expect(xml).toMatch(/<saml:SubjectConfirmationData [^>]*InResponseTo="_request-1"/);
  });

  it('leaves InResponseTo out of an IdP-initiated response', async () => {
    const xml = decode(await idp.createResponse({ sp: SP, email: EMAIL }));
    expect(xml).not.toContain('InResponseTo');
  });

  it('is refused when the assertion was changed after signing', async () => {
    const samlResponse = await idp.createResponse({ sp: SP, email: EMAIL, tamper: true });
    expect(decode(samlResponse)).not.toContain(EMAIL);
    await expect(
      assertionOnly().validatePostResponseAsync({ SAMLResponse: samlResponse }),
    ).rejects.toThrow('Invalid signature');
    await expect(
      serviceProvider().validatePostResponseAsync({ SAMLResponse: samlResponse }),
    ).rejects.toThrow('Invalid document signature');
  });

  it('is refused when signed by a key that is not the connection’s', async () => {
    const samlResponse = await idp.createResponse({ sp: SP, email: EMAIL, signWith: 'other' });
    await expect(
      assertionOnly().validatePostResponseAsync({ SAMLResponse: samlResponse }),
    ).rejects.toThrow('Invalid signature');
    // The same response passes once the SP trusts the other certificate: only the key differs.
    const trusting = serviceProvider({ idpCert: [idp.certificate, idp.otherCertificate] });
    const { profile } = await trusting.validatePostResponseAsync({ SAMLResponse: samlResponse });
    expect(profile?.nameID).toBe(EMAIL);
  });

  it('is refused unsigned', async () => {
    const samlResponse = await idp.createResponse({ sp: SP, email: EMAIL, signWith: 'none' });
    expect(decode(samlResponse)).not.toMatch(/Signature/);
    await expect(
      assertionOnly().validatePostResponseAsync({ SAMLResponse: samlResponse }),
    ).rejects.toThrow('Invalid signature');
  });

  it('is refused for another audience', async () => {
    const samlResponse = await idp.createResponse({
      sp: SP,
      email: EMAIL,
      audience: 'https://other-sp.test/metadata',
    });
    await expect(
      serviceProvider().validatePostResponseAsync({ SAMLResponse: samlResponse }),
    ).rejects.toThrow(/audience/i);
  });

  it('is refused once expired', async () => {
    const now = Date.now();
    const samlResponse = await idp.createResponse({
      sp: SP,
      email: EMAIL,
      notBefore: new Date(now - 20 * 60_000),
      notOnOrAfter: new Date(now - 10 * 60_000),
    });
    await expect(
      serviceProvider().validatePostResponseAsync({ SAMLResponse: samlResponse }),
    ).rejects.toThrow(/expired/i);
  });

  // node-saml verifies the signature but not who claims to have issued the response: it hands the
  // issuer over, and the server refuses one that is not the connection's IdP.
  it('names another issuer when asked to sign as one', async () => {
    const samlResponse = await idp.createResponse({
      sp: SP,
      email: EMAIL,
      issuer: 'https://impostor.test/metadata',
    });
    const { profile } = await serviceProvider().validatePostResponseAsync({
      SAMLResponse: samlResponse,
    });
    expect(profile?.issuer).toBe('https://impostor.test/metadata');
    expect(decode(samlResponse)).toContain(
      '<saml:Issuer>https://impostor.test/metadata</saml:Issuer>',
    );
  });
});

describe('the login flow over HTTP', () => {
  /** Sends node-saml's AuthnRequest to the IdP and returns the login page. */
  async function loginPage(saml: SAML, relayState: string): Promise<string> {
    const url = await saml.getAuthorizeUrlAsync(relayState, undefined, {});
    expect(url.startsWith(`${idp.ssoUrl}?`)).toBe(true);
    const res = await fetch(url);
    expect(res.status).toBe(200);
    return res.text();
  }

  function submit(page: string, email: string, password: string): Promise<Response> {
    const form = new URLSearchParams({
      SAMLRequest: field(page, 'SAMLRequest') ?? '',
      RelayState: field(page, 'RelayState') ?? '',
      email,
      password,
    });
    return fetch(`${idp.url}/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: form.toString(),
    });
  }

  it('signs in and posts a response to the ACS that answers the AuthnRequest', async () => {
    const saml = serviceProvider({ validateInResponseTo: ValidateInResponseTo.always });
    const page = await loginPage(saml, 'relay-123');
    expect(page).toContain('<label>Email <input name="email"');
    expect(page).toContain('<label>Password <input name="password" type="password"');
    expect(page).toContain('<button type="submit">Sign in</button>');

    const res = await submit(page, EMAIL, PASSWORD);
    expect(res.status).toBe(200);
    const autoPost = await res.text();
    expect(autoPost).toContain(`<form method="post" action="${SP.acsUrl}">`);
    expect(autoPost).toContain('document.forms[0].submit()');
    expect(field(autoPost, 'RelayState')).toBe('relay-123');
    const samlResponse = field(autoPost, 'SAMLResponse') ?? '';

    const { profile } = await saml.validatePostResponseAsync({ SAMLResponse: samlResponse });
    expect(profile?.nameID).toBe(EMAIL);
    expect(profile?.attributes).toMatchObject({ groups: ['engineering', 'admins'] });
    // node-saml forgets the request once answered: the same response cannot be used twice.
    await expect(saml.validatePostResponseAsync({ SAMLResponse: samlResponse })).rejects.toThrow(
      'InResponseTo is not valid',
    );
  });

  it('answers a response to another request with an InResponseTo node-saml refuses', async () => {
    const asking = serviceProvider({ validateInResponseTo: ValidateInResponseTo.always });
    const page = await loginPage(asking, '');
    const samlResponse = field(await (await submit(page, EMAIL, PASSWORD)).text(), 'SAMLResponse');
    // A second SP instance never sent that request.
    const other = serviceProvider({ validateInResponseTo: ValidateInResponseTo.always });
    await expect(
      other.validatePostResponseAsync({ SAMLResponse: samlResponse ?? '' }),
    ).rejects.toThrow('InResponseTo is not valid');
  });

  it('shows the form again with an error for a wrong password', async () => {
    const page = await loginPage(serviceProvider(), 'relay-456');
    const res = await submit(page, EMAIL, 'wrong');
    expect(res.status).toBe(200);
    const again = await res.text();
    expect(again).toContain('Wrong email or password');
    expect(again).toContain('<button type="submit">Sign in</button>');
    expect(field(again, 'SAMLResponse')).toBeUndefined();
    expect(field(again, 'SAMLRequest')).toBe(field(page, 'SAMLRequest'));
    expect(field(again, 'RelayState')).toBe('relay-456');
  });

  it('refuses a sign-in page without an AuthnRequest', async () => {
    const res = await fetch(idp.ssoUrl);
    expect(res.status).toBe(400);
  });
});
