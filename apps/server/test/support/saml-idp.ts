import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { inflateRawSync } from 'node:zlib';
import { DOMParser } from '@xmldom/xmldom';
import { SignedXml } from 'xml-crypto';

/**
 * A real SAML 2.0 identity provider on loopback for the single sign-on tests (docs/sso.md): it answers
 * each AuthnRequest (HTTP-Redirect binding) at once, with no sign-in form, with an auto-posting page that
 * carries a Response for `subject` to the service provider's assertion consumer service (HTTP-POST
 * binding). The Response itself is not signed; its one Assertion is (RSA-SHA256, exclusive c14n, the
 * signature right after the assertion's Issuer), with a fresh self-signed key made at start. `tamper`
 * spoils the next response only — what a hostile or broken provider, a replayed answer, or an answer
 * meant for another service provider looks like to the service provider.
 */
export interface SamlIdentityProvider {
  /** e.g. http://127.0.0.1:PORT/sso — the IdP's SSO URL (HTTP-Redirect binding, GET with SAMLRequest). */
  entryPoint: string;
  /** The IdP's entity ID (the Issuer of its responses), e.g. http://127.0.0.1:PORT/metadata */
  entityId: string;
  /** The IdP's signing certificate, PEM ("-----BEGIN CERTIFICATE-----..."), what the SP trusts. */
  certificate: string;
  /** The IdP's logout page (a plain page answering 200 "signed out"). */
  logoutUrl: string;
  /** The subject (NameID) the next sign-in asserts; default 'sam.saml'. */
  subject: string;
  /**
   * One-shot tampering of the next response (reset after use): 'unsigned' no signature; 'badSignature'
   * the NameID changed after signing; 'wrongAudience' the Audience is another service provider;
   * 'expired' the conditions and the subject confirmation ended 10 minutes ago; 'wrongInResponseTo'
   * answers a request never made; 'otherIssuer' the Issuer (response and assertion) is another IdP;
   * 'otherCertificate' signed (and KeyInfo filled) with a key the SP does not trust; 'otherRecipient' the
   * assertion (and the response's Destination) is for another service's consumer URL.
   */
  tamper?:
    | 'unsigned'
    | 'badSignature'
    | 'wrongAudience'
    | 'expired'
    | 'wrongInResponseTo'
    | 'otherIssuer'
    | 'otherCertificate'
    | 'otherRecipient';
  close(): Promise<void>;
}

const PROTOCOL = 'urn:oasis:names:tc:SAML:2.0:protocol';
const ASSERTION = 'urn:oasis:names:tc:SAML:2.0:assertion';
const EXC_C14N = 'http://www.w3.org/2001/10/xml-exc-c14n#';

const run = promisify(execFile);

interface KeyPair {
  privateKey: string;
  certificate: string;
}

/** A fresh RSA-2048 key and a self-signed certificate for it, valid one day. */
async function makeKeyPair(dir: string, name: string): Promise<KeyPair> {
  const keyFile = path.join(dir, `${name}.key`);
  const certFile = path.join(dir, `${name}.crt`);
  await run('openssl', [
    'req',
    '-x509',
    '-newkey',
    'rsa:2048',
    '-nodes',
    '-keyout',
    keyFile,
    '-out',
    certFile,
    '-days',
    '1',
    '-subj',
    '/CN=cardportal-test-idp',
  ]);
  return { privateKey: await readFile(keyFile, 'utf8'), certificate: await readFile(certFile, 'utf8') };
}

