import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { StsData } from '@examhall/contract';
import { afterEach, describe, expect, it } from 'vitest';
import { ApiError } from '../api/client.js';
import { CredentialCache } from './credentials.js';
import { isQuotaFull, putObject, s3ErrorCode, UploadError } from './upload.js';

const QUOTA_XML =
  '<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>QuotaExceeded</Code><Message>full</Message></Error>';

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
