/**
 * OpenID Connect sign-in for staff (openid-client): discovery of the provider, the authorization code flow with
 * PKCE, a state bound to the browser and a nonce, both kept server-side until the answer comes back once, and the
 * ID token's signature (the provider's published keys), issuer, audience, nonce and times checked. The verified
 * claims go to the sign-in rule (ssoSignIn.ts). Every refusal has its own error code.
 */
import { hash } from 'node:crypto';
import { api } from '@examhall/contract';
import * as oidc from 'openid-client';
import type { Config, OidcConfig } from '../config.js';
import type { Db } from '../db/database.js';
import { AppError, fail } from '../errors.js';
import { SsoRepository } from '../repositories/sso.js';
import { apiUrl } from './ssoAdmin.js';
import type { SignInOrigin, SsoSignInService } from './ssoSignIn.js';

/** How long a started sign-in waits for the provider's answer. */
export const SSO_REQUEST_MS = 10 * 60_000;
/** Seconds a token's times may be off this server's clock. */
const CLOCK_TOLERANCE_S = 60;

/** What OpenID Connect sign-in needs. */
export interface OidcDeps {
  config: Pick<Config, 'oidc' | 'publicUrl' | 'apiPrefix'>;
  signIn: Pick<SsoSignInService, 'signIn'>;
  clock: () => number;
}

/** A console path to go to once signed in: anything but one of the console's own paths leads to its home. */
export function consolePath(value: string | undefined): string {
  if (!value || !value.startsWith('/admin') || value.startsWith('//') || /[\\\s]/.test(value)) return '/admin';
  return value.slice(0, 500);
}

/** SHA-256 of a value, hex: how a state is kept. */
export function keyHash(value: string): string {
  return hash('sha256', value, 'hex');
}

/** The claim an openid-client or oauth4webapi error names, looking through its causes. */
function failedClaim(err: unknown): string | undefined {
  for (let e: unknown = err, depth = 0; e && typeof e === 'object' && depth < 5; depth++) {
    const claim = (e as { claim?: unknown }).claim;
    if (typeof claim === 'string') return claim;
    e = (e as { cause?: unknown }).cause;
  }
  return undefined;
}

/** The stable code of a refusal by the OpenID client. */
export function oidcFailure(err: unknown): AppError {
  if (err instanceof AppError) return err;
  const code = (err as { code?: unknown } | null)?.code;
  const message = err instanceof Error ? err.message : String(err);
  const claim = failedClaim(err);
  const causeMessage = (err as { cause?: { message?: unknown } } | null)?.cause?.message;
  if (code === oidc.AuthorizationResponseError.name || err instanceof oidc.AuthorizationResponseError) {
    return fail('sso_provider_error', `the provider answered ${(err as { error?: string }).error ?? 'an error'}`);
  }
  if (err instanceof oidc.ResponseBodyError) {
    return fail('sso_provider_error', `the provider's token endpoint answered ${err.error}`);
  }
  if (code === 'OAUTH_JWT_CLAIM_COMPARISON_FAILED') {
    if (claim === 'nonce') return fail('sso_nonce_mismatch');
    if (claim === 'aud' || claim === 'azp') return fail('sso_audience_mismatch');
    return fail('sso_token_invalid', `the ID token's ${claim ?? 'claims'} do not match`);
  }
  if (code === 'OAUTH_JWT_TIMESTAMP_CHECK_FAILED') {
    return claim === 'exp' ? fail('sso_token_expired') : fail('sso_clock_skew', `the ID token's ${claim} is ahead`);
  }
  if (code === 'OAUTH_KEY_SELECTION_FAILED' || /signature/i.test(`${message} ${String(causeMessage ?? '')}`)) {
    return fail('sso_signature_invalid');
  }
  if (code === 'OAUTH_INVALID_RESPONSE' || code === 'OAUTH_PARSE_ERROR' || code === 'OAUTH_JWT_USERINFO_EXPECTED') {
    return fail('sso_token_invalid', String(causeMessage ?? message));
  }
  return fail('sso_provider_error', message);
}

/** OpenID Connect sign-in. */
export class OidcService {
  private readonly repo: SsoRepository;
  /** The provider's configuration, discovered on first use (again after a failure). */
  private discovered: Promise<oidc.Configuration> | undefined;

  constructor(
    db: Db,
    private readonly deps: OidcDeps,
  ) {
    this.repo = new SsoRepository(db);
  }

  /** The configuration, or `sso_not_configured`. */
  private settings(): OidcConfig {
    const settings = this.deps.config.oidc;
    if (!settings) throw fail('sso_not_configured');
    return settings;
  }

