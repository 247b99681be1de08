import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config.js';
import type { S3ObjectStore } from './s3ObjectStore.js';
import { prefixPolicy } from './sts.js';
import { startS3rver, type TestS3 } from '../test/s3rver.js';

/** An independent S3 implementation (s3rver) on loopback with its default account. */
describe('S3ObjectStore against s3rver', () => {
  let s3: TestS3;
  let store: S3ObjectStore;

  beforeAll(async () => {
    s3 = await startS3rver();
    store = s3.store;
  });
  afterAll(async () => s3.close());

  it('puts, gets, heads, streams and presigns objects, and answers null for missing keys', async () => {
    const key = 'exams/1/attempts/2/frame/1.jpg';
    const data = Buffer.from('a camera frame from the S3 path');
    expect(await store.put(key, data)).toEqual({
      sha256: createHash('sha256').update(data).digest('hex'),
      size: data.length,
    });
    expect(await store.get(key)).toEqual(data);
    expect(await store.head(key)).toEqual({ size: data.length });
    const streamed = await store.stream(key);
    expect(streamed?.size).toBe(data.length);
    const chunks: Buffer[] = [];
    for await (const c of streamed!.stream) chunks.push(c as Buffer);
    expect(Buffer.concat(chunks)).toEqual(data);

    const url = await store.presignGet(key, 60);
    expect(url).toContain('X-Amz-Signature=');
    const res = await fetch(url);
    expect(res.status).toBe(200);
    expect(Buffer.from(await res.arrayBuffer())).toEqual(data);

    expect(await store.get('exams/1/attempts/2/none.jpg')).toBeNull();
    expect(await store.head('exams/1/attempts/2/none.jpg')).toBeNull();
    expect(await store.stream('exams/1/attempts/2/none.jpg')).toBeNull();
    await expect(store.get('../escape')).rejects.toThrow('invalid storage key');
  });

  it('limits STS sessions to the attempt prefix in the bucket', () => {
    expect(JSON.parse(prefixPolicy('evidence', 'exams/1/attempts/2/'))).toEqual({
      Version: '2012-10-17',
      Statement: [
        {
          Effect: 'Allow',
          Action: ['s3:PutObject', 's3:GetObject'],
          Resource: ['arn:aws:s3:::evidence/exams/1/attempts/2/*'],
        },
      ],
    });
  });

  it('takes the S3 settings together or not at all', () => {
    expect(() => loadConfig({ S3_ENDPOINT: 'http://127.0.0.1:9000' })).toThrow('go together');
    expect(loadConfig({}).s3).toBeNull();
  });
});
