/**
 * A real OpenID provider (oidc-provider) on a random port of this machine, for the single sign-on tests: one
 * confidential client (PKCE required), a signing key the test holds too (to sign ID tokens of its own), the
 * account the next sign-in is completed as, and a hook that may change the token endpoint's answer on its way out.
 */
import { generateKeyPairSync, sign, type KeyObject } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider from 'oidc-provider';

/** Who the provider signs in next: its subject and the claims it sends. */
export interface ProviderUser {
  sub: string;
  claims: Record<string, unknown>;
}

/** A running provider. */
export interface TestOidcProvider {
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** The account the next interaction is completed as (programmatically, without a page). */
  user: ProviderUser;
  /** When set, the ID token the token endpoint answers is replaced by what it returns. */
  tamper: ((idToken: string) => string) | null;
  /** Signs claims as an ID token with the provider's own published key (RS256). */
  signIdToken(claims: Record<string, unknown>): string;
  close(): Promise<void>;
}

const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

/** The payload of a compact JWT. */
export function jwtClaims(token: string): Record<string, unknown> {
  return JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()) as Record<string, unknown>;
}

function signJwt(claims: Record<string, unknown>, key: KeyObject, kid: string): string {
  const input = `${b64({ alg: 'RS256', typ: 'JWT', kid })}.${b64(claims)}`;
  return `${input}.${sign('sha256', Buffer.from(input), key).toString('base64url')}`;
}

/**
 * Starts a provider whose client redirects to `redirectUri`. With `pages`, sign-in and consent are the
 * provider's own pages (devInteractions: a browser types any login name, which becomes its subject; its claims are
 * `user`'s); without, each interaction is completed as `user` as soon as the browser reaches it. `host` names the
 * provider in its issuer (127.0.0.1 unless said): `localhost` makes it another site than a server on 127.0.0.1, as a
 * company's provider is, so a browser treats its redirects back as cross-site.
 */
export async function startOidcProvider(
  redirectUri: string,
  opts: { pages?: boolean; host?: 'localhost' | '127.0.0.1' } = {},
): Promise<TestOidcProvider> {
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const kid = 'test-key';
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://${opts.host ?? '127.0.0.1'}:${(server.address() as AddressInfo).port}`;
  const state: TestOidcProvider = {
    issuer,
    clientId: 'examhall',
    clientSecret: 'examhall-client-secret-of-the-tests',
    user: { sub: 'nobody', claims: {} },
    tamper: null,
    signIdToken: (claims) => signJwt(claims, privateKey, kid),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: state.clientId,
        client_secret: state.clientSecret,
        redirect_uris: [redirectUri],
        grant_types: ['authorization_code'],
        response_types: ['code'],
        token_endpoint_auth_method: 'client_secret_post',
      },
    ],
    jwks: { keys: [{ ...privateKey.export({ format: 'jwk' }), kid, alg: 'RS256', use: 'sig' }] },
    claims: { openid: ['sub'], profile: ['name'], phone: ['phone_number'], email: ['email'], groups: ['groups'] },
    scopes: ['openid', 'profile', 'phone', 'email', 'groups'],
    // The claims go in the ID token too, as many providers send them.
    conformIdTokenClaims: false,
    pkce: { required: () => true },
    features: { devInteractions: { enabled: opts.pages === true } },
    ...(opts.pages ? {} : { interactions: { url: (_ctx: unknown, i: { uid: string }) => `/interaction/${i.uid}` } }),
    findAccount: (_ctx: unknown, sub: string) => ({
      accountId: sub,
      claims: () => ({ ...state.user.claims, sub }),
    }),
    cookies: { keys: ['test-cookie-key-of-the-provider'] },
    ttl: { Interaction: 600, Grant: 600, Session: 600, AccessToken: 600, IdToken: 600 },
  });
  provider.use(async (ctx, next) => {
    await next();
    const answer = ctx.body as { id_token?: string } | undefined;
    if (ctx.path === '/token' && state.tamper && answer?.id_token) {
      ctx.body = { ...answer, id_token: state.tamper(answer.id_token) };
    }
  });
  const callback = provider.callback();
  server.on('request', (req: http.IncomingMessage, res: http.ServerResponse) => {
    if (opts.pages || !req.url?.startsWith('/interaction/')) return callback(req, res);
    void (async () => {
      const details = await provider.interactionDetails(req, res);
      const accountId = state.user.sub;
      const grant = new provider.Grant({ accountId, clientId: state.clientId });
      grant.addOIDCScope(String(details.params.scope ?? 'openid'));
      const grantId = await grant.save();
      await provider.interactionFinished(
        req,
        res,
        { login: { accountId }, consent: { grantId } },
        { mergeWithLastSubmission: false },
      );
    })().catch((err: unknown) => {
      res.statusCode = 500;
      res.end(String(err));
    });
  });
  return state;
}
