/**
 * A SAML 2.0 identity provider made in the test, for the single sign-on tests: its own RSA key and self-signed
 * certificate (selfsigned), and responses to the service provider's AuthnRequests signed as an identity provider
 * signs them (xml-crypto: an enveloped, exclusive-canonicalized RSA-SHA256 signature of the assertion, or of the
 * whole response), with what a test changes to make a response another provider, or another moment, would send.
 */
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { inflateRawSync } from 'node:zlib';
import { generate } from 'selfsigned';
import { SignedXml } from 'xml-crypto';

/** A signing key and its certificate (PEM). */
export interface SigningKey {
  privateKey: string;
  cert: string;
}

/** What the service provider asked for in its AuthnRequest. */
export interface AuthnRequest {
  id: string;
  /** The service provider's entity id (the Issuer of the request). */
  issuer: string;
  /** Where the response goes (AssertionConsumerServiceURL). */
  acsUrl: string;
}

/** A response's content and how it is signed; everything but `request` and `attributes` has a fitting default. */
export interface ResponseOptions {
  request: AuthnRequest;
  /** Attribute name to its values. */
  attributes: Record<string, string | string[]>;
  /** The NameID (a persistent subject unless `nameIdFormat` says otherwise). */
  nameId?: string;
  nameIdFormat?: string;
  /** The audience the assertion names; the request's issuer by default. */
  audience?: string;
  /** The assertion's issuer; the provider's entity id by default. */
  issuer?: string;
  /** When it was issued, ms; now by default. Its validity runs from then to `notOnOrAfter`. */
  issuedAt?: number;
  /** When it stops being valid, ms; five minutes after `issuedAt` by default. */
  notOnOrAfter?: number;
  /** What carries the signature: the assertion (as most providers sign), the response only, or nothing. */
  sign?: 'assertion' | 'response' | 'none';
  /** The key that signs; the provider's own by default. */
  key?: SigningKey;
  /** Leaves InResponseTo out (an unsolicited response, started at the provider). */
  unsolicited?: boolean;
}

/** A test identity provider. */
export interface TestSamlIdp {
  /** Its entity id. */
  entityId: string;
  /**
   * Its single sign-on address: its own page when it has pages (see `makeSamlIdp`), else an address no server answers
   * (the test reads the request from the redirect).
   */
  ssoUrl: string;
  /** Its own key and certificate. */
  key: SigningKey;
  /** Reads the AuthnRequest a start redirect carries (HTTP-Redirect binding: deflated, base64, in SAMLRequest). */
  readRequest(location: string): AuthnRequest;
  /** A response to a request, base64 as the browser posts it. */
  response(opts: ResponseOptions): string;
  /** Stops its pages' server, if any. */
  close(): Promise<void>;
}

/** A fresh RSA key and a self-signed certificate for it. */
export async function signingKey(commonName: string): Promise<SigningKey> {
  const pems = await generate([{ name: 'commonName', value: commonName }], { keySize: 2048, algorithm: 'sha256' });
  return { privateKey: pems.private, cert: pems.cert };
}

const escape = (v: string) =>
  v.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
const iso = (ms: number) => new Date(ms).toISOString();
const newId = () => `_${randomBytes(16).toString('hex')}`;

/** Signs the element `localName` of `xml` (enveloped), its signature placed after that element's Issuer. */
function signed(xml: string, localName: 'Assertion' | 'Response', key: SigningKey): string {
  const sig = new SignedXml({
    privateKey: key.privateKey,
    publicCert: key.cert,
    signatureAlgorithm: 'http://www.w3.org/2001/04/xmldsig-more#rsa-sha256',
    canonicalizationAlgorithm: 'http://www.w3.org/2001/10/xml-exc-c14n#',
  });
  sig.addReference({
    xpath: `//*[local-name(.)='${localName}']`,
    transforms: ['http://www.w3.org/2000/09/xmldsig#enveloped-signature', 'http://www.w3.org/2001/10/xml-exc-c14n#'],
    digestAlgorithm: 'http://www.w3.org/2001/04/xmlenc#sha256',
  });
  sig.computeSignature(xml, {
    prefix: 'ds',
    location: { reference: `//*[local-name(.)='${localName}']/*[local-name(.)='Issuer']`, action: 'after' },
  });
  return sig.getSignedXml();
}

/**
 * Makes an identity provider with its own key. With `pages`, it serves its sign-in page on this machine, at
 * `http://localhost:<port>/sso` (another site than a server on 127.0.0.1, as a company's provider is): the page reads
 * the AuthnRequest, and its "Sign in" button posts the response `pages` makes for it to the request's assertion
 * consumer (HTTP-POST binding), as a provider's page does once the person has signed in.
 */
