// SAML Raider's XML signature wrapping catalogue (XSW1–XSW8) against the ACS, over HTTP: the
// real SAML IdP stand-in signs a genuine response, the test rewraps it, and every variant must be
// refused with the HTML error page and no member created.
import { DOMParser, XMLSerializer } from '@xmldom/xmldom';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSamlIdp, type SamlIdp, type SamlResponseInput } from '@gatehouse/testing/idp';
import { startHarness, type Harness } from '../../test/harness.js';
import { addSamlConnection, navigate, postToAcs, type TestConnection } from '../../test/sso.js';

const PROTOCOL_NS = 'urn:oasis:names:tc:SAML:2.0:protocol';
const ASSERTION_NS = 'urn:oasis:names:tc:SAML:2.0:assertion';
const DSIG_NS = 'http://www.w3.org/2000/09/xmldsig#';
const VICTIM = 'ada@acme.test';
const INTRUDER = 'intruder@evil.test';

let h: Harness;
let idp: SamlIdp;
/** Accepts IdP-initiated responses, so that a response needs no start. */
let open: TestConnection;

beforeAll(async () => {
  [h, idp] = await Promise.all([startHarness({ listen: true }), startSamlIdp()]);
  open = await addSamlConnection(h, {
    idpEntityId: idp.entityId,
    idpSsoUrl: idp.ssoUrl,
    certificates: [idp.certificate],
    allowIdpInitiated: true,
  });
});

afterAll(async () => {
  await Promise.all([h?.close(), idp?.close()]);
});

/** A refusal at the ACS: 400 `invalid_saml_response` as an HTML page, no redirect. */
function expectRefusal(res: Awaited<ReturnType<typeof navigate>>): void {
  expect(res.status).toBe(400);
  expect(res.location).toBeNull();
  expect(res.type).toContain('text/html');
  expect(res.text).toContain('<code id="error-type">invalid_saml_response</code>');
}

/** An unprompted response of the stand-in for the open connection. */
function genuine(extra: Partial<SamlResponseInput> = {}): Promise<string> {
  return idp.createResponse({
    sp: { entityId: open.entityId, acsUrl: open.acsUrl },
    email: VICTIM,
    ...extra,
  });
}

const decode = (b64: string) => Buffer.from(b64, 'base64').toString('utf8');
const encode = (xml: string) => Buffer.from(xml, 'utf8').toString('base64');

async function memberCount(email: string): Promise<number> {
  const rows = await h.db.selectFrom('members').select('id').where('email', '=', email).execute();
  return rows.length;
}

/** The genuine response as a document, with its root and its one assertion. */
function parts(b64: string) {
  const doc = new DOMParser().parseFromString(decode(b64), 'text/xml');
  const root = doc.documentElement as Element;
  const assertion = root.getElementsByTagNameNS(ASSERTION_NS, 'Assertion').item(0) as Element;
  return { doc, root, assertion };
}

function signatureOf(el: Element): Element | null {
  for (let c = el.firstChild; c !== null; c = c.nextSibling) {
    if (
      c.nodeType === 1 &&
      (c as Element).namespaceURI === DSIG_NS &&
      (c as Element).localName === 'Signature'
    ) {
      return c as Element;
    }
  }
  return null;
}

/** A deep copy of `el` without its signature, naming the intruder instead of the victim. */
function evilCopy(el: Element, id: string | null): Element {
  const copy = el.cloneNode(true) as Element;
  const signature = signatureOf(copy);
  if (signature) copy.removeChild(signature);
  if (id !== null) copy.setAttribute('ID', id);
  const all = copy.getElementsByTagName('*');
  for (let i = 0; i < all.length; i += 1) {
    const text = all.item(i)?.firstChild;
    if (text && text.nodeType === 3 && (text as Text).data === VICTIM)
      (text as Text).data = INTRUDER;
  }
  return copy;
}

/** A copy of `el` as signed, without its signature: what the signature's digest covers. */
function unsignedCopy(el: Element): Element {
  const copy = el.cloneNode(true) as Element;
  const signature = signatureOf(copy);
  if (signature) copy.removeChild(signature);
  return copy;
}

function inObject(doc: Document, signature: Element, content: Element): void {
  const object = doc.createElementNS(DSIG_NS, 'ds:Object');
  object.appendChild(content);
  signature.appendChild(object);
}

const serialize = (doc: Document) => encode(new XMLSerializer().serializeToString(doc));

