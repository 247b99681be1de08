import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { StsData } from '@examhall/contract';
import { afterEach, describe, expect, it } from 'vitest';
import { ApiError, SessionGoneError } from '../api/client.js';
import { CredentialCache } from './credentials.js';
import { isQuotaFull, isTemporaryFailure, putObject, s3ErrorCode, UploadError } from './upload.js';

const QUOTA_XML =
  '<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>QuotaExceeded</Code><Message>full</Message></Error>';

describe('a failure that means "not now" (the picture is kept and sent again)', () => {
  it('is no answer, a session gone until the next login, or a 5xx from the server or the store', () => {
    expect(isTemporaryFailure(new UploadError(0, 'refused'))).toBe(true);
    expect(isTemporaryFailure(new UploadError(503, 'storage answered 503 SlowDown', 'SlowDown'))).toBe(true);
    expect(isTemporaryFailure(new ApiError('storage_unavailable', 503, 'down'))).toBe(true);
    expect(isTemporaryFailure(new ApiError('internal_error', 500, 'x'))).toBe(true);
    expect(isTemporaryFailure(new SessionGoneError('not_logged_in', 401, 'gone'))).toBe(true);
    // The local store's disk down to its reserve: the picture waits until there is room.
    expect(isTemporaryFailure(new UploadError(503, 'storage answered 503 storage_full', 'storage_full'))).toBe(true);
    expect(isTemporaryFailure(new ApiError('storage_full', 503, 'full'))).toBe(true);
    // Refusals stay refusals: keeping them would only hold the rest back.
    expect(isTemporaryFailure(new UploadError(403, 'x', 'QuotaExceeded'))).toBe(false);
    expect(isTemporaryFailure(new ApiError('evidence_digest_mismatch', 422, 'x'))).toBe(false);
    expect(isTemporaryFailure(new ApiError('exam_finished', 409, 'x'))).toBe(false);
    expect(isTemporaryFailure(new UploadError(413, 'x', 'evidence_too_large'))).toBe(false);
  });
});

describe('a full storage quota (told to the candidate, never retried)', () => {
  let server: http.Server | null = null;
  afterEach(() => new Promise<void>((r) => (server ? server.close(() => r()) : r())));

  it('reads the S3 error code and tells a full quota from other refusals', () => {
    expect(s3ErrorCode(QUOTA_XML)).toBe('QuotaExceeded');
    expect(s3ErrorCode('not xml')).toBe('');
    expect(isQuotaFull(new UploadError(403, 'x', 'QuotaExceeded'))).toBe(true);
    expect(isQuotaFull(new UploadError(403, 'x', 'AccessDenied'))).toBe(false);
    expect(isQuotaFull(new ApiError('storage_quota_exceeded', 409, 'full'))).toBe(true);
    expect(isQuotaFull(new ApiError('evidence_missing', 422, 'x'))).toBe(false);
  });

  it('does not fetch fresh credentials and try again when the store answers QuotaExceeded', async () => {
    let puts = 0;
    server = http.createServer((req, res) => {
      req.resume();
      puts++;
      res.writeHead(403, { 'content-type': 'application/xml' }).end(QUOTA_XML);
    });
    await new Promise<void>((r) => server!.listen(0, '127.0.0.1', r));
    const port = (server.address() as AddressInfo).port;
    let fetched = 0;
    const creds = new CredentialCache(async (): Promise<StsData> => {
      fetched++;
      return {
        SecurityToken: 't',
        AccessKeyId: 'k',
        AccessKeySecret: 's',
        Expiration: new Date(Date.now() + 600_000).toISOString(),
        bucket: 'examhall',
        region: 'local',
        endpoint: `http://127.0.0.1:${port}/storage`,
        prefix: 'exams/1/attempts/1/',
      };
    });
    const err = await putObject(creds, 'frame/1.jpg', new Blob(['x']), 'image/jpeg').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UploadError);
    expect(isQuotaFull(err)).toBe(true);
    expect([puts, fetched]).toEqual([1, 1]);
  });
});
