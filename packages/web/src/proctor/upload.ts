/**
 * Uploads straight to object storage with the attempt's short-lived credentials (AWS SigV4
 * through aws4fetch, the protocol both the embedded local store and S3 speak), then the caller
 * records the object with its call.
 */
import type { AwsClient } from 'aws4fetch';
import { isApiError, isSessionGone } from '../api/client.js';
import type { CredentialCache } from './credentials.js';

/** SHA-256 of the bytes, hex (WebCrypto). */
export async function sha256Hex(data: Blob | ArrayBuffer): Promise<string> {
  const bytes = data instanceof Blob ? await data.arrayBuffer() : data;
  const digest = await crypto.subtle.digest('SHA-256', bytes);
  return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, '0')).join('');
}

/** An object put into storage. */
export interface Uploaded {
  /** Full object key (the credentials' prefix plus the name). */
  key: string;
  /** SHA-256 of the bytes, hex. */
  sha256: string;
}

/** A refused or failed storage upload. */
export class UploadError extends Error {
  override readonly name = 'UploadError';
  constructor(
    /** HTTP status, 0 when no answer arrived. */
    readonly status: number,
    message: string,
    /** The store's S3 error code (e.g. 'QuotaExceeded'), '' when it gave none. */
    readonly code = '',
  ) {
    super(message);
  }
}

/** The S3 error code of an XML error body, '' when there is none. */
export function s3ErrorCode(body: string): string {
  return /<Code>([^<]{1,100})<\/Code>/.exec(body)?.[1] ?? '';
}

/**
 * True when storage refused because the attempt's quota is used up: the local store says so on the PUT, and on
 * S3-compatible storage the recording call answers storage_quota_exceeded. Retrying cannot help.
 */
export function isQuotaFull(e: unknown): boolean {
  if (e instanceof UploadError) return e.code === 'QuotaExceeded';
  return isApiError(e) && e.code === 'storage_quota_exceeded';
}

/**
 * True when a failed upload or record means "not now" rather than "refused": no answer arrived, the session is gone
 * until the candidate logs in again, or the server or the store answered 5xx (down, or the server cannot reach its
 * storage: 503 `storage_unavailable`; the local store's disk is down to its reserve: 503 `storage_full`). What was being
 * sent is kept and sent again later.
 */
export function isTemporaryFailure(e: unknown): boolean {
  if (e instanceof UploadError) return e.status === 0 || e.status >= 500;
  return isSessionGone(e) || (isApiError(e) && (e.status === 0 || e.status >= 500));
}

/** An epoch-ms time as SigV4's X-Amz-Date (YYYYMMDDTHHMMSSZ). */
export function amzDate(ms: number): string {
  return new Date(ms).toISOString().replace(/[:-]|\.\d{3}/g, '');
}

/** The SigV4 signer, loaded with the first upload: the exam page draws its first question without it. */
function signer(): Promise<typeof AwsClient> {
  return import('aws4fetch').then((m) => m.AwsClient);
}

/** Time limit of one storage PUT. */
const PUT_TIMEOUT_MS = 20_000;

/** Joins an endpoint and a path; a relative endpoint ('/storage') is taken against this page's origin. */
export function objectUrl(endpoint: string, bucket: string, key: string): string {
  const base = new URL(endpoint, typeof window !== 'undefined' ? window.location.href : 'http://localhost/');
  const path = [base.pathname.replace(/^\/+|\/+$/g, ''), bucket, ...key.split('/').map(encodeURIComponent)]
    .filter((s) => s !== '')
    .join('/');
  return `${base.origin}/${path}`;
}

/**
 * PUTs `body` at `<prefix><name>` and answers its key and digest. Credentials the store refuses
 * (403, or 400 ExpiredToken) are dropped and the PUT is tried once more with fresh ones.
 */
export async function putObject(
  credentials: CredentialCache,
  name: string,
  body: Blob,
  contentType: string,
): Promise<Uploaded> {
  const bytes = await body.arrayBuffer();
  const sha256 = await sha256Hex(bytes);
  for (let tryNo = 0; ; tryNo++) {
    const sts = await credentials.get();
    const key = `${sts.prefix.replace(/\/*$/, '/')}${name}`.replace(/^\/+/, '');
    let res: Response;
    try {
      const Signer = await signer();
      const client = new Signer({
        accessKeyId: sts.AccessKeyId,
        secretAccessKey: sts.AccessKeySecret,
        sessionToken: sts.SecurityToken,
        service: 's3',
        region: sts.region,
        retries: 0,
      });
      res = await client.fetch(objectUrl(sts.endpoint, sts.bucket, key), {
        method: 'PUT',
        body: bytes,
        headers: { 'Content-Type': contentType, 'X-Amz-Content-Sha256': sha256 },
        signal: AbortSignal.timeout(PUT_TIMEOUT_MS),
        // Signed at the server's time: storage refuses a request dated too far from its own clock.
        aws: { datetime: amzDate(credentials.now()) },
      });
    } catch (e) {
      throw new UploadError(0, e instanceof Error ? e.message : String(e));
    }
    if (res.ok) return { key, sha256 };
    const code = s3ErrorCode(await res.text().catch(() => ''));
    // 403 AccessDenied/SignatureDoesNotMatch or 400 ExpiredToken: the credentials, not the picture. A full
    // quota stays full with fresh credentials.
    if ((res.status === 403 || res.status === 400) && code !== 'QuotaExceeded' && tryNo === 0) {
      credentials.invalidate();
      continue;
    }
    throw new UploadError(res.status, `storage answered ${res.status}${code ? ` ${code}` : ''}`, code);
  }
}
