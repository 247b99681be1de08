import { createHash } from 'node:crypto';
import { GetObjectCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import type { StsData } from '@examhall/contract';
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { RECORDING_BYTES_PER_MINUTE } from './budget.js';
import { LocalCredentials } from './localCredentials.js';
import { createTestApp, type TestApp } from '../test/app.js';
import { testedDialects } from '../test/db.js';
import { candidateSts, stsClient, stsPut } from '../test/sts.js';

const PHONE = '13800138000';
const OTHER = '13700137000';

const sha = (b: Buffer | string) => createHash('sha256').update(b).digest('hex');
const amz = (ms: number) => new Date(ms).toISOString().replace(/[:-]|\.\d{3}/g, '');

/**
 * Puts the app on the real clock (SigV4 signers read it; the store refuses requests signed 15 minutes away from its
 * own), seeds the demo exam with a second candidate invited, starts both candidates' attempts and listens on a port.
 */
async function twoStarted(t: TestApp): Promise<{ base: string; examId: number; tokens: { a: string; b: string } }> {
  t.advance(Date.now() - t.now());
  const { examId, anid } = await t.seed(PHONE);
  const otherAnid = await t.invite(examId, OTHER);
  const tokens = { a: await t.loginCandidate(PHONE), b: await t.loginCandidate(OTHER) };
  for (const [tok, inv] of [
    [tokens.a, anid],
    [tokens.b, otherAnid],
  ] as const) {
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/monitor/start-exam?auth=${tok}`,
      payload: { exam_id: examId, anid: inv },
    });
    expect(res.statusCode).toBe(200);
  }
  return { base: await t.app.listen({ port: 0, host: '127.0.0.1' }), examId, tokens };
}

describe.each(await testedDialects())('the local store over the S3 protocol on %s', (dialect) => {
  let t: TestApp;
  let base: string;
  let examId: number;
  let tokens: { a: string; b: string };

  beforeEach(async () => {
    t = await createTestApp(dialect);
    ({ base, examId, tokens } = await twoStarted(t));
  });
  afterEach(async () => t.close());

  const sts = (tok: string) => candidateSts(t, examId, tok);
  const client = stsClient;
  const url = (c: StsData, key: string) => `${base}/storage/${c.bucket}/${key}`;
  /** The URL with each segment percent-encoded, as SDKs send odd characters. */
  const objectUrlOf = (c: StsData, key: string) =>
    `${base}/storage/${c.bucket}/${key.split('/').map(encodeURIComponent).join('/')}`;

  it('issues prefix-bound credentials that aws4fetch can put, get and head with, and refuses other attempts', async () => {
    const a = await sts(tokens.a);
    const b = await sts(tokens.b);
    expect(a.prefix).toMatch(/^exams\/\d+\/attempts\/\d+\/$/);
    expect(a.prefix).not.toBe(b.prefix);
    expect(a.endpoint).toBe(`${t.config.publicUrl}/storage`);
    expect(Date.parse(a.Expiration) - t.now()).toBe(15 * 60_000);
    const bytes = Buffer.from('a camera frame');

    const put = await client(a).fetch(url(a, `${a.prefix}frame/1.jpg`), { method: 'PUT', body: bytes });
    expect(put.status, await put.clone().text()).toBe(200);
    expect(put.headers.get('etag')).toMatch(/^"[0-9a-f]{32}"$/);
    expect(put.headers.get('access-control-allow-origin')).toBe('*');
    expect(await t.store.get(`${a.prefix}frame/1.jpg`)).toEqual(bytes);

    // Write-once: the same bytes again succeed (a retry), other bytes are refused.
    const retry = await client(a).fetch(url(a, `${a.prefix}frame/1.jpg`), { method: 'PUT', body: bytes });
    expect(retry.status).toBe(200);
    const swap = await client(a).fetch(url(a, `${a.prefix}frame/1.jpg`), { method: 'PUT', body: 'a clean frame' });
    expect(swap.status).toBe(403);
    expect(await swap.text()).toContain('write-once');
    expect(await t.store.get(`${a.prefix}frame/1.jpg`)).toEqual(bytes);

    const got = await client(a).fetch(url(a, `${a.prefix}frame/1.jpg`));
    expect(got.status).toBe(200);
    expect(got.headers.get('content-type')).toBe('image/jpeg');
    expect(Buffer.from(await got.arrayBuffer())).toEqual(bytes);
    const head = await client(a).fetch(url(a, `${a.prefix}frame/1.jpg`), { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.headers.get('content-length')).toBe(String(bytes.length));

    // B's credentials neither read nor overwrite A's object, nor write under A's prefix.
    const steal = await client(b).fetch(url(b, `${a.prefix}frame/1.jpg`));
    expect(steal.status).toBe(403);
    expect(await steal.text()).toContain('<Code>AccessDenied</Code>');
    const overwrite = await client(b).fetch(url(b, `${a.prefix}frame/1.jpg`), { method: 'PUT', body: 'forged' });
    expect(overwrite.status).toBe(403);
    expect(await t.store.get(`${a.prefix}frame/1.jpg`)).toEqual(bytes);
    // Nor anything outside an attempt (a prefix of the prefix, another exam).
    const outside = await client(a).fetch(url(a, `exams/${examId}/x.jpg`), { method: 'PUT', body: 'x' });
    expect(outside.status).toBe(403);
    expect(await outside.text()).toContain('<Code>AccessDenied</Code>');

    const missing = await client(a).fetch(url(a, `${a.prefix}frame/none.jpg`));
    expect(missing.status).toBe(404);
    expect(await missing.text()).toContain('<Code>NoSuchKey</Code>');
  });

  it('refuses an expired credential, a tampered signature or token, a wrong secret and a wrong body digest', async () => {
    const a = await sts(tokens.a);
    const key = `${a.prefix}frame/2.jpg`;
    const good = await client(a).sign(url(a, key), { method: 'PUT', body: 'x' });

    const tampered = new Headers(good.headers);
    const auth = tampered.get('authorization')!;
    tampered.set(
      'authorization',
      auth.replace(/Signature=([0-9a-f])/, (_m, c: string) => `Signature=${c === '0' ? '1' : '0'}`),
    );
    const r1 = await fetch(good.url, { method: 'PUT', headers: tampered, body: 'x' });
    expect(r1.status).toBe(403);
    expect(await r1.text()).toContain('<Code>SignatureDoesNotMatch</Code>');

    // The same signed request with different bytes: the signed payload hash no longer matches.
    const signedBody = await client(a).sign(url(a, key), {
      method: 'PUT',
      body: 'x',
      headers: { 'x-amz-content-sha256': sha('x') },
    });
    const r2 = await fetch(signedBody.url, { method: 'PUT', headers: signedBody.headers, body: 'y' });
    expect(r2.status).toBe(400);
    expect(await r2.text()).toContain('<Code>XAmzContentSHA256Mismatch</Code>');

    // A token whose prefix was rewritten to another attempt's fails its MAC.
    const [tag, payload, mac] = a.SecurityToken.split('.');
    const forgedPayload = Buffer.from(
      Buffer.from(payload!, 'base64url')
        .toString()
        .replace(a.prefix, a.prefix.replace(/\d+\/$/, '999/')),
    ).toString('base64url');
    const forged = await client({ ...a, SecurityToken: `${tag}.${forgedPayload}.${mac}` }).fetch(url(a, key), {
      method: 'PUT',
      body: 'x',
    });
    expect(forged.status).toBe(400);
    expect(await forged.text()).toContain('<Code>InvalidToken</Code>');

    const wrongSecret = await client({ ...a, AccessKeySecret: 'not-the-secret' }).fetch(url(a, key), {
      method: 'PUT',
      body: 'x',
    });
    expect(wrongSecret.status).toBe(403);
    expect(await wrongSecret.text()).toContain('<Code>SignatureDoesNotMatch</Code>');

    const unsigned = await fetch(url(a, key), { method: 'PUT', body: 'x' });
    expect(unsigned.status).toBe(403);

    // A computer whose clock is an hour off still uploads while the credential lives (the server's clock decides).
    const skewed = await client(a).fetch(url(a, `${a.prefix}frame/skewed.jpg`), {
      method: 'PUT',
      body: 'x',
      aws: { datetime: amz(t.now() - 3_600_000) },
    });
    expect(skewed.status, await skewed.clone().text()).toBe(200);

    // Past its Expiration the credential is refused even with a fresh signature.
    t.advance(15 * 60_000 + 1);
    const expired = await client(a).fetch(url(a, key), {
      method: 'PUT',
      body: 'x',
      aws: { datetime: amz(t.now()) },
    });
    expect(expired.status).toBe(400);
    expect(await expired.text()).toContain('<Code>ExpiredToken</Code>');
    expect(await t.store.get(key)).toBeNull();
  });

  it('works with @aws-sdk/client-s3 and its presigner, and serves presignGet URLs for exactly one key', async () => {
    const a = await sts(tokens.a);
    const s3 = new S3Client({
      endpoint: `${base}/storage`,
      region: a.region,
      forcePathStyle: true,
      credentials: { accessKeyId: a.AccessKeyId, secretAccessKey: a.AccessKeySecret, sessionToken: a.SecurityToken },
    });
    const key = `${a.prefix}screen/1.png`;
    await s3.send(new PutObjectCommand({ Bucket: a.bucket, Key: key, Body: Buffer.from('screen bytes') }));
    expect((await t.store.get(key))?.toString()).toBe('screen bytes');
    const out = await s3.send(new GetObjectCommand({ Bucket: a.bucket, Key: key }));
    expect(await out.Body!.transformToString()).toBe('screen bytes');
    await expect(
      s3.send(new PutObjectCommand({ Bucket: a.bucket, Key: `exams/${examId}/attempts/0/x.png`, Body: 'x' })),
    ).rejects.toMatchObject({ name: 'AccessDenied' });

    const putUrl = await getSignedUrl(
      s3,
      new PutObjectCommand({ Bucket: a.bucket, Key: `${a.prefix}signature/s.png` }),
      {
        expiresIn: 60,
      },
    );
    const put = await fetch(putUrl, { method: 'PUT', body: 'signature' });
    expect(put.status, await put.clone().text()).toBe(200);
    const getUrl = await getSignedUrl(s3, new GetObjectCommand({ Bucket: a.bucket, Key: key }), { expiresIn: 60 });
    expect(await (await fetch(getUrl)).text()).toBe('screen bytes');

    // The store's own presigned URL (signed for PUBLIC_URL's host) reads that key only, and only until it expires.
    const open = (u: string, method: 'GET' | 'PUT' = 'GET') => {
      const parsed = new URL(u);
      return t.app.inject({
        method,
        url: parsed.pathname + parsed.search,
        headers: { host: parsed.host },
        payload: method === 'PUT' ? 'x' : undefined,
      });
    };
    const presigned = await t.store.presignGet(key, 60);
    expect(presigned.startsWith(`${t.config.publicUrl}/storage/examhall/${key}?`)).toBe(true);
    expect(presigned).not.toContain(a.SecurityToken);
    const viewed = await open(presigned);
    expect(viewed.statusCode).toBe(200);
    expect(viewed.body).toBe('screen bytes');
    expect((await open(presigned.replace('screen/1.png', 'signature/s.png'))).statusCode).toBe(403);
    expect((await open(presigned, 'PUT')).statusCode).toBe(403);
    // Another API process on the same database signs with the same secret (it lives in the shared settings).
    const otherProcess = new LocalCredentials(
      t.db.handle.db,
      t.now,
      `${t.config.publicUrl}/storage`,
      'examhall',
      'local',
    );
    expect((await open(await otherProcess.presignGet(key, 60))).body).toBe('screen bytes');
    t.advance(61_000);
    const late = await open(presigned);
    expect(late.statusCode).toBe(400);
    expect(late.body).toContain('<Code>ExpiredToken</Code>');
  });

  it("answers CORS preflights and refuses bodies over their kind's limit or the store's, and keeps credentials out of the logs", async () => {
    const a = await sts(tokens.a);
    const pre = await fetch(url(a, `${a.prefix}frame/3.jpg`), {
      method: 'OPTIONS',
      headers: {
        origin: 'https://exam.example.com',
        'access-control-request-method': 'PUT',
        'access-control-request-headers': 'authorization,x-amz-date,x-amz-security-token,x-amz-content-sha256',
      },
    });
    expect(pre.status).toBe(204);
    expect(pre.headers.get('access-control-allow-methods')).toContain('PUT');
    expect(pre.headers.get('access-control-allow-headers')).toContain('x-amz-security-token');

    // A recording of a minute at the budgeted rate, the largest its kind may be; one byte more is refused.
    const recording = Buffer.alloc(RECORDING_BYTES_PER_MINUTE, 7);
    const ok = await client(a).fetch(url(a, `${a.prefix}byte/long.webm`), { method: 'PUT', body: recording });
    expect(ok.status, await ok.clone().text()).toBe(200);
    expect((await t.store.head(`${a.prefix}byte/long.webm`))?.size).toBe(recording.length);
    const over = await client(a).fetch(url(a, `${a.prefix}byte/longer.webm`), {
      method: 'PUT',
      body: Buffer.alloc(RECORDING_BYTES_PER_MINUTE + 1),
    });
    expect(over.status).toBe(413);
    expect(over.headers.get('access-control-allow-origin')).toBe('*');
    expect(await over.text()).toContain('<Code>evidence_too_large</Code>');
    // Past the store's own limit the body parser refuses it first.
    const big = Buffer.alloc(t.config.storageMaxObjectBytes + 1);
    const res = await client(a).fetch(url(a, `${a.prefix}frame/big.jpg`), { method: 'PUT', body: big });
    expect(res.status).toBe(400);
    expect(await res.text()).toContain('<Code>EntityTooLarge</Code>');

    const presigned = await t.store.presignGet(`${a.prefix}frame/none.jpg`, 60);
    await fetch(presigned.replace(t.config.publicUrl, base));
    const token = new URL(presigned).searchParams.get('X-Amz-Security-Token')!;
    expect(t.logs.join('')).not.toContain(token);
    expect(t.logs.join('')).not.toContain(a.SecurityToken);
  });

  it('answers clear 4xx for keys that are too long or clash with the file system, and 404 for a folder', async () => {
    const a = await sts(tokens.a);
    const put = (key: string, bytes: string | Buffer = 'x') =>
      client(a).fetch(url(a, key), { method: 'PUT', body: bytes });
    const codeOf = async (res: Response) => /<Code>([^<]+)<\/Code>/.exec(await res.text())?.[1];

    // A segment one byte over the file system's name limit, and a key over S3's 1024 bytes.
    const longSegment = await put(`${a.prefix}frame/${'a'.repeat(252)}.jpg`);
    expect(longSegment.status).toBe(400);
    expect(await codeOf(longSegment)).toBe('KeyTooLongError');
    const longKey = await put(`${a.prefix}${'frame/'.repeat(200)}x.jpg`);
    expect(longKey.status).toBe(400);
    expect(await codeOf(longKey)).toBe('KeyTooLongError');
    // Exactly at the segment limit is fine (its temp file must find room too).
    const atLimit = await put(`${a.prefix}frame/${'a'.repeat(251)}.jpg`);
    expect(atLimit.status, await atLimit.clone().text()).toBe(200);

    expect((await put(`${a.prefix}frame/1.jpg`, 'a frame')).status).toBe(200);
    // The key of a folder: PUT, GET and HEAD.
    const onFolder = await put(`${a.prefix}frame`);
    expect(onFolder.status).toBe(409);
    expect(await codeOf(onFolder)).toBe('XMinioObjectExistsAsDirectory');
    const getFolder = await client(a).fetch(url(a, `${a.prefix}frame`));
    expect(getFolder.status).toBe(404);
    expect(await codeOf(getFolder)).toBe('NoSuchKey');
    expect((await client(a).fetch(url(a, `${a.prefix}frame`), { method: 'HEAD' })).status).toBe(404);
    // A key under an existing object: PUT, GET and HEAD.
    const underObject = await put(`${a.prefix}frame/1.jpg/2.jpg`);
    expect(underObject.status).toBe(400);
    expect(await codeOf(underObject)).toBe('XMinioParentIsObject');
    expect((await client(a).fetch(url(a, `${a.prefix}frame/1.jpg/2.jpg`))).status).toBe(404);
    expect((await client(a).fetch(url(a, `${a.prefix}frame/1.jpg/2.jpg`), { method: 'HEAD' })).status).toBe(404);
    // Nothing was lost or changed.
    expect((await t.store.get(`${a.prefix}frame/1.jpg`))?.toString()).toBe('a frame');
    expect(t.logs.join('')).not.toContain('storage request failed');
  });

  it('never answers 5xx to signed requests for random long, odd and clashing keys', async () => {
    const a = await sts(tokens.a);
    // Few short names make folder/object clashes likely; long runs and odd characters probe the limits.
    const segment = fc.oneof(
      fc.constantFrom('a', 'b', 'a.jpg', '.', '..', '~tmp', ''),
      fc.string({ minLength: 1, maxLength: 8 }),
      fc.integer({ min: 250, max: 1100 }).map((n) => 'x'.repeat(n)),
      fc.string({ unit: 'binary', minLength: 1, maxLength: 12 }),
    );
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom('GET', 'HEAD', 'PUT'),
        fc.array(segment, { minLength: 1, maxLength: 6 }),
        async (method, segments) => {
          const key = `${a.prefix}${segments.join('/')}`;
          const res = await client(a).fetch(objectUrlOf(a, key), {
            method,
            ...(method === 'PUT' ? { body: 'x' } : {}),
          });
          expect(res.status, `${method} ${key.slice(0, 120)}: ${await res.text()}`).toBeLessThan(500);
        },
      ),
      { numRuns: 120 },
    );
    expect(t.logs.join('')).not.toContain('storage request failed');
  });

  it('never answers 5xx to malformed paths, signatures, tokens and queries', async () => {
    const a = await sts(tokens.a);
    const good = await client(a).sign(url(a, `${a.prefix}frame/f.jpg`), { method: 'PUT', body: 'x' });
    const goodAuth = good.headers.get('authorization')!;
    const text = fc.oneof(fc.string({ maxLength: 60 }), fc.constantFrom('', '%', '%ZZ', '..', 'examhall', a.prefix));
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom('GET', 'HEAD', 'PUT', 'OPTIONS') as fc.Arbitrary<'GET' | 'HEAD' | 'PUT' | 'OPTIONS'>,
        fc.array(text, { maxLength: 4 }),
        fc.oneof(
          fc.constant(undefined),
          text,
          text.map((v) => goodAuth.replace(/Credential=[^,]+/, `Credential=${v}`)),
          text.map((v) => goodAuth.replace(/SignedHeaders=[^,]+/, `SignedHeaders=${v}`)),
        ),
        fc.record(
          {
            'x-amz-security-token': fc.oneof(
              text,
              fc.constant(a.SecurityToken),
              text.map((v) => `ehs1.${v}.${v}`),
            ),
            'x-amz-date': fc.oneof(text, fc.constant('20261121T020000Z')),
            'x-amz-content-sha256': fc.oneof(text, fc.constant('UNSIGNED-PAYLOAD'), fc.constant('STREAMING-X')),
          },
          { requiredKeys: [] },
        ),
        fc.array(
          fc.tuple(
            fc.constantFrom(
              'X-Amz-Algorithm',
              'X-Amz-Credential',
              'X-Amz-Expires',
              'X-Amz-Date',
              'X-Amz-SignedHeaders',
              'X-Amz-Security-Token',
              'X-Amz-Signature',
              'x',
            ),
            text,
          ),
          { maxLength: 5 },
        ),
        async (method, segments, authorization, headers, query) => {
          const qs = query.map(([k, v]) => `${k}=${encodeURIComponent(v)}`).join('&');
          const res = await t.app.inject({
            method,
            url: `/storage/${segments.map(encodeURIComponent).join('/')}${qs ? `?${qs}` : ''}`,
            headers: { ...headers, ...(authorization !== undefined ? { authorization } : {}) },
            ...(method === 'PUT' ? { payload: 'x' } : {}),
          });
          expect(res.statusCode, res.body).toBeLessThan(500);
        },
      ),
      { numRuns: 150 },
    );
  });
});

describe.each(await testedDialects())("an attempt's storage quota on the local store on %s", (dialect) => {
  let t: TestApp;
  let base: string;
  let examId: number;
  let tokens: { a: string; b: string };

  beforeEach(async () => {
    // A small ceiling so the test fills it: 3 objects, 1 MB.
    t = await createTestApp(dialect, { env: { STORAGE_QUOTA_MAX_OBJECTS: '3', STORAGE_QUOTA_MAX_MB: '1' } });
    ({ base, examId, tokens } = await twoStarted(t));
  });
  afterEach(async () => t.close());

  const sts = (tok: string) => candidateSts(t, examId, tok);
  const put = (c: StsData, name: string, bytes: Buffer | string) => stsPut(base, c, name, bytes);

  it('refuses PUTs past the object count with QuotaExceeded, takes a retry of a stored object, and leaves other attempts alone', async () => {
    const a = await sts(tokens.a);
    for (const n of [1, 2, 3]) expect((await put(a, `frame/${n}.jpg`, `frame ${n}`)).status).toBe(200);
    const over = await put(a, 'frame/4.jpg', 'frame 4');
    expect(over.status).toBe(403);
    const text = await over.text();
    expect(text).toContain('<Code>QuotaExceeded</Code>');
    expect(await t.store.head(`${a.prefix}frame/4.jpg`)).toBeNull();
    // A retry of an object already stored (its answer was lost) still succeeds at the quota.
    expect((await put(a, 'frame/3.jpg', 'frame 3')).status).toBe(200);
    // Fresh credentials do not reset the count.
    expect((await put(await sts(tokens.a), 'frame/5.jpg', 'frame 5')).status).toBe(403);
    // Another attempt has its own quota.
    const b = await sts(tokens.b);
    expect((await put(b, 'frame/1.jpg', 'b frame')).status).toBe(200);
  });

  it('refuses PUTs past the byte quota, counting neither refused nor clashing writes', async () => {
    const a = await sts(tokens.a);
    const big = Buffer.alloc(600 * 1024, 1);
    expect((await put(a, 'screen/1.jpg', big)).status).toBe(200);
    const over = await put(a, 'screen/2.jpg', big);
    expect(over.status).toBe(403);
    expect(await over.text()).toContain('<Code>QuotaExceeded</Code>');
    // A write refused for another reason (the key names a folder) gives its share back.
    expect((await put(a, 'screen', 'x')).status).toBe(409);
    const small = Buffer.alloc(300 * 1024, 2);
    expect((await put(a, 'screen/3.jpg', small)).status).toBe(200);
    expect((await put(a, 'screen/4.jpg', Buffer.alloc(200 * 1024))).status).toBe(403);
    const row = await t.db.handle.db
      .selectFrom('storage_usage')
      .selectAll()
      .where('prefix', '=', a.prefix)
      .executeTakeFirstOrThrow();
    expect({ bytes: Number(row.bytes), objects: Number(row.objects) }).toEqual({
      bytes: big.length + small.length,
      objects: 2,
    });
  });
});
