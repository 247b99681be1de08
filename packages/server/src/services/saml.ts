/**
 * SAML 2.0 sign-in for staff (@node-saml/node-saml), service provider initiated: the start call sends the browser to
 * the identity provider with an AuthnRequest whose id is kept server-side for SSO_REQUEST_MS, and the assertion
 * consumer takes the provider's POSTed response once. A response is accepted only when its assertion is signed by the
 * configured certificate (wantAssertionsSigned; a signed response around an unsigned assertion is not enough),
 * answers a request started here (InResponseTo, in the response and the subject's confirmation; an unsolicited
 * response is refused) by the browser that posts it (the request's id, kept in that browser's cookie at the start:
 * someone else's response, posted from a page of theirs, would sign this browser in as them), names this site as its
 * audience, comes from the configured issuer and is within its times (SAML_CLOCK_SKEW_MS allowed); its assertion id
 * is remembered until it expires (`sso_assertions`), so the same assertion is never accepted twice. The verified
 * attributes go to the sign-in rule (ssoSignIn.ts). Every refusal has its own error code.
 */
import { randomBytes } from 'node:crypto';
import { api } from '@examhall/contract';
import { SAML, SamlStatusError, ValidateInResponseTo, type CacheProvider, type Profile } from '@node-saml/node-saml';
import type { Config, SamlConfig } from '../config.js';
import type { Db } from '../db/database.js';
import { AppError, fail } from '../errors.js';
import { SsoRepository, type SsoRequestRow } from '../repositories/sso.js';
import { consolePath, keyHash, SSO_REQUEST_MS } from './oidc.js';
import { apiUrl, samlEntityId } from './ssoAdmin.js';
import type { SignInOrigin, SsoSignInService } from './ssoSignIn.js';

/** How far an assertion's times may be off this server's clock, ms. */
export const SAML_CLOCK_SKEW_MS = 60_000;

/** A NameID that changes at every sign-in: it names nobody for good, so the account attribute links the identity. */
const TRANSIENT = 'urn:oasis:names:tc:SAML:2.0:nameid-format:transient';

/** What SAML sign-in needs. */
export interface SamlDeps {
  config: Pick<Config, 'saml' | 'publicUrl' | 'apiPrefix'>;
  signIn: Pick<SsoSignInService, 'signIn'>;
  clock: () => number;
}

/** The parts of a response read to say why it was refused (never to accept one: only node-saml's verified XML is). */
interface ResponseOutline {
  /** Whether it is a SAML response at all. */
  isResponse: boolean;
  assertionId: string | undefined;
  assertionSigned: boolean;
  /** Every NotBefore and NotOnOrAfter of the assertion, ms. */
  notBefore: number[];
  notOnOrAfter: number[];
}

function outline(xml: string): ResponseOutline {
  const assertion = /<(?:[\w-]+:)?Assertion\b[\s\S]*?<\/(?:[\w-]+:)?Assertion>/.exec(xml)?.[0] ?? '';
  const times = (name: string) =>
    [...assertion.matchAll(new RegExp(`\\b${name}="([^"]+)"`, 'g'))]
      .map((m) => Date.parse(m[1]!))
      .filter((v) => Number.isFinite(v));
  return {
    isResponse:
      /^(?:<\?xml[^>]*\?>)?\s*<(?:[\w-]+:)?Response\b[^>]*\bxmlns(?::[\w-]+)?="urn:oasis:names:tc:SAML:2\.0:protocol"/.test(
        xml.trimStart(),
      ),
    assertionId: /^<(?:[\w-]+:)?Assertion\b[^>]*\bID="([^"]+)"/.exec(assertion)?.[1],
    assertionSigned: /<(?:[\w-]+:)?Signature[\s>]/.test(assertion),
    notBefore: times('NotBefore'),
    notOnOrAfter: times('NotOnOrAfter'),
  };
}

/** The first value of an attribute, as a string. */
function firstText(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (Array.isArray(value)) return firstText(value[0]);
  return undefined;
}

/** The verified assertion's times and id, as node-saml parsed them. */
function assertionFacts(profile: Profile): { id: string | undefined; notOnOrAfter: number[] } {
  const parsed = (profile.getAssertion?.() ?? {}) as {
    Assertion?: {
      $?: { ID?: string };
      Conditions?: { $?: { NotOnOrAfter?: string } }[];
      Subject?: { SubjectConfirmation?: { SubjectConfirmationData?: { $?: { NotOnOrAfter?: string } }[] }[] }[];
    };
  };
  const a = parsed.Assertion;
  const stamps = [
    ...(a?.Conditions ?? []).map((c) => c.$?.NotOnOrAfter),
    ...(a?.Subject ?? []).flatMap((s) =>
      (s.SubjectConfirmation ?? []).flatMap((c) => (c.SubjectConfirmationData ?? []).map((d) => d.$?.NotOnOrAfter)),
    ),
  ];
  return {
    id: a?.$?.ID,
    notOnOrAfter: stamps.map((v) => (v === undefined ? NaN : Date.parse(v))).filter((v) => Number.isFinite(v)),
  };
}

