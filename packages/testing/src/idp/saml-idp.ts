/**
 * A SAML identity provider for tests, built on samlify in its IdP role and started in-process on
 * a loopback port. It has its own key and certificate, reads AuthnRequests (HTTP-Redirect
 * binding), shows a login form that a browser fills in, and posts a signed response back to the
 * service provider's ACS (HTTP-POST binding). `createResponse` builds responses without a browser,
 * including the broken ones that abuse tests need.
 *
 * Assertion attributes: `email`, `firstName`, `lastName` and `groups` (multi-valued); the NameID
 * is the e-mail address (format emailAddress).
 */
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import * as samlify from 'samlify';
import { selfSignedKeyPair, type KeyPair } from './keys.js';

// The schema validator samlify needs to read AuthnRequests; the package ships no types.
const validator = createRequire(import.meta.url)('@authenio/samlify-xmllint-wasm') as {
  validate(xml: string): Promise<string>;
};
samlify.setSchemaValidator(validator);

const { binding } = samlify.Constants.namespace;
const EMAIL_FORMAT = 'urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress';
const RSA_SHA256 = 'http://www.w3.org/2001/04/xmldsig-more#rsa-sha256';

export interface SamlUser {
  password: string;
  firstName?: string;
  lastName?: string;
  groups?: string[];
}

export interface SamlResponseInput {
  /** The service provider: its entity ID is the audience, its ACS URL the destination and recipient. */
  sp: { entityId: string; acsUrl: string };
  email: string;
  firstName?: string;
  lastName?: string;
  groups?: string[];
  /** The AuthnRequest answered; omitted for an IdP-initiated response. */
  inResponseTo?: string;
  /** `idp` (default) signs with this IdP's key, `other` with an unrelated key, `none` not at all. */
  signWith?: 'idp' | 'other' | 'none';
  /** What the IdP's key signs: the response and its assertion (default), or only one of them. */
  signed?: 'both' | 'response' | 'assertion';
  /** Changes the e-mail inside the signed assertion after signing. */
  tamper?: boolean;
  /** The response's `Destination`; the SP's ACS URL by default. */
  destination?: string;
  /**
   * The assertion's subject confirmation: by default one bearer confirmation whose data has the
   * assertion's `NotOnOrAfter`, the ACS URL as `Recipient` and the response's `InResponseTo`.
   * A field set to null leaves that attribute out.
   */
  subjectConfirmation?: {
    method?: string;
    notOnOrAfter?: Date | null;
    recipient?: string | null;
    inResponseTo?: string | null;
  };
  audience?: string;
  notBefore?: Date;
  notOnOrAfter?: Date;
  assertionId?: string;
  issuer?: string;
}

export interface SamlIdp {
  url: string;
  entityId: string;
  /** The HTTP-Redirect single sign-on endpoint. */
  ssoUrl: string;
  metadataUrl: string;
  metadataXml: string;
  /** PEM of the signing certificate, what an admin gives the service provider. */
  certificate: string;
  /** PEM of an unrelated certificate, whose key signs when `signWith: 'other'`. */
  otherCertificate: string;
  /** Who may sign in at the login form, by e-mail. */
  users: Map<string, SamlUser>;
  /**
   * The service providers an admin set up here: SP entity ID → ACS URL. While it is empty, any
   * AuthnRequest is answered at the ACS URL it names; once one is set, only those SPs are
   * answered, and at the ACS URL set here, as a real IdP does.
   */
  serviceProviders: Map<string, string>;
  createResponse(input: SamlResponseInput): Promise<string>;
  close(): Promise<void>;
}

