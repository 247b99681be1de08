/**
 * SAML 2.0 sign-in against an identity provider made here with its own signing key (test/samlIdp.ts), driven over
 * HTTP as a browser would: the start call's AuthnRequest answered by a response the provider signs, posted to the
 * assertion consumer. A signed assertion signs in into the team and role its groups are mapped to, with a session of
 * its method, audited; an unsigned one, one signed by another key, one for another audience, an expired one, one
 * dated in the future, a replayed one, an unsolicited one and one from another issuer are refused, each with its own
 * code on the login page, and none signs anybody in. The service provider's metadata names what the provider needs.
 */
import { api, STAFF_AUTH_COOKIE, type SsoGroupView } from '@examhall/contract';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { body, createTestApp, type TestApp } from '../test/app.js';
import { auditEntriesOf } from '../test/auditLog.js';
import { SAML_REQUEST_COOKIE } from './sso.js';
import { freshPhone, sendCall } from '../test/callWorld.js';
import { testedDialects } from '../test/db.js';
import {
  makeSamlIdp,
  signingKey,
  type AuthnRequest,
  type ResponseOptions,
  type SigningKey,
  type TestSamlIdp,
} from '../test/samlIdp.js';

const PUBLIC_URL = 'http://localhost:3000';
const METADATA_URL = `${PUBLIC_URL}/api/admin/auth/saml/metadata`;
const ACS_URL = `${PUBLIC_URL}/api/admin/auth/saml/acs`;

