import { createHash } from 'node:crypto';
import fs from 'node:fs';
import { Readable } from 'node:stream';
import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadBucketCommand,
  HeadObjectCommand,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
} from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import type { S3Config } from '../config.js';
import { fail, type AppError } from '../errors.js';
import { checkKey, type ObjectStore } from './objectStore.js';
import { streamDigest, type StoredDigest } from './digest.js';

function isNotFound(err: unknown): boolean {
  return (
    err instanceof S3ServiceException &&
    (err.name === 'NoSuchKey' || err.name === 'NotFound' || err.$metadata.httpStatusCode === 404)
  );
}

/**
 * The store did not answer, or answered with its own failure: a request that needs it can be made again later, so
 * callers see 503 `storage_unavailable` (a page keeps what it was sending) rather than a server error.
 */
function unavailable(err: unknown): AppError {
  return Object.assign(fail('storage_unavailable'), { cause: err });
}

/** Object storage on an S3-compatible server (a cluster's shared store). */
export class S3ObjectStore implements ObjectStore {
  /** The client, also used by tests to look at the bucket directly. */
  readonly client: S3Client;
  private readonly bucket: string;

  constructor(
    config: Pick<S3Config, 'endpoint' | 'bucket' | 'region' | 'accessKeyId' | 'secretAccessKey' | 'forcePathStyle'>,
  ) {
    this.bucket = config.bucket;
    this.client = new S3Client({
      endpoint: config.endpoint,
      region: config.region,
      forcePathStyle: config.forcePathStyle,
      credentials: { accessKeyId: config.accessKeyId, secretAccessKey: config.secretAccessKey },
    });
  }

  async probe(signal?: AbortSignal): Promise<void> {
    await this.client.send(new HeadBucketCommand({ Bucket: this.bucket }), signal ? { abortSignal: signal } : {});
  }

  async put(key: string, data: Buffer): Promise<{ sha256: string; size: number }> {
    const checked = checkKey(key);
    await this.client
      .send(new PutObjectCommand({ Bucket: this.bucket, Key: checked, Body: data }))
      .catch((err: unknown) => {
        throw unavailable(err);
      });
    return { sha256: createHash('sha256').update(data).digest('hex'), size: data.length };
  }

  async putFile(key: string, file: string): Promise<{ size: number }> {
    const { size } = await fs.promises.stat(file);
    await this.client.send(
      new PutObjectCommand({
        Bucket: this.bucket,
        Key: checkKey(key),
        Body: fs.createReadStream(file),
        ContentLength: size,
      }),
    );
    return { size };
  }

  async get(key: string): Promise<Buffer | null> {
    const checked = checkKey(key);
    try {
      const out = await this.client.send(new GetObjectCommand({ Bucket: this.bucket, Key: checked }));
      if (!out.Body) return Buffer.alloc(0);
      return Buffer.from(await out.Body.transformToByteArray());
    } catch (err) {
      if (isNotFound(err)) return null;
      throw unavailable(err);
    }
  }

  /** Read as a stream: S3-compatible storage keeps no SHA-256 of an object a browser put without one. */
  digest(key: string, maxBytes?: number): Promise<StoredDigest | null> {
    return streamDigest(this, key, maxBytes);
  }

  async stream(key: string): Promise<{ stream: Readable; size: number } | null> {
    const checked = checkKey(key);
    try {
      const out = await this.client.send(new GetObjectCommand({ Bucket: this.bucket, Key: checked }));
      const body = out.Body;
      // In Node the SDK answers an IncomingMessage (a Readable); anything else is read whole.
      const stream =
        body instanceof Readable ? body : Readable.from(Buffer.from((await body?.transformToByteArray()) ?? []));
      return { stream, size: out.ContentLength ?? 0 };
    } catch (err) {
      if (isNotFound(err)) return null;
      throw unavailable(err);
    }
  }

  async head(key: string): Promise<{ size: number } | null> {
    const checked = checkKey(key);
    try {
      const out = await this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key: checked }));
      return { size: out.ContentLength ?? 0 };
    } catch (err) {
      if (isNotFound(err)) return null;
      throw unavailable(err);
    }
  }

  /** False: S3 takes any PUT the credentials allow, so the recording step counts the quota. */
  readonly countsUploads = false;

  async spaceLeft(): Promise<null> {
    // The provider's capacity is not this machine's disk: the database never shares it.
    return null;
  }

  async delete(key: string): Promise<void> {
    const checked = checkKey(key);
    await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: checked })).catch((err: unknown) => {
      throw unavailable(err);
    });
  }

  async presignGet(key: string, ttlSeconds: number): Promise<string> {
    return getSignedUrl(this.client, new GetObjectCommand({ Bucket: this.bucket, Key: checkKey(key) }), {
      expiresIn: ttlSeconds,
    });
  }
}