function escapeXml(text: string): string {
  return text.replace(/[<>&"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

function escapeHtml(text: string): string {
  return escapeXml(text);
}

function attribute(name: string, values: readonly string[]): string {
  if (values.length === 0) return '';
  const inner = values
    .map((v) => `<saml:AttributeValue xsi:type="xs:string">${escapeXml(v)}</saml:AttributeValue>`)
    .join('');
  return `<saml:Attribute Name="${name}" NameFormat="urn:oasis:names:tc:SAML:2.0:attrname-format:basic">${inner}</saml:Attribute>`;
}

/** The response XML before any signature. */
function responseXml(input: SamlResponseInput, issuer: string, responseId: string): string {
  const now = new Date();
  const issued = now.toISOString();
  const notBefore = (input.notBefore ?? new Date(now.getTime() - 30_000)).toISOString();
  const notOnOrAfter = (input.notOnOrAfter ?? new Date(now.getTime() + 5 * 60_000)).toISOString();
  const inResponseTo =
    input.inResponseTo === undefined ? '' : ` InResponseTo="${escapeXml(input.inResponseTo)}"`;
  const confirmation = input.subjectConfirmation ?? {};
  const optional = (name: string, value: string | null | undefined, fallback?: string) => {
    const text = value === undefined ? fallback : (value ?? undefined);
    return text === undefined ? '' : ` ${name}="${escapeXml(text)}"`;
  };
  const confirmationData =
    optional(
      'NotOnOrAfter',
      confirmation.notOnOrAfter === undefined
        ? undefined
        : (confirmation.notOnOrAfter?.toISOString() ?? null),
      notOnOrAfter,
    ) +
    optional('Recipient', confirmation.recipient, input.sp.acsUrl) +
    optional('InResponseTo', confirmation.inResponseTo, input.inResponseTo);
  const method = confirmation.method ?? 'urn:oasis:names:tc:SAML:2.0:cm:bearer';
  const attributes = [
    attribute('email', [input.email]),
    attribute('firstName', input.firstName ? [input.firstName] : []),
    attribute('lastName', input.lastName ? [input.lastName] : []),
    attribute('groups', input.groups ?? []),
  ].join('');
  return (
    `<samlp:Response xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol" xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" ID="${responseId}" Version="2.0" IssueInstant="${issued}" Destination="${escapeXml(input.destination ?? input.sp.acsUrl)}"${inResponseTo}>` +
    `<saml:Issuer>${escapeXml(issuer)}</saml:Issuer>` +
    `<samlp:Status><samlp:StatusCode Value="urn:oasis:names:tc:SAML:2.0:status:Success"/></samlp:Status>` +
    `<saml:Assertion xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xmlns:xs="http://www.w3.org/2001/XMLSchema" ID="${escapeXml(input.assertionId ?? `_${randomUUID()}`)}" Version="2.0" IssueInstant="${issued}">` +
    `<saml:Issuer>${escapeXml(issuer)}</saml:Issuer>` +
    `<saml:Subject><saml:NameID Format="${EMAIL_FORMAT}">${escapeXml(input.email)}</saml:NameID>` +
    `<saml:SubjectConfirmation Method="${escapeXml(method)}"><saml:SubjectConfirmationData${confirmationData}/></saml:SubjectConfirmation></saml:Subject>` +
    `<saml:Conditions NotBefore="${notBefore}" NotOnOrAfter="${notOnOrAfter}"><saml:AudienceRestriction><saml:Audience>${escapeXml(input.audience ?? input.sp.entityId)}</saml:Audience></saml:AudienceRestriction></saml:Conditions>` +
    `<saml:AuthnStatement AuthnInstant="${issued}" SessionIndex="_${randomUUID()}"><saml:AuthnContext><saml:AuthnContextClassRef>urn:oasis:names:tc:SAML:2.0:ac:classes:PasswordProtectedTransport</saml:AuthnContextClassRef></saml:AuthnContext></saml:AuthnStatement>` +
    `<saml:AttributeStatement>${attributes}</saml:AttributeStatement>` +
    `</saml:Assertion></samlp:Response>`
  );
}

function identityProvider(entityId: string, ssoUrl: string, keys: KeyPair) {
  return samlify.IdentityProvider({
    entityID: entityId,
    signingCert: keys.certificate,
    privateKey: keys.privateKey,
    nameIDFormat: [EMAIL_FORMAT],
    requestSignatureAlgorithm: RSA_SHA256,
    singleSignOnService: [{ Binding: binding.redirect, Location: ssoUrl }],
    // Not served: declared so that samlify's metadata is complete.
    singleLogoutService: [
      { Binding: binding.redirect, Location: ssoUrl.replace(/\/sso$/, '/slo') },
    ],
  });
}

function serviceProvider(
  sp: SamlResponseInput['sp'],
  signed: SamlResponseInput['signed'] = 'both',
) {
  return samlify.ServiceProvider({
    entityID: sp.entityId,
    authnRequestsSigned: false,
    wantAssertionsSigned: signed !== 'response',
    wantMessageSigned: signed !== 'assertion',
    assertionConsumerService: [{ Binding: binding.post, Location: sp.acsUrl }],
  });
}

async function readBody(request: IncomingMessage): Promise<URLSearchParams> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
}

function send(response: ServerResponse, status: number, type: string, body: string): void {
  response.writeHead(status, { 'content-type': type, 'cache-control': 'no-store' });
  response.end(body);
}

function loginPage(fields: { SAMLRequest: string; RelayState: string }, error = ''): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Test IdP sign-in</title></head><body>
<h1>Test IdP</h1>
${error ? `<p role="alert">${escapeHtml(error)}</p>` : ''}
<form method="post" action="/login">
<input type="hidden" name="SAMLRequest" value="${escapeHtml(fields.SAMLRequest)}">
<input type="hidden" name="RelayState" value="${escapeHtml(fields.RelayState)}">
<label>Email <input name="email" type="email" autocomplete="username"></label>
<label>Password <input name="password" type="password" autocomplete="current-password"></label>
<button type="submit">Sign in</button>
</form></body></html>`;
}

function autoPostPage(acsUrl: string, samlResponse: string, relayState: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Signing in…</title></head><body>
<form method="post" action="${escapeHtml(acsUrl)}">
<input type="hidden" name="SAMLResponse" value="${escapeHtml(samlResponse)}">
<input type="hidden" name="RelayState" value="${escapeHtml(relayState)}">
<button type="submit">Continue</button>
</form>
<script>document.forms[0].submit();</script>
</body></html>`;
}

/**
 * Starts the IdP on 127.0.0.1 with a port chosen by the OS.
 *
 * @example
 * const idp = await startSamlIdp();
 * idp.users.set('ada@acme.test', { password: 'pw', groups: ['admins'] });
 */
export async function startSamlIdp(): Promise<SamlIdp> {
  const keys = selfSignedKeyPair('Gatehouse test IdP');
  const other = selfSignedKeyPair('Unrelated signer');
  const users = new Map<string, SamlUser>();
  let entityId = '';
  let ssoUrl = '';

  async function createResponse(input: SamlResponseInput): Promise<string> {
    const issuer = input.issuer ?? entityId;
    const responseId = `_${randomUUID()}`;
    const xml = responseXml(input, issuer, responseId);
    let encoded: string;
    if (input.signWith === 'none') {
      encoded = Buffer.from(xml, 'utf8').toString('base64');
    } else {
      const signer = identityProvider(issuer, ssoUrl, input.signWith === 'other' ? other : keys);
      const { context } = await signer.createLoginResponse(
        serviceProvider(input.sp, input.signed),
        { extract: {} },
        'post',
        { email: input.email },
        () => ({ id: responseId, context: xml }),
      );
      encoded = context;
    }
    if (!input.tamper) return encoded;
    const signed = Buffer.from(encoded, 'base64').toString('utf8');
    const changed = signed.replaceAll(`>${escapeXml(input.email)}<`, '>intruder@evil.test<');
    return Buffer.from(changed, 'utf8').toString('base64');
  }

  const serviceProviders = new Map<string, string>();
  const server = createServer((request, response) => {
    void (async () => {
      const url = new URL(request.url ?? '/', `http://${request.headers.host ?? '127.0.0.1'}`);
      if (request.method === 'GET' && url.pathname === '/metadata') {
        return send(response, 200, 'application/samlmetadata+xml', idp().getMetadata());
      }
      if (request.method === 'GET' && url.pathname === '/sso') {
        const fields = {
          SAMLRequest: url.searchParams.get('SAMLRequest') ?? '',
          RelayState: url.searchParams.get('RelayState') ?? '',
        };
        await readRequest(fields.SAMLRequest);
        return send(response, 200, 'text/html; charset=utf-8', loginPage(fields));
      }
      if (request.method === 'POST' && url.pathname === '/login') {
        const form = await readBody(request);
        const fields = {
          SAMLRequest: form.get('SAMLRequest') ?? '',
          RelayState: form.get('RelayState') ?? '',
        };
        const email = (form.get('email') ?? '').trim().toLowerCase();
        const user = users.get(email);
        if (!user || user.password !== form.get('password')) {
          return send(
            response,
            200,
            'text/html; charset=utf-8',
            loginPage(fields, 'Wrong email or password'),
          );
        }
        const authn = await readRequest(fields.SAMLRequest);
        const acsUrl =
          serviceProviders.size === 0 ? authn.acsUrl : serviceProviders.get(authn.issuer);
        if (acsUrl === undefined) {
          return send(response, 400, 'text/plain', `Unknown service provider ${authn.issuer}`);
        }
        const samlResponse = await createResponse({
          sp: { entityId: authn.issuer, acsUrl },
          email,
          inResponseTo: authn.id,
          ...(user.firstName ? { firstName: user.firstName } : {}),
          ...(user.lastName ? { lastName: user.lastName } : {}),
          ...(user.groups ? { groups: user.groups } : {}),
        });
        return send(
          response,
          200,
          'text/html; charset=utf-8',
          autoPostPage(acsUrl, samlResponse, fields.RelayState),
        );
      }
      send(response, 404, 'text/plain', 'Not found');
    })().catch((error: unknown) => {
      send(response, 400, 'text/plain', error instanceof Error ? error.message : 'Bad request');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  entityId = `${url}/metadata`;
  ssoUrl = `${url}/sso`;
  const idp = () => identityProvider(entityId, ssoUrl, keys);

  /** Reads an AuthnRequest with samlify: its ID, its issuer (the SP) and where to answer. */
  async function readRequest(samlRequest: string) {
    if (samlRequest === '') throw new Error('No SAMLRequest');
    const parsed = await idp().parseLoginRequest(
      serviceProvider({ entityId: 'unknown', acsUrl: 'http://unknown.invalid/acs' }),
      'redirect',
      { query: { SAMLRequest: samlRequest } },
    );
    const extract = parsed.extract as {
      request?: { id?: string; assertionConsumerServiceUrl?: string };
      issuer?: string;
    };
    const id = extract.request?.id;
    const acsUrl = extract.request?.assertionConsumerServiceUrl;
    if (!id || !acsUrl || !extract.issuer) throw new Error('The AuthnRequest is incomplete');
    return { id, acsUrl, issuer: extract.issuer };
  }

  return {
    url,
    entityId,
    ssoUrl,
    metadataUrl: entityId,
    metadataXml: idp().getMetadata(),
    certificate: keys.certificate,
    otherCertificate: other.certificate,
    users,
    serviceProviders,
    createResponse,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