/** SAML 2.0 sign-in. */
export class SamlService {
  private readonly repo: SsoRepository;

  constructor(
    db: Db,
    private readonly deps: SamlDeps,
  ) {
    this.repo = new SsoRepository(db);
  }

  /** The configuration, or `sso_not_configured`. */
  private settings(): SamlConfig {
    const settings = this.deps.config.saml;
    if (!settings) throw fail('sso_not_configured');
    return settings;
  }

  /** This site's assertion consumer address, registered at the identity provider. */
  acsUrl(): string {
    return apiUrl(this.deps.config, api.samlAcs.path);
  }

  /**
   * A node-saml client for one step: `cache` is where it looks up the request ids started here, `requestId` the id
   * of the request it makes.
   */
  private client(settings: SamlConfig, cache: CacheProvider, requestId?: string): SAML {
    const entityId = samlEntityId(this.deps.config);
    return new SAML({
      entryPoint: settings.entryPoint,
      issuer: entityId,
      audience: entityId,
      callbackUrl: this.acsUrl(),
      idpCert: settings.idpCert,
      idpIssuer: settings.idpIssuer,
      // The assertion itself must carry the provider's signature; a signature of the response alone is not enough.
      wantAssertionsSigned: true,
      wantAuthnResponseSigned: false,
      acceptedClockSkewMs: SAML_CLOCK_SKEW_MS,
      validateInResponseTo: ValidateInResponseTo.always,
      requestIdExpirationPeriodMs: SSO_REQUEST_MS,
      cacheProvider: cache,
      // The provider chooses the NameID and how the person authenticates (a password, a second factor, a smart card).
      identifierFormat: 'urn:oasis:names:tc:SAML:1.1:nameid-format:unspecified',
      disableRequestedAuthnContext: true,
      signatureAlgorithm: 'sha256',
      ...(requestId ? { generateUniqueId: () => requestId } : {}),
    });
  }

  /** This site's service provider metadata (XML): its entity id, its assertion consumer, signed assertions wanted. */
  metadata(): string {
    const settings = this.settings();
    return this.client(settings, this.requests(this.deps.clock())).generateServiceProviderMetadata(null, null);
  }

  /**
   * Request ids as node-saml looks them up, in `sso_requests` (under their hash): a lookup finds a live one without
   * taking it; a removal (node-saml removes the id once the response is settled, accepted or refused) takes it, and
   * `taken` keeps it for the caller. Starts are saved by `start` itself, with where the console goes.
   */
  private requests(now: number, taken?: (row: SsoRequestRow) => void): CacheProvider {
    return {
      saveAsync: (_key, value) => Promise.resolve({ value, createdAt: now }),
      getAsync: async (key) => {
        const row = await this.repo.findRequest(keyHash(key), 'saml', now);
        // The request's lifetime is this row's expiry, checked here; node-saml's own check of it gets the moment of
        // the lookup, so its clock and this server's never disagree about it.
        return row ? new Date().toISOString() : null;
      },
      removeAsync: async (key) => {
        if (!key) return null;
        const row = await this.repo.takeRequest(keyHash(key), 'saml', now);
        if (row) taken?.(row);
        return row ? key : null;
      },
    };
  }

  /**
   * Starts a sign-in: an AuthnRequest whose id is kept (hashed) with where the console goes for SSO_REQUEST_MS;
   * answers the identity provider's address carrying it (HTTP-Redirect binding) and the id, for the browser to keep.
   */
  async start(redirect: string | undefined): Promise<{ location: string; requestId: string }> {
    const settings = this.settings();
    const requestId = `_${randomBytes(20).toString('hex')}`;
    const now = this.deps.clock();
    await this.repo.saveRequest(
      {
        key_hash: keyHash(requestId),
        method: 'saml',
        nonce: null,
        code_verifier: null,
        redirect: consolePath(redirect),
        expires_at: now + SSO_REQUEST_MS,
      },
      now,
    );
    try {
      const location = await this.client(settings, this.requests(now), requestId).getAuthorizeUrlAsync(
        '',
        undefined,
        {},
      );
      return { location, requestId };
    } catch (err) {
      throw fail('sso_provider_error', `the authentication request could not be made: ${(err as Error).message}`);
    }
  }