export async function makeSamlIdp(
  opts: { pages?: (request: AuthnRequest) => Omit<ResponseOptions, 'request'> } = {},
): Promise<TestSamlIdp> {
  const entityId = 'https://idp.corp.example/saml';
  const key = await signingKey('idp.corp.example');
  let ssoUrl = 'https://idp.corp.example/saml/sso';
  let server: http.Server | undefined;
  if (opts.pages) {
    const pages = opts.pages;
    server = http.createServer((req, res) => {
      const url = new URL(req.url ?? '/', ssoUrl);
      if (url.pathname !== '/sso') {
        res.writeHead(404).end();
        return;
      }
      const request = idp.readRequest(url.href);
      const response = idp.response({ ...pages(request), request });
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(
        `<!doctype html><html lang="en"><head><title>Corp identity provider</title></head><body><main>` +
          `<h1>Corp identity provider</h1><form method="post" action="${escape(request.acsUrl)}">` +
          `<input type="hidden" name="SAMLResponse" value="${escape(response)}">` +
          `<input type="hidden" name="RelayState" value="${escape(url.searchParams.get('RelayState') ?? '')}">` +
          `<button type="submit">Sign in</button></form></main></body></html>`,
      );
    });
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
    ssoUrl = `http://localhost:${(server.address() as AddressInfo).port}/sso`;
  }
  const idp: TestSamlIdp = {
    entityId,
    ssoUrl,
    key,
    close: () => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())),
    readRequest(location) {
      const url = new URL(location);
      const xml = inflateRawSync(Buffer.from(url.searchParams.get('SAMLRequest') ?? '', 'base64')).toString();
      const attr = (name: string) => new RegExp(`\\b${name}="([^"]+)"`).exec(xml)?.[1] ?? '';
      return {
        id: attr('ID'),
        acsUrl: attr('AssertionConsumerServiceURL'),
        issuer: /<saml:Issuer[^>]*>([^<]+)<\/saml:Issuer>/.exec(xml)?.[1] ?? '',
      };
    },
    response(opts) {
      const issuedAt = opts.issuedAt ?? Date.now();
      const notOnOrAfter = opts.notOnOrAfter ?? issuedAt + 5 * 60_000;
      const issuer = escape(opts.issuer ?? entityId);
      const inResponseTo = opts.unsolicited ? '' : ` InResponseTo="${escape(opts.request.id)}"`;
      const attributes = Object.entries(opts.attributes)
        .map(
          ([name, values]) =>
            `<saml:Attribute Name="${escape(name)}" NameFormat="urn:oasis:names:tc:SAML:2.0:attrname-format:basic">${[
              values,
            ]
              .flat()
              .map((v) => `<saml:AttributeValue>${escape(v)}</saml:AttributeValue>`)
              .join('')}</saml:Attribute>`,
        )
        .join('');
      let assertion =
        `<saml:Assertion xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" ID="${newId()}" Version="2.0" IssueInstant="${iso(issuedAt)}">` +
        `<saml:Issuer>${issuer}</saml:Issuer>` +
        `<saml:Subject><saml:NameID Format="${escape(opts.nameIdFormat ?? 'urn:oasis:names:tc:SAML:2.0:nameid-format:persistent')}">${escape(opts.nameId ?? 'someone')}</saml:NameID>` +
        `<saml:SubjectConfirmation Method="urn:oasis:names:tc:SAML:2.0:cm:bearer">` +
        `<saml:SubjectConfirmationData${inResponseTo} NotOnOrAfter="${iso(notOnOrAfter)}" Recipient="${escape(opts.request.acsUrl)}"/>` +
        `</saml:SubjectConfirmation></saml:Subject>` +
        `<saml:Conditions NotBefore="${iso(issuedAt - 30_000)}" NotOnOrAfter="${iso(notOnOrAfter)}">` +
        `<saml:AudienceRestriction><saml:Audience>${escape(opts.audience ?? opts.request.issuer)}</saml:Audience></saml:AudienceRestriction>` +
        `</saml:Conditions>` +
        `<saml:AuthnStatement AuthnInstant="${iso(issuedAt)}" SessionIndex="${newId()}"><saml:AuthnContext>` +
        `<saml:AuthnContextClassRef>urn:oasis:names:tc:SAML:2.0:ac:classes:PasswordProtectedTransport</saml:AuthnContextClassRef>` +
        `</saml:AuthnContext></saml:AuthnStatement>` +
        `<saml:AttributeStatement>${attributes}</saml:AttributeStatement>` +
        `</saml:Assertion>`;
      const sign = opts.sign ?? 'assertion';
      const by = opts.key ?? key;
      if (sign === 'assertion') assertion = signed(assertion, 'Assertion', by);
      let response =
        `<samlp:Response xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol" xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" ID="${newId()}" Version="2.0" IssueInstant="${iso(issuedAt)}" Destination="${escape(opts.request.acsUrl)}"${inResponseTo}>` +
        `<saml:Issuer>${issuer}</saml:Issuer>` +
        `<samlp:Status><samlp:StatusCode Value="urn:oasis:names:tc:SAML:2.0:status:Success"/></samlp:Status>` +
        assertion +
        `</samlp:Response>`;
      if (sign === 'response') response = signed(response, 'Response', by);
      return Buffer.from(response).toString('base64');
    },
  };
  return idp;
}
