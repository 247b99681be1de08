/**
 * Short-lived storage credentials for the local store, without per-credential state: the session token
 * carries its prefix and expiry and is signed with a server secret kept in the database (so every API
 * process agrees), and the secret key is an HMAC of the token, so nothing secret is stored per credential.
 */
import { createHmac, randomBytes } from 'node:crypto';
import type { StsData } from '@examhall/contract';
import type { Db } from '../db/database.js';
import { SettingsRepository } from '../repositories/settings.js';
import { parseAmzDate, presignUrl, sameHex, signature, type SigV4Claim } from './sigv4.js';

/** What a credential allows. */
export type StorageAccess = 'read' | 'write';

/** What a session token carries. */
export interface StorageGrant {
  /** Keys the credential reaches start with this. */
  prefix: string;
  /** True when it reaches exactly the key `prefix` and nothing under it. */
  exact: boolean;
  /** What it allows. */
  access: StorageAccess[];
  /** Epoch ms after which it is refused. */
  expiresAt: number;
}

/** An S3-style refusal: its code is what the XML error says. */
export class StorageDenied extends Error {
  constructor(
    readonly code:
      | 'AccessDenied'
      | 'ExpiredToken'
      | 'InvalidToken'
      | 'SignatureDoesNotMatch'
      | 'InvalidAccessKeyId'
      | 'RequestTimeTooSkewed',
    message: string,
  ) {
    super(message);
  }
}

const TOKEN_PREFIX = 'ehs1';
/** How far in the future a presigned URL's signing time may be, as S3 allows. */
const MAX_SKEW_MS = 15 * 60_000;

function b64url(buf: Buffer | string): string {
  return Buffer.from(buf).toString('base64url');
}

/** Issues and checks the local store's credentials. */
export class LocalCredentials {
  private secretP: Promise<string> | undefined;

  constructor(
    private readonly db: Db,
    private readonly clock: () => number,
    /** Where the store is served, e.g. `https://exam.example.com/storage`. */
    readonly endpoint: string,
    readonly bucket: string,
    readonly region: string,
  ) {}

  /** The server secret, created once per installation in the shared settings. */
  private secret(): Promise<string> {
    this.secretP ??= new SettingsRepository(this.db)
      .getOrCreate('storage_signing_secret', () => randomBytes(32).toString('hex'))
      .catch((err: unknown) => {
        this.secretP = undefined;
        throw err;
      });
    return this.secretP;
  }

  private async mac(label: string, data: string): Promise<string> {
    return createHmac('sha256', await this.secret())
      .update(`${label}|${data}`)
      .digest('base64url');
  }

  /** Issues credentials for `grant` in the shape /sts/get-token answers. */
  async issue(grant: Omit<StorageGrant, 'expiresAt'>, ttlSeconds: number): Promise<StsData> {
    const expiresAt = this.clock() + ttlSeconds * 1000;
    const payload = b64url(
      JSON.stringify({
        p: grant.prefix,
        x: grant.exact ? 1 : 0,
        a: grant.access,
        e: expiresAt,
        n: b64url(randomBytes(9)),
      }),
    );
    const token = `${TOKEN_PREFIX}.${payload}.${await this.mac('token', payload)}`;
    return {
      SecurityToken: token,
      AccessKeyId: await this.accessKeyId(token),
      AccessKeySecret: await this.mac('secret', token),
      Expiration: new Date(expiresAt).toISOString(),
      bucket: this.bucket,
      region: this.region,
      endpoint: this.endpoint,
      prefix: grant.prefix,
    };
  }

  private async accessKeyId(token: string): Promise<string> {
    return `EH${(await this.mac('id', token))
      .replace(/[^A-Za-z0-9]/g, '')
      .slice(0, 18)
      .toUpperCase()}`;
  }

  /** A URL a browser can GET `key` with for `ttlSeconds`. */
  async presignGet(key: string, ttlSeconds: number): Promise<string> {
    const creds = await this.issue({ prefix: key, exact: true, access: ['read'] }, ttlSeconds);
    return presignUrl({
      url: new URL(`${this.endpoint}/${this.bucket}/${key}`),
      method: 'GET',
      accessKeyId: creds.AccessKeyId,
      secret: creds.AccessKeySecret,
      sessionToken: creds.SecurityToken,
      region: this.region,
      service: 's3',
      now: this.clock(),
      ttlSeconds,
    });
  }

  /** Checks a signed request's credentials and signature; answers what they grant or throws StorageDenied. */
  async verify(claim: SigV4Claim): Promise<StorageGrant> {
    const token = claim.sessionToken;
    if (!token) throw new StorageDenied('InvalidToken', 'a session token is required');
    const [tag, payload, mac, ...rest] = token.split('.');
    if (tag !== TOKEN_PREFIX || !payload || !mac || rest.length > 0 || !sameHex(mac, await this.mac('token', payload)))
      throw new StorageDenied('InvalidToken', 'the provided token is malformed or otherwise invalid');
    let grant: StorageGrant;
    try {
      const p = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as {
        p: string;
        x: number;
        a: StorageAccess[];
        e: number;
      };
      grant = { prefix: p.p, exact: p.x === 1, access: p.a, expiresAt: p.e };
    } catch {
      throw new StorageDenied('InvalidToken', 'the provided token is malformed or otherwise invalid');
    }
    const now = this.clock();
    if (now >= grant.expiresAt) throw new StorageDenied('ExpiredToken', 'the provided token has expired');
    if (!sameHex(claim.accessKeyId, await this.accessKeyId(token)))
      throw new StorageDenied('InvalidAccessKeyId', 'the access key id does not belong to the token');
    const signedAt = parseAmzDate(claim.amzDate);
    if (Number.isNaN(signedAt) || claim.scope.split('/')[0] !== claim.amzDate.slice(0, 8))
      throw new StorageDenied('AccessDenied', 'X-Amz-Date is missing or does not match the credential scope');
    // Header-signed requests are not held to the signer's clock: candidates' computers are often minutes or
    // hours off, and the token's own expiry (on the server's clock) already bounds how long a signature works.
    if (claim.expiresSeconds !== null) {
      if (now > signedAt + claim.expiresSeconds * 1000) throw new StorageDenied('AccessDenied', 'request has expired');
      if (signedAt - now > MAX_SKEW_MS)
        throw new StorageDenied('RequestTimeTooSkewed', 'the request was signed in the future');
    }
    const expected = signature(await this.mac('secret', token), claim.amzDate, claim.scope, claim.canonical);
    if (!sameHex(expected, claim.signature))
      throw new StorageDenied(
        'SignatureDoesNotMatch',
        'the request signature we calculated does not match the signature you provided',
      );
    return grant;
  }
}

/** Whether `grant` reaches `key` for `access`. */
export function grantAllows(grant: StorageGrant, key: string, access: StorageAccess): boolean {
  if (!grant.access.includes(access)) return false;
  return grant.exact ? key === grant.prefix : key.startsWith(grant.prefix);
}