const escapes: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};
/** Escapes text for an XML or HTML attribute value or element content. */
const escapeMarkup = (text: string) => text.replace(/[&<>"']/g, (c) => escapes[c] ?? c);
const unescapes: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'" };
const unescapeMarkup = (text: string) =>
  text.replace(/&(amp|lt|gt|quot|#39);/g, (all, name: string) => unescapes[name] ?? all);

const newId = () => `_${randomBytes(16).toString('hex')}`;
/** xs:dateTime, `minutes` from now. */
const instant = (now: number, minutes = 0) => new Date(now + minutes * 60_000).toISOString();

interface AuthnRequest {
  id: string;
  assertionConsumerServiceUrl: string;
  spEntityId: string;
}

/** The AuthnRequest of an HTTP-Redirect binding (base64 of deflated XML), or undefined when it does not parse. */
function readAuthnRequest(encoded: string): AuthnRequest | undefined {
  try {
    const xml = inflateRawSync(Buffer.from(encoded, 'base64')).toString('utf8');
    const fail = (message: unknown) => {
      throw new Error(String(message));
    };
    const doc = new DOMParser({ errorHandler: { error: fail, fatalError: fail } }).parseFromString(
      xml,
      'text/xml',
    );
    const root = doc.documentElement;
    if (!root || root.localName !== 'AuthnRequest' || root.namespaceURI !== PROTOCOL) return undefined;
    // The request's own Issuer (a child of the root), the SP's entity ID.
    const issuer = Array.from(root.getElementsByTagNameNS(ASSERTION, 'Issuer')).find(
      (e) => e.parentNode === root,
    );
    const spEntityId = issuer?.textContent?.trim();
    const id = root.getAttribute('ID');
    const acs = root.getAttribute('AssertionConsumerServiceURL');
    if (!id || !acs || !spEntityId || !/^https?:$/.test(new URL(acs).protocol)) return undefined;
    return { id, assertionConsumerServiceUrl: acs, spEntityId };
  } catch {
    return undefined;
  }
}

export async function startSamlIdentityProvider(): Promise<SamlIdentityProvider> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'cardportal-saml-idp-'));
  let own: KeyPair;
  let other: KeyPair;
  try {
    [own, other] = await Promise.all([makeKeyPair(dir, 'idp'), makeKeyPair(dir, 'other')]);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }

  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const state: SamlIdentityProvider = {
    entryPoint: `${base}/sso`,
    entityId: `${base}/metadata`,
    certificate: own.certificate,
    logoutUrl: `${base}/logout`,
    subject: 'sam.saml',
    tamper: undefined,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };

  /** The Response to `request`, its Assertion signed (unless tampered otherwise). */
  const respond = (request: AuthnRequest, tamper: SamlIdentityProvider['tamper']): string => {
    const now = Date.now();
    const acs = escapeMarkup(
      tamper === 'otherRecipient' ? 'https://elsewhere.example/acs' : request.assertionConsumerServiceUrl,
    );
    const issuer = escapeMarkup(tamper === 'otherIssuer' ? 'https://other-idp.example' : state.entityId);
    const inResponseTo = escapeMarkup(tamper === 'wrongInResponseTo' ? '_not-a-request' : request.id);
    const audience = escapeMarkup(
      tamper === 'wrongAudience' ? 'https://someone-else.example' : request.spEntityId,
    );
    const notBefore = instant(now, tamper === 'expired' ? -20 : -1);
    const notOnOrAfter = instant(now, tamper === 'expired' ? -10 : 5);
    const assertionId = newId();
    const nameId = (subject: string) =>
      `<saml:NameID Format="urn:oasis:names:tc:SAML:1.1:nameid-format:unspecified">${escapeMarkup(subject)}</saml:NameID>`;
    const xml = [
      `<samlp:Response xmlns:samlp="${PROTOCOL}" xmlns:saml="${ASSERTION}" ID="${newId()}" Version="2.0"`,
      ` IssueInstant="${instant(now)}" Destination="${acs}" InResponseTo="${inResponseTo}">`,
      `<saml:Issuer>${issuer}</saml:Issuer>`,
      '<samlp:Status><samlp:StatusCode Value="urn:oasis:names:tc:SAML:2.0:status:Success"/></samlp:Status>',
      `<saml:Assertion ID="${assertionId}" Version="2.0" IssueInstant="${instant(now)}">`,
      `<saml:Issuer>${issuer}</saml:Issuer>`,
      '<saml:Subject>',
      nameId(state.subject),
      '<saml:SubjectConfirmation Method="urn:oasis:names:tc:SAML:2.0:cm:bearer">',
      `<saml:SubjectConfirmationData InResponseTo="${inResponseTo}" NotOnOrAfter="${notOnOrAfter}" Recipient="${acs}"/>`,
      '</saml:SubjectConfirmation>',
      '</saml:Subject>',
      `<saml:Conditions NotBefore="${notBefore}" NotOnOrAfter="${notOnOrAfter}">`,
      `<saml:AudienceRestriction><saml:Audience>${audience}</saml:Audience></saml:AudienceRestriction>`,
      '</saml:Conditions>',
      `<saml:AuthnStatement AuthnInstant="${instant(now)}" SessionIndex="${newId()}">`,
      '<saml:AuthnContext>',
      '<saml:AuthnContextClassRef>urn:oasis:names:tc:SAML:2.0:ac:classes:PasswordProtectedTransport</saml:AuthnContextClassRef>',
      '</saml:AuthnContext>',
      '</saml:AuthnStatement>',
      '</saml:Assertion>',
      '</samlp:Response>',
    ].join('');
    if (tamper === 'unsigned') return xml;

    const keys = tamper === 'otherCertificate' ? other : own;
    const sig = new SignedXml({
      privateKey: keys.privateKey,
      publicCert: keys.certificate,
      canonicalizationAlgorithm: EXC_C14N,
      signatureAlgorithm: 'http://www.w3.org/2001/04/xmldsig-more#rsa-sha256',
    });
    sig.addReference({
      xpath: `//*[local-name(.)='Assertion' and @ID='${assertionId}']`,
      transforms: ['http://www.w3.org/2000/09/xmldsig#enveloped-signature', EXC_C14N],
      digestAlgorithm: 'http://www.w3.org/2001/04/xmlenc#sha256',
    });
    // SAML wants the assertion's signature right after its Issuer.
    sig.computeSignature(xml, {
      location: { reference: "//*[local-name(.)='Assertion']/*[local-name(.)='Issuer']", action: 'after' },
    });
    const signed = sig.getSignedXml();
    if (tamper !== 'badSignature') return signed;
    const forged = signed.replace(nameId(state.subject), nameId(`${state.subject}.forged`));
    if (forged === signed) throw new Error('the signed response has no NameID to change');
    return forged;
  };

  /** The page a browser gets: a form posting the response to the ACS, sent at once by script. */
  const postingPage = (action: string, fields: Record<string, string>) =>
    [
      '<!doctype html>',
      '<html><head><meta charset="utf-8"><title>Signing in</title></head><body>',
      `<form method="post" action="${escapeMarkup(action)}">`,
      ...Object.entries(fields).map(
        ([name, value]) =>
          `<input type="hidden" name="${escapeMarkup(name)}" value="${escapeMarkup(value)}">`,
      ),
      '<noscript><button type="submit">Continue</button></noscript>',
      '</form>',
      '<script>document.forms[0].submit()</script>',
      '</body></html>',
    ].join('\n');

  const metadata = () => {
    const der = own.certificate.replace(/-----[^-]+-----|\s/g, '');
    return [
      `<md:EntityDescriptor xmlns:md="urn:oasis:names:tc:SAML:2.0:metadata" entityID="${escapeMarkup(state.entityId)}">`,
      `<md:IDPSSODescriptor WantAuthnRequestsSigned="false" protocolSupportEnumeration="${PROTOCOL}">`,
      '<md:KeyDescriptor use="signing"><ds:KeyInfo xmlns:ds="http://www.w3.org/2000/09/xmldsig#">',
      `<ds:X509Data><ds:X509Certificate>${der}</ds:X509Certificate></ds:X509Data>`,
      '</ds:KeyInfo></md:KeyDescriptor>',
      '<md:NameIDFormat>urn:oasis:names:tc:SAML:1.1:nameid-format:unspecified</md:NameIDFormat>',
      '<md:SingleSignOnService Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect"',
      ` Location="${escapeMarkup(state.entryPoint)}"/>`,
      '</md:IDPSSODescriptor>',
      '</md:EntityDescriptor>',
    ].join('');
  };

  server.on('request', (req, res) => {
    const answer = (status: number, type: string, body: string) => {
      res.writeHead(status, { 'content-type': `${type}; charset=utf-8`, 'cache-control': 'no-store' });
      res.end(body);
    };
    try {
      const url = new URL(req.url ?? '/', base);
      if (req.method !== 'GET') return answer(405, 'text/plain', 'method not allowed');
      if (url.pathname === '/logout') return answer(200, 'text/plain', 'signed out');
      if (url.pathname === '/metadata') return answer(200, 'application/samlmetadata+xml', metadata());
      if (url.pathname !== '/sso') return answer(404, 'text/plain', 'not found');
      const encoded = url.searchParams.get('SAMLRequest');
      const request = encoded ? readAuthnRequest(encoded) : undefined;
      if (!request) return answer(400, 'text/plain', 'not a SAML AuthnRequest');
      const { tamper } = state;
      state.tamper = undefined;
      const relayState = url.searchParams.get('RelayState');
      const fields: Record<string, string> = {
        SAMLResponse: Buffer.from(respond(request, tamper), 'utf8').toString('base64'),
        ...(relayState !== null ? { RelayState: relayState } : {}),
      };
      return answer(200, 'text/html', postingPage(request.assertionConsumerServiceUrl, fields));
    } catch (error) {
      return answer(500, 'text/plain', `identity provider failure: ${String(error)}`);
    }
  });
  return state;
}

/**
 * What a browser does with the IdP: GETs the SP's redirect URL (the entryPoint with SAMLRequest and
 * RelayState), and reads the auto-posting HTML form the IdP answers: its action (the SP's ACS URL) and
 * the fields to POST (SAMLResponse, RelayState). No cookies needed.
 */
export async function samlResponseFor(
  redirectUrl: string,
): Promise<{ action: string; fields: Record<string, string> }> {
  const res = await fetch(redirectUrl, { redirect: 'manual' });
  const html = await res.text();
  const action = /<form[^>]*\saction="([^"]*)"/.exec(html)?.[1];
  if (res.status !== 200 || action === undefined)
    throw new Error(`the identity provider answered ${res.status} without a form: ${html.slice(0, 200)}`);
  const fields: Record<string, string> = {};
  for (const [, name = '', value = ''] of html.matchAll(
    /<input type="hidden" name="([^"]*)" value="([^"]*)">/g,
  ))
    fields[unescapeMarkup(name)] = unescapeMarkup(value);
  return { action: unescapeMarkup(action), fields };
}