  /**
   * The provider's response (base64, as POSTed): verified (see the module's rules), its request taken once and
   * matched against `browserRequest` (the id the posting browser kept at the start), its assertion id remembered,
   * then the verified attributes signed in. Answers the session and where the console goes.
   */
  async acs(
    samlResponse: string,
    browserRequest: string | undefined,
    origin: SignInOrigin,
  ): Promise<{ token: string; expiresAt: number; redirect: string }> {
    const settings = this.settings();
    const now = this.deps.clock();
    let started: SsoRequestRow | undefined;
    let profile: Profile | null;
    try {
      ({ profile } = await this.client(
        settings,
        this.requests(now, (row) => (started = row)),
      ).validatePostResponseAsync({ SAMLResponse: samlResponse }));
    } catch (err) {
      throw await this.failure(err, samlResponse, now);
    }
    if (!profile) throw fail('sso_token_invalid', 'the response carries no assertion');
    // Settled without node-saml removing the request (a confirmation without InResponseTo): taken here, once.
    const inResponseTo = typeof profile.inResponseTo === 'string' ? profile.inResponseTo : undefined;
    if (!started && inResponseTo) started = await this.repo.takeRequest(keyHash(inResponseTo), 'saml', now);
    if (!started) throw fail('sso_state_invalid');
    if (!browserRequest || keyHash(browserRequest) !== started.key_hash) {
      throw fail('sso_state_invalid', 'the response answers a sign-in this browser did not start');
    }
    if (profile.issuer !== settings.idpIssuer) {
      throw fail('sso_token_invalid', `the assertion's issuer is ${profile.issuer}, not ${settings.idpIssuer}`);
    }
    const facts = assertionFacts(profile);
    if (!facts.id) throw fail('sso_token_invalid', 'the assertion has no ID');
    if (facts.notOnOrAfter.length === 0) throw fail('sso_token_invalid', 'the assertion says no NotOnOrAfter');
    // Remembered as long as it could be accepted: till its last NotOnOrAfter, with the skew allowed.
    const until = Math.max(...facts.notOnOrAfter) + SAML_CLOCK_SKEW_MS;
    if (!(await this.repo.useAssertion(facts.id, Math.max(until, now + SAML_CLOCK_SKEW_MS), now))) {
      throw fail('sso_replayed');
    }
    const attributes = (profile.attributes ?? {}) as Record<string, unknown>;
    const subject =
      profile.nameIDFormat === TRANSIENT || !profile.nameID
        ? firstText(attributes[settings.accountClaim])
        : profile.nameID;
    if (!subject) throw fail('sso_claim_missing', `the provider sent no ${settings.accountClaim}`);
    const session = await this.deps.signIn.signIn(
      { method: 'saml', issuer: settings.idpIssuer, subject, claims: attributes },
      settings,
      origin,
    );
    return { token: session.token, expiresAt: session.expiresAt, redirect: started.redirect };
  }

  /** The stable code of node-saml's refusal of a response. */
  private async failure(err: unknown, samlResponse: string, now: number): Promise<AppError> {
    if (err instanceof AppError) return err;
    if (err instanceof SamlStatusError) return fail('sso_provider_error', err.message);
    const message = err instanceof Error ? err.message : String(err);
    const xml = Buffer.from(samlResponse, 'base64').toString('utf8');
    const seen = outline(xml);
    if (!seen.isResponse) return fail('sso_token_invalid', 'what was posted is no SAML response');
    if (/InResponseTo is missing/.test(message)) {
      return fail('sso_state_invalid', 'the response answers no sign-in started here (unsolicited)');
    }
    if (/InResponseTo/.test(message)) {
      // The request it answers was settled already: by this very assertion (a replay), or by another answer.
      const replayed = seen.assertionId !== undefined && (await this.repo.assertionUsed(seen.assertionId, now));
      return replayed ? fail('sso_replayed') : fail('sso_state_invalid');
    }
    if (/signature|signed data/i.test(message)) {
      return seen.assertionSigned ? fail('sso_signature_invalid') : fail('sso_unsigned');
    }
    if (/audience/i.test(message)) return fail('sso_audience_mismatch', message);
    const real = Date.now();
    const expired = () => fail('sso_token_expired', message);
    const early = () => fail('sso_clock_skew', message);
    if (/expired/.test(message)) return expired();
    if (/not yet valid/.test(message)) return early();
    if (/subject confirmation/.test(message)) {
      // Signed and verified: its subject's confirmation is out of its times (or answers nothing here).
      if (seen.notOnOrAfter.some((t) => real - SAML_CLOCK_SKEW_MS >= t)) return expired();
      if (seen.notBefore.some((t) => real + SAML_CLOCK_SKEW_MS < t)) return early();
    }
    return fail('sso_token_invalid', message.slice(0, 300));
  }
}
