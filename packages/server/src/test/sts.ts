/** A candidate's upload credentials in tests: read from the app, a SigV4 signer over them, a PUT under their prefix. */
import type { StsData } from '@examhall/contract';
import { AwsClient } from 'aws4fetch';
import { expect } from 'vitest';
import { body, type TestApp } from './app.js';

/** The candidate's storage credentials for the exam (GET /sts/get-token), expecting success. */
export async function candidateSts(t: TestApp, examId: number, token: string): Promise<StsData> {
  const res = await t.app.inject(`/api/sts/get-token?exam_id=${examId}&auth=${token}`);
  expect(res.statusCode, res.body).toBe(200);
  return body<StsData>(res).data;
}

/** An S3 signer with the credentials, as the browser's uploader makes one. */
export function stsClient(c: StsData): AwsClient {
  return new AwsClient({
    accessKeyId: c.AccessKeyId,
    secretAccessKey: c.AccessKeySecret,
    sessionToken: c.SecurityToken,
    service: 's3',
    region: c.region,
  });
}

/** PUTs `bytes` as `name` under the credentials' prefix, through the app's storage endpoint at `base`. */
export function stsPut(base: string, c: StsData, name: string, bytes: Buffer | string) {
  return stsClient(c).fetch(`${base}/storage/${c.bucket}/${c.prefix}${name}`, { method: 'PUT', body: bytes });
}