describe.each(await testedDialects())('SAML 2.0 sign-in on %s', (dialect) => {
  let t: TestApp;
  let idp: TestSamlIdp;
  let otherKey: SigningKey;
  let admin: string;
  let teamId: number;
  let mapping: SsoGroupView;

  beforeAll(async () => {
    idp = await makeSamlIdp();
    otherKey = await signingKey('impostor.example');
    t = await createTestApp(dialect, {
      env: {
        SAML_IDP_SSO_URL: idp.ssoUrl,
        SAML_IDP_ISSUER: idp.entityId,
        // As identity providers' consoles show it: the base64 body alone.
        SAML_IDP_CERT: idp.key.cert.replace(/-----(BEGIN|END) CERTIFICATE-----|\s/g, ''),
        SAML_NAME: 'Corp SAML',
        SAML_ACCOUNT_ATTRIBUTE: 'email',
        SAML_ACCOUNT_KIND: 'email',
        SAML_GROUPS_ATTRIBUTE: 'memberOf',
      },
    });
    admin = await t.loginStaff('admin');
    teamId = await t.team('Campus hiring');
    const res = await sendCall(
      t,
      api.ssoGroupCreate,
      { body: { group: 'hr-campus', team_id: teamId, role: 'author' } },
      admin,
    );
    mapping = body<SsoGroupView>(res).data;
  });
  afterAll(async () => {
    await t?.close();
  });

  /** The request cookie the browser of the last start keeps (the browser these tests are). */
  let browserCookie: string | undefined;
  /** The start call: its redirect to the provider, and the AuthnRequest it carries; its cookie kept. */
  const start = async (): Promise<AuthnRequest> => {
    const res = await t.app.inject({ method: 'GET', url: '/api/admin/auth/saml/start?redirect=/admin/exams' });
    expect(res.statusCode, res.body).toBe(302);
    const location = String(res.headers.location);
    expect(location.startsWith(`${idp.ssoUrl}?SAMLRequest=`)).toBe(true);
    browserCookie = res.cookies.find((c) => c.name === SAML_REQUEST_COOKIE)?.value;
    return idp.readRequest(location);
  };
  /** A browser posts the provider's response to the assertion consumer: by default the one that started (null: none). */
  const post = async (samlResponse: string, cookie: string | null | undefined = browserCookie) => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/admin/auth/saml/acs',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        // The form is posted from the provider's page.
        origin: 'https://idp.corp.example',
        'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) Chrome/131.0',
        ...(cookie ? { cookie: `${SAML_REQUEST_COOKIE}=${cookie}` } : {}),
      },
      payload: new URLSearchParams({ SAMLResponse: samlResponse, RelayState: '' }).toString(),
    });
    expect(res.statusCode, res.body).toBe(302);
    const location = String(res.headers.location);
    return {
      location,
      refusal: new URL(location, 'http://x').searchParams.get('sso_error'),
      token: res.cookies.find((c) => c.name === STAFF_AUTH_COOKIE)?.value,
    };
  };
  /** An employee in `groups`: the attributes the provider sends for them. */
  const employee = (groups: string[], email = `${freshPhone('135')}@corp.example`) => ({
    nameId: `persistent-${email}`,
    attributes: { email, displayName: `Employee ${email}`, memberOf: groups },
  });
  /** A fresh sign-in answered by a response made with `opts`; answers where the browser went and any session. */
  const signIn = async (
    opts: Omit<ResponseOptions, 'request' | 'attributes'> & { who?: ReturnType<typeof employee> },
  ) => {
    const request = await start();
    const who = opts.who ?? employee(['hr-campus']);
    return post(idp.response({ ...opts, request, nameId: who.nameId, attributes: who.attributes }));
  };

  it('offers the provider on the login page and shows the admin what to register', async () => {
    expect(body(await sendCall(t, api.ssoOptions, {}, '')).data).toEqual({
      oidc: null,
      saml: { name: 'Corp SAML', start_path: '/api/admin/auth/saml/start' },
      required: false,
    });
    expect(body(await sendCall(t, api.ssoSettings, {}, admin)).data).toMatchObject({
      saml: {
        name: 'Corp SAML',
        issuer: idp.entityId,
        callback_url: ACS_URL,
        metadata_url: METADATA_URL,
        account_claim: 'email',
        account_kind: 'email',
        groups_claim: 'memberOf',
      },
    });
  });

  it("serves the service provider's metadata: entity id, assertion consumer, signed assertions wanted", async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/admin/auth/saml/metadata' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/samlmetadata\+xml/);
    expect(res.body).toContain(`entityID="${METADATA_URL}"`);
    expect(res.body).toMatch(/<SPSSODescriptor[^>]*WantAssertionsSigned="true"/);
    expect(res.body).toContain(
      `<AssertionConsumerService index="1" isDefault="true" Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST" Location="${ACS_URL}"/>`,
    );
  });

  it('starts with an AuthnRequest from this site, answered to its assertion consumer', async () => {
    const request = await start();
    expect(request).toMatchObject({ issuer: METADATA_URL, acsUrl: ACS_URL });
    expect(request.id).toMatch(/^_[0-9a-f]{40}$/);
  });

  it('signs a signed assertion in into the mapped team and role, with a saml session, audited by method', async () => {
    const who = employee(['hr-campus', 'everyone']);
    const { location, token } = await signIn({ who });
    expect(location).toBe('/admin/exams');
    expect(token).toBeTruthy();
    const me = body<{ id: number; phone: string; name: string; role: string; team_id: number }>(
      await sendCall(t, api.staffMe, {}, token!),
    ).data;
    expect(me).toMatchObject({
      phone: who.attributes.email,
      name: who.attributes.displayName,
      role: 'author',
      team_id: teamId,
    });
    const sessions = body<{ list: { method: string; current: boolean }[] }>(
      await sendCall(t, api.staffSessions, {}, token!),
    ).data.list;
    expect(sessions).toMatchObject([{ method: 'saml', current: true }]);
    const [login] = await auditEntriesOf(t, 'staff.login', me.id);
    expect(JSON.parse(login!.after!)).toEqual({ method: 'saml' });
    expect(login!.detail).toBe('saml');
    // The same person again: the same account, found by the subject it signed in as.
    const again = await signIn({ who });
    expect(body<{ id: number }>(await sendCall(t, api.staffMe, {}, again.token!)).data.id).toBe(me.id);
  });

  it('accepts an assertion signed inside a signed response, and refuses a response signed around an unsigned assertion', async () => {
    expect((await signIn({})).token).toBeTruthy();
    expect(await signIn({ sign: 'response' })).toMatchObject({ refusal: 'sso_unsigned', token: undefined });
  });

  it('refuses an unsigned response', async () => {
    expect(await signIn({ sign: 'none' })).toMatchObject({ refusal: 'sso_unsigned', token: undefined });
  });

  it('refuses an assertion signed by another key', async () => {
    expect(await signIn({ key: otherKey })).toMatchObject({ refusal: 'sso_signature_invalid', token: undefined });
  });

  it('refuses an assertion whose signed content was changed', async () => {
    const request = await start();
    const who = employee(['hr-campus']);
    const xml = Buffer.from(
      idp.response({ request, nameId: who.nameId, attributes: who.attributes }),
      'base64',
    ).toString();
    const changed = xml.replace(
      '<saml:AttributeValue>hr-campus</saml:AttributeValue>',
      '<saml:AttributeValue>admins</saml:AttributeValue>',
    );
    expect(changed).not.toBe(xml);
    expect(await post(Buffer.from(changed).toString('base64'))).toMatchObject({
      refusal: 'sso_signature_invalid',
      token: undefined,
    });
  });

  it('refuses an assertion for another audience', async () => {
    expect(await signIn({ audience: 'https://another-app.example/saml' })).toMatchObject({
      refusal: 'sso_audience_mismatch',
      token: undefined,
    });
  });

  it('refuses an expired assertion, and one dated in the future past the allowed skew', async () => {
    const now = Date.now();
    expect(await signIn({ issuedAt: now - 60 * 60_000, notOnOrAfter: now - 30 * 60_000 })).toMatchObject({
      refusal: 'sso_token_expired',
      token: undefined,
    });
    expect(await signIn({ issuedAt: now + 30 * 60_000 })).toMatchObject({
      refusal: 'sso_clock_skew',
      token: undefined,
    });
    // Within the skew allowed: accepted.
    expect((await signIn({ issuedAt: now + 20_000 })).token).toBeTruthy();
  });

  it("keeps the request in a cookie that comes back with the provider's cross-site POST, and only to the consumer", async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/admin/auth/saml/start' });
    const request = await idp.readRequest(String(res.headers.location));
    const cookie = res.cookies.find((c) => c.name === SAML_REQUEST_COOKIE);
    expect(cookie).toMatchObject({
      value: request.id,
      path: '/api/admin/auth/saml/acs',
      sameSite: 'None',
      secure: true,
      httpOnly: true,
    });
    // The consumer clears it, whatever the answer, with the same attributes (a browser keeps it otherwise).
    const posted = await t.app.inject({
      method: 'POST',
      url: '/api/admin/auth/saml/acs',
      headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: `${SAML_REQUEST_COOKIE}=${request.id}` },
      payload: new URLSearchParams({ SAMLResponse: 'bm90IGEgcmVzcG9uc2U=' }).toString(),
    });
    expect(posted.cookies.find((c) => c.name === SAML_REQUEST_COOKIE)).toMatchObject({
      value: '',
      path: '/api/admin/auth/saml/acs',
      sameSite: 'None',
      secure: true,
      maxAge: 0,
    });
  });

  it("refuses another person's response posted by a browser that did not start its sign-in (login CSRF)", async () => {
    // An employee starts a sign-in and has the provider answer it, then has someone else's browser post the answer
    // (from a page of theirs): that browser, with no request or another, would be signed in as the employee.
    const attacker = employee(['hr-campus']);
    const answerTo = (request: AuthnRequest) =>
      idp.response({ request, nameId: attacker.nameId, attributes: attacker.attributes });
    const first = await start();
    const firstCookie = browserCookie;
    expect(await post(answerTo(first), null)).toMatchObject({ refusal: 'sso_state_invalid', token: undefined });
    // A browser that started a sign-in of its own keeps another request: refused too.
    const second = await start();
    await start();
    expect(browserCookie).not.toBe(firstCookie);
    expect(await post(answerTo(second), browserCookie)).toMatchObject({
      refusal: 'sso_state_invalid',
      token: undefined,
    });
    // The request went with the refusal: even its own browser cannot use it now.
    expect((await post(answerTo(first), firstCookie)).token).toBeUndefined();
    // A sign-in the browser started itself goes through.
    expect((await signIn({ who: employee(['hr-campus']) })).token).toBeTruthy();
  });

  it('refuses a replayed response', async () => {
    const request = await start();
    const who = employee(['hr-campus']);
    const response = idp.response({ request, nameId: who.nameId, attributes: who.attributes });
    expect((await post(response)).token).toBeTruthy();
    expect(await post(response)).toMatchObject({ refusal: 'sso_replayed', token: undefined });
  });

  it('refuses an unsolicited response, one answering a request never made here, and one from another issuer', async () => {
    expect(await signIn({ unsolicited: true })).toMatchObject({ refusal: 'sso_state_invalid', token: undefined });
    const who = employee(['hr-campus']);
    const forged = idp.response({
      request: { id: '_a-request-never-made-here', issuer: METADATA_URL, acsUrl: ACS_URL },
      nameId: who.nameId,
      attributes: who.attributes,
    });
    expect(await post(forged)).toMatchObject({ refusal: 'sso_state_invalid', token: undefined });
    expect(await signIn({ issuer: 'https://another-idp.example' })).toMatchObject({
      refusal: 'sso_token_invalid',
      token: undefined,
    });
  });

  it('refuses what is no SAML response at all', async () => {
    for (const junk of ['bm90IHhtbA==', Buffer.from('<html/>').toString('base64'), '%%%']) {
      expect((await post(junk)).refusal).toBe('sso_token_invalid');
    }
  });

  it('answers anything posted with a refusal the login page names, or signs in only whom the provider signed for, once', async () => {
    const request = await start();
    const who = employee(['hr-campus']);
    const genuine = Buffer.from(
      idp.response({ request, nameId: who.nameId, attributes: who.attributes }),
      'base64',
    ).toString();
    // Random text, random bytes, and the genuine response cut or with a piece of it replaced (a change in what its
    // signature does not cover, its KeyInfo, leaves it genuine).
    const posted = fc.oneof(
      fc.string({ maxLength: 300 }),
      fc.uint8Array({ maxLength: 300 }).map((b) => Buffer.from(b).toString('base64')),
      fc
        .tuple(fc.nat({ max: genuine.length }), fc.nat({ max: 40 }), fc.string({ maxLength: 20 }))
        .map(([at, cut, put]) => Buffer.from(genuine.slice(0, at) + put + genuine.slice(at + cut)).toString('base64')),
    );
    let accepted = 0;
    await fc.assert(
      fc.asyncProperty(posted, async (samlResponse) => {
        if (samlResponse.length === 0) return;
        const { refusal, token } = await post(samlResponse);
        if (token === undefined) {
          expect(refusal).toMatch(/^sso_/);
          return;
        }
        accepted += 1;
        expect(accepted).toBe(1);
        expect(body<{ phone: string }>(await sendCall(t, api.staffMe, {}, token)).data.phone).toBe(
          who.attributes.email,
        );
      }),
      { numRuns: 150 },
    );
  });

  it('refuses groups no mapping names, and a removed mapping at the next sign-in', async () => {
    expect(await signIn({ who: employee(['someone-elses-group']) })).toMatchObject({
      refusal: 'sso_no_mapped_team',
      token: undefined,
    });
    const who = employee(['hr-campus']);
    expect((await signIn({ who })).token).toBeTruthy();
    const removed = await sendCall(t, api.ssoGroupDelete, { body: { id: mapping.id } }, admin);
    expect(removed.statusCode).toBe(200);
    expect(await signIn({ who })).toMatchObject({ refusal: 'sso_no_mapped_team', token: undefined });
  });
});

describe('SAML 2.0 not set up', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp('sqlite');
  });
  afterAll(async () => {
    await t?.close();
  });

  it('answers sso_not_configured: the metadata as an error, the sign-in steps on the login page', async () => {
    const metadata = await t.app.inject({ method: 'GET', url: '/api/admin/auth/saml/metadata' });
    expect(metadata.statusCode).toBe(404);
    expect(body(metadata).code).toBe('sso_not_configured');
    const started = await t.app.inject({ method: 'GET', url: '/api/admin/auth/saml/start' });
    expect(started.headers.location).toBe('/admin/login?sso_error=sso_not_configured');
  });
});
