/** AWS Signature Version 4 for the S3 protocol: what the local store checks and how it presigns (no AWS SDK needed). */
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';

/** The payload hash a client sends when it does not sign the body. */
export const UNSIGNED_PAYLOAD = 'UNSIGNED-PAYLOAD';

/** SHA-256 of bytes or text, hex. */
export function sha256Hex(data: Buffer | string): string {
  return createHash('sha256').update(data).digest('hex');
}

function hmac(key: Buffer | string, data: string): Buffer {
  return createHmac('sha256', key).update(data).digest();
}

/** RFC 3986 encoding as SigV4 wants it (encodeURIComponent leaves !'()* alone). */
export function uriEncode(s: string): string {
  return encodeURIComponent(s).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

/** The signing key of a date, region and service. */
function signingKey(secret: string, date: string, region: string, service: string): Buffer {
  return hmac(hmac(hmac(hmac(`AWS4${secret}`, date), region), service), 'aws4_request');
}

/** A request as the signer saw it. */
export interface SignedRequestParts {
  method: string;
  /** Path exactly as sent (already URI-encoded by the client). */
  path: string;
  /** Query parameters, decoded, in any order. */
  query: [string, string][];
  /** Header names (lower case) to values. */
  headers: Record<string, string>;
  /** Headers the signature covers, lower case. */
  signedHeaders: string[];
  /** The payload hash that was signed. */
  payloadHash: string;
}

/** The canonical request of SigV4. */
export function canonicalRequest(r: SignedRequestParts): string {
  const query = r.query
    .map(([k, v]) => [uriEncode(k), uriEncode(v)] as const)
    .sort(([a, av], [b, bv]) => (a < b ? -1 : a > b ? 1 : av < bv ? -1 : av > bv ? 1 : 0))
    .map(([k, v]) => `${k}=${v}`)
    .join('&');
  const names = [...r.signedHeaders].sort();
  const headers = names.map((h) => `${h}:${(r.headers[h] ?? '').trim().replace(/\s+/g, ' ')}\n`).join('');
  return [r.method, r.path, query, headers, names.join(';'), r.payloadHash].join('\n');
}

/** The signature of a canonical request under a credential scope `date/region/service/aws4_request`. */
export function signature(secret: string, amzDate: string, scope: string, canonical: string): string {
  const [date = '', region = '', service = ''] = scope.split('/');
  const toSign = ['AWS4-HMAC-SHA256', amzDate, scope, sha256Hex(canonical)].join('\n');
  return hmac(signingKey(secret, date, region, service), toSign).toString('hex');
}

/** Constant-time comparison of two hex strings. */
export function sameHex(a: string, b: string): boolean {
  const x = Buffer.from(a, 'utf8');
  const y = Buffer.from(b, 'utf8');
  return x.length === y.length && timingSafeEqual(x, y);
}

/** `20261121T020000Z` from epoch ms. */
export function amzDate(ms: number): string {
  return new Date(ms)
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}/, '');
}

/** Epoch ms of `20261121T020000Z`, or NaN. */
export function parseAmzDate(s: string): number {
  const m = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/.exec(s);
  if (!m) return NaN;
  return Date.UTC(+m[1]!, +m[2]! - 1, +m[3]!, +m[4]!, +m[5]!, +m[6]!);
}

/** A presigned GET URL (query-string authentication) for `url`, valid `ttlSeconds` from `now`. */
export function presignUrl(opts: {
  url: URL;
  method: string;
  accessKeyId: string;
  secret: string;
  sessionToken?: string;
  region: string;
  service: string;
  now: number;
  ttlSeconds: number;
}): string {
  const url = new URL(opts.url.toString());
  const date = amzDate(opts.now);
  const scope = `${date.slice(0, 8)}/${opts.region}/${opts.service}/aws4_request`;
  url.searchParams.set('X-Amz-Algorithm', 'AWS4-HMAC-SHA256');
  url.searchParams.set('X-Amz-Credential', `${opts.accessKeyId}/${scope}`);
  url.searchParams.set('X-Amz-Date', date);
  url.searchParams.set('X-Amz-Expires', String(opts.ttlSeconds));
  if (opts.sessionToken) url.searchParams.set('X-Amz-Security-Token', opts.sessionToken);
  url.searchParams.set('X-Amz-SignedHeaders', 'host');
  const canonical = canonicalRequest({
    method: opts.method,
    path: url.pathname,
    query: [...url.searchParams.entries()],
    headers: { host: url.host },
    signedHeaders: ['host'],
    payloadHash: UNSIGNED_PAYLOAD,
  });
  url.searchParams.set('X-Amz-Signature', signature(opts.secret, date, scope, canonical));
  return url.toString();
}