/** SAML Raider's wrapping attacks, each on a genuine response signed as the attack needs. */
const XSW: Record<string, { signed: 'response' | 'assertion'; wrap(b64: string): string }> = {
  // The evil response is the root; the signed original hides in the signature's Object.
  XSW1: {
    signed: 'response',
    wrap(b64) {
      const { doc, root } = parts(b64);
      const evil = evilCopy(root, '_evil-response');
      const signature = signatureOf(root)?.cloneNode(true) as Element;
      inObject(doc, signature, unsignedCopy(root));
      evil.insertBefore(signature, evil.firstChild?.nextSibling ?? null);
      doc.replaceChild(evil, root);
      return serialize(doc);
    },
  },
  // The evil response is the root; the signed original sits beside the signature (detached).
  XSW2: {
    signed: 'response',
    wrap(b64) {
      const { doc, root } = parts(b64);
      const evil = evilCopy(root, '_evil-response');
      const signature = signatureOf(root)?.cloneNode(true) as Element;
      evil.insertBefore(signature, evil.firstChild?.nextSibling ?? null);
      evil.insertBefore(unsignedCopy(root), signature);
      doc.replaceChild(evil, root);
      return serialize(doc);
    },
  },
  // An unsigned evil assertion placed first, the signed one after it.
  XSW3: {
    signed: 'assertion',
    wrap(b64) {
      const { doc, root, assertion } = parts(b64);
      root.insertBefore(evilCopy(assertion, '_evil-assertion'), assertion);
      return serialize(doc);
    },
  },
  // The signed assertion moved inside an unsigned evil one.
  XSW4: {
    signed: 'assertion',
    wrap(b64) {
      const { doc, root, assertion } = parts(b64);
      const evil = evilCopy(assertion, '_evil-assertion');
      root.replaceChild(evil, assertion);
      evil.appendChild(assertion);
      return serialize(doc);
    },
  },
  // The evil assertion keeps the signature and the ID; an unsigned original copy is appended.
  XSW5: {
    signed: 'assertion',
    wrap(b64) {
      const { doc, root, assertion } = parts(b64);
      const evil = evilCopy(assertion, null);
      evil.insertBefore(
        signatureOf(assertion)?.cloneNode(true) as Node,
        evil.firstChild?.nextSibling ?? null,
      );
      root.replaceChild(evil, assertion);
      root.appendChild(unsignedCopy(assertion));
      return serialize(doc);
    },
  },
  // The evil assertion keeps the signature; the original hides in the signature's Object.
  XSW6: {
    signed: 'assertion',
    wrap(b64) {
      const { doc, root, assertion } = parts(b64);
      const evil = evilCopy(assertion, '_evil-assertion');
      const signature = signatureOf(assertion)?.cloneNode(true) as Element;
      inObject(doc, signature, unsignedCopy(assertion));
      evil.insertBefore(signature, evil.firstChild?.nextSibling ?? null);
      root.replaceChild(evil, assertion);
      return serialize(doc);
    },
  },
  // The signed assertion moved into an Extensions element; the evil one takes its place.
  XSW7: {
    signed: 'assertion',
    wrap(b64) {
      const { doc, root, assertion } = parts(b64);
      const extensions = doc.createElementNS(PROTOCOL_NS, 'samlp:Extensions');
      root.replaceChild(evilCopy(assertion, null), assertion);
      extensions.appendChild(assertion);
      root.insertBefore(extensions, root.firstChild?.nextSibling ?? null);
      return serialize(doc);
    },
  },
  // The evil assertion with the original signature, the unsigned original in its Object.
  XSW8: {
    signed: 'assertion',
    wrap(b64) {
      const { doc, root, assertion } = parts(b64);
      const evil = evilCopy(assertion, null);
      const signature = signatureOf(assertion)?.cloneNode(true) as Element;
      inObject(doc, signature, unsignedCopy(assertion));
      evil.insertBefore(signature, evil.firstChild?.nextSibling ?? null);
      root.replaceChild(evil, assertion);
      return serialize(doc);
    },
  },
};

describe('XML signature wrapping', () => {
  it('accepts genuine responses signed only on the response, or only on the assertion', async () => {
    for (const signed of ['response', 'assertion'] as const) {
      expect((await postToAcs(open.acsUrl, await genuine({ signed }))).status).toBe(302);
    }
  });

  for (const [name, attack] of Object.entries(XSW)) {
    it(`refuses ${name}`, async () => {
      const wrapped = attack.wrap(await genuine({ signed: attack.signed }));
      expect(decode(wrapped)).toContain(INTRUDER);
      expectRefusal(await postToAcs(open.acsUrl, wrapped));
      expect(await memberCount(INTRUDER)).toBe(0);
    });
  }

  it('refuses a lone evil assertion whose signature refers to a renamed copy of the original', async () => {
    const { doc, root, assertion } = parts(await genuine({ signed: 'assertion' }));
    const evil = evilCopy(assertion, '_evil-assertion');
    const signature = signatureOf(assertion)?.cloneNode(true) as Element;
    const copy = unsignedCopy(assertion);
    const wrapper = doc.createElementNS('urn:x', 'x:Wrapper');
    wrapper.setAttribute('ID', assertion.getAttribute('ID') ?? '');
    while (copy.firstChild) wrapper.appendChild(copy.firstChild);
    inObject(doc, signature, wrapper);
    evil.insertBefore(signature, evil.firstChild?.nextSibling ?? null);
    root.replaceChild(evil, assertion);
    const res = await postToAcs(open.acsUrl, serialize(doc));
    expectRefusal(res);
    expect(res.text).toContain('signature of the assertion');
    expect(await memberCount(INTRUDER)).toBe(0);
  });

  it('refuses a second, unsigned assertion beside the signed one in a signed response', async () => {
    const { doc, root, assertion } = parts(await genuine());
    root.appendChild(evilCopy(assertion, '_evil-assertion'));
    expectRefusal(await postToAcs(open.acsUrl, serialize(doc)));
  });

  it('refuses an assertion whose own signature is broken inside a valid signed response', async () => {
    const { doc, assertion } = parts(await genuine());
    const value = signatureOf(assertion)?.getElementsByTagNameNS(DSIG_NS, 'SignatureValue').item(0);
    const text = value?.firstChild as Text | null | undefined;
    if (!text?.data) throw new Error('no signature value');
    text.data = `${text.data.startsWith('A') ? 'B' : 'A'}${text.data.slice(1)}`;
    // The response's own signature covers the assertion's signature value too: both fail.
    expectRefusal(await postToAcs(open.acsUrl, serialize(doc)));
  });
});