  /** This site's redirect URI, registered at the provider. */
  redirectUri(): string {
    return apiUrl(this.deps.config, api.oidcCallback.path);
  }

  private async provider(): Promise<oidc.Configuration> {
    const settings = this.settings();
    this.discovered ??= (async () => {
      const issuer = new URL(settings.issuer);
      const config = await oidc.discovery(
        issuer,
        settings.clientId,
        {
          client_secret: settings.clientSecret,
          redirect_uris: [this.redirectUri()],
          response_types: ['code'],
          [oidc.clockTolerance]: CLOCK_TOLERANCE_S,
        },
        oidc.ClientSecretPost(settings.clientSecret),
        // Plain http is let through config.ts only for a provider on this machine.
        issuer.protocol === 'http:' ? { execute: [oidc.allowInsecureRequests] } : undefined,
      );
      // The ID token's signature is checked against the provider's published keys, not only its channel.
      oidc.enableNonRepudiationChecks(config);
      return config;
    })();
    try {
      return await this.discovered;
    } catch (err) {
      this.discovered = undefined;
      throw fail('sso_provider_error', `discovery of ${settings.issuer} failed: ${(err as Error).message}`);
    }
  }

  /**
   * Starts a sign-in: a state, a nonce and a PKCE verifier kept server-side (under the state's hash) for
   * SSO_REQUEST_MS; answers the provider's authorization address and the state, which the browser keeps in a
   * cookie so that the answer is taken only in the browser that asked.
   */
  async start(redirect: string | undefined): Promise<{ location: string; state: string }> {
    const settings = this.settings();
    const config = await this.provider();
    const state = oidc.randomState();
    const nonce = oidc.randomNonce();
    const verifier = oidc.randomPKCECodeVerifier();
    const now = this.deps.clock();
    await this.repo.saveRequest(
      {
        key_hash: keyHash(state),
        method: 'oidc',
        nonce,
        code_verifier: verifier,
        redirect: consolePath(redirect),
        expires_at: now + SSO_REQUEST_MS,
      },
      now,
    );
    const location = oidc.buildAuthorizationUrl(config, {
      redirect_uri: this.redirectUri(),
      scope: settings.scopes,
      state,
      nonce,
      code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
    });
    return { location: location.href, state };
  }

  /**
   * The provider's answer: `query` is the callback's query string as it came, `browserState` the state this
   * browser holds. The started sign-in is taken (once), the code exchanged with its verifier, the ID token checked
   * with its nonce, and the verified claims signed in. Answers the session and where the console goes.
   */
  async callback(
    query: string,
    browserState: string | undefined,
    origin: SignInOrigin,
  ): Promise<{ token: string; expiresAt: number; redirect: string }> {
    const settings = this.settings();
    const params = new URLSearchParams(query);
    const state = params.get('state') ?? '';
    if (!state || state !== browserState) throw fail('sso_state_invalid');
    const started = await this.repo.takeRequest(keyHash(state), 'oidc', this.deps.clock());
    if (!started) throw fail('sso_state_invalid');
    const config = await this.provider();
    const currentUrl = new URL(`${this.redirectUri()}?${params.toString()}`);
    let claims: oidc.IDToken;
    try {
      const tokens = await oidc.authorizationCodeGrant(config, currentUrl, {
        pkceCodeVerifier: started.code_verifier ?? '',
        expectedState: state,
        expectedNonce: started.nonce ?? '',
        idTokenExpected: true,
      });
      const idClaims = tokens.claims();
      if (!idClaims) throw fail('sso_token_invalid', 'the provider sent no ID token');
      // A provider may leave the phone, e-mail or groups out of the ID token and answer them at its userinfo endpoint.
      const missing = [settings.accountClaim, settings.groupsClaim].some((c) => idClaims[c] === undefined);
      const info = missing ? await oidc.fetchUserInfo(config, tokens.access_token, idClaims.sub) : {};
      claims = { ...info, ...idClaims };
    } catch (err) {
      throw oidcFailure(err);
    }
    // oauth4webapi checks that the token has not expired, not that it was not issued in the future.
    if (claims.iat > Math.floor(Date.now() / 1000) + CLOCK_TOLERANCE_S) {
      throw fail('sso_clock_skew', "the ID token's iat is ahead of this server's clock");
    }
    const session = await this.deps.signIn.signIn(
      { method: 'oidc', issuer: claims.iss, subject: claims.sub, claims },
      settings,
      origin,
    );
    return { token: session.token, expiresAt: session.expiresAt, redirect: started.redirect };
  }
}