/** What a signed request claims: who, when, for how long, and its signature; `canonical` rebuilds what was signed. */
export interface SigV4Claim {
  accessKeyId: string;
  scope: string;
  amzDate: string;
  /** Seconds a presigned URL stays valid (query auth only). */
  expiresSeconds: number | null;
  sessionToken: string | undefined;
  signature: string;
  canonical: string;
  /** The payload hash the client signed (hex, UNSIGNED-PAYLOAD or a streaming marker). */
  payloadHash: string;
}

/** Why a request's signature parts could not be read. */
export class SigV4FormatError extends Error {}

/**
 * Reads the SigV4 parts of a request, from the Authorization header or the query string.
 * `rawQuery` is the query string as sent (without '?'); `headers` have lower-case names.
 */
export function readClaim(
  method: string,
  rawPath: string,
  rawQuery: string,
  headers: Record<string, string>,
): SigV4Claim {
  const query: [string, string][] = [];
  for (const part of rawQuery.split('&')) {
    if (part === '') continue;
    const i = part.indexOf('=');
    const k = i < 0 ? part : part.slice(0, i);
    const v = i < 0 ? '' : part.slice(i + 1);
    try {
      query.push([decodeURIComponent(k.replace(/\+/g, '%20')), decodeURIComponent(v.replace(/\+/g, '%20'))]);
    } catch {
      throw new SigV4FormatError('malformed query string');
    }
  }
  const q = new Map(query);
  const auth = headers['authorization'];
  if (auth) {
    const m =
      /^AWS4-HMAC-SHA256\s+Credential=([^,\s]+),\s*SignedHeaders=([^,\s]+),\s*Signature=([0-9a-f]{64})\s*$/.exec(auth);
    if (!m) throw new SigV4FormatError('the Authorization header is not AWS4-HMAC-SHA256');
    const [accessKeyId, ...scopeParts] = m[1]!.split('/');
    const signedHeaders = m[2]!.split(';');
    if (!signedHeaders.includes('host')) throw new SigV4FormatError('the signature must cover the host header');
    const date = headers['x-amz-date'] ?? '';
    const payloadHash = headers['x-amz-content-sha256'] ?? '';
    if (!payloadHash) throw new SigV4FormatError('x-amz-content-sha256 is required');
    return {
      accessKeyId: accessKeyId ?? '',
      scope: scopeParts.join('/'),
      amzDate: date,
      expiresSeconds: null,
      sessionToken: headers['x-amz-security-token'],
      signature: m[3]!,
      payloadHash,
      canonical: canonicalRequest({ method, path: rawPath, query, headers, signedHeaders, payloadHash }),
    };
  }
  if (q.get('X-Amz-Algorithm') === 'AWS4-HMAC-SHA256') {
    const credential = q.get('X-Amz-Credential') ?? '';
    const [accessKeyId, ...scopeParts] = credential.split('/');
    const signedHeaders = (q.get('X-Amz-SignedHeaders') ?? '').split(';');
    if (!signedHeaders.includes('host')) throw new SigV4FormatError('the signature must cover the host header');
    const expires = Number(q.get('X-Amz-Expires'));
    if (!Number.isInteger(expires) || expires < 1 || expires > 604800)
      throw new SigV4FormatError('X-Amz-Expires must be 1 to 604800');
    const payloadHash = headers['x-amz-content-sha256'] ?? UNSIGNED_PAYLOAD;
    return {
      accessKeyId: accessKeyId ?? '',
      scope: scopeParts.join('/'),
      amzDate: q.get('X-Amz-Date') ?? '',
      expiresSeconds: expires,
      sessionToken: q.get('X-Amz-Security-Token'),
      signature: q.get('X-Amz-Signature') ?? '',
      payloadHash,
      canonical: canonicalRequest({
        method,
        path: rawPath,
        query: query.filter(([k]) => k !== 'X-Amz-Signature'),
        headers,
        signedHeaders,
        payloadHash,
      }),
    };
  }
  throw new SigV4FormatError('the request is not signed');
}
