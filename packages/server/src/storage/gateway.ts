/**
 * The local store over HTTP, speaking enough of the S3 protocol for browsers and SDKs: PUT, GET and HEAD of
 * `/storage/{bucket}/{key}` signed with AWS Signature V4 (header or presigned query string) using the
 * short-lived credentials of /sts/get-token, S3-style XML errors and CORS.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../config.js';
import { AppError } from '../errors.js';
import type { ProctorNotifier } from '../proctoring/notifier.js';
import type { StorageUsageRepository } from '../repositories/storageUsage.js';
import { kindOfName, OBJECT_MAX_BYTES, type BudgetKind } from './budget.js';
import { grantAllows, StorageDenied, type StorageGrant } from './localCredentials.js';
import { checkKey, InvalidKeyError, KeyConflictError, type LocalObjectStore } from './objectStore.js';
import { readClaim, sha256Hex, SigV4FormatError, UNSIGNED_PAYLOAD } from './sigv4.js';

/** The local store's only bucket. */
export const LOCAL_BUCKET = 'examhall';
/** The region the local store signs with (any name works; SigV4 only needs client and store to agree). */
export const LOCAL_REGION = 'local';
/** Where the local store is served, outside the API prefix. */
export const STORAGE_PATH = '/storage';

/** The local store's endpoint as clients see it. */
export function localStorageEndpoint(config: Pick<Config, 'publicUrl'>): string {
  return `${config.publicUrl.replace(/\/+$/, '')}${STORAGE_PATH}`;
}

const MIME: Record<string, string> = {
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  png: 'image/png',
  webp: 'image/webp',
  gif: 'image/gif',
  webm: 'video/webm',
  ogg: 'audio/ogg',
  wav: 'audio/wav',
  mp3: 'audio/mpeg',
  m4a: 'audio/mp4',
  pdf: 'application/pdf',
};

function xmlEscape(s: string): string {
  return s.replace(/[<>&'"]/g, (c) => `&#${c.charCodeAt(0)};`);
}

function s3Error(reply: FastifyReply, status: number, code: string, message: string, resource: string): FastifyReply {
  const requestId = randomBytes(8).toString('hex').toUpperCase();
  reply.code(status).header('x-amz-request-id', requestId).type('application/xml');
  if (reply.request.method === 'HEAD') return reply.send();
  return reply.send(
    `<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>${code}</Code><Message>${xmlEscape(message)}</Message>` +
      `<Resource>${xmlEscape(resource)}</Resource><RequestId>${requestId}</RequestId></Error>`,
  );
}

const DENIED_STATUS: Record<StorageDenied['code'], number> = {
  AccessDenied: 403,
  ExpiredToken: 400,
  InvalidToken: 400,
  SignatureDoesNotMatch: 403,
  InvalidAccessKeyId: 403,
  RequestTimeTooSkewed: 403,
};

/** A key under an attempt's prefix (services/chain.ts attemptPrefix), or the prefix: the attempt id and the name below. */
const ATTEMPT_KEY = /^exams\/\d+\/attempts\/(\d+)\/(.*)$/;

/** The refusal of an object larger than its kind may be (storage/budget.ts). */
function tooLarge(reply: FastifyReply, kind: BudgetKind, resource: string): FastifyReply {
  const limit = OBJECT_MAX_BYTES[kind];
  return s3Error(reply, 413, 'evidence_too_large', `a ${kind} object is at most ${limit} bytes`, resource);
}

function headerMap(request: FastifyRequest): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(request.headers)) {
    if (v !== undefined) out[k.toLowerCase()] = Array.isArray(v) ? v.join(',') : v;
  }
  return out;
}

/**
 * Serves `store` at /storage; bodies larger than `maxBytes` are refused with EntityTooLarge, an object larger than its
 * kind may be with 413 evidence_too_large, a PUT past its attempt's quota (kept in `usage`) with QuotaExceeded, and
 * one the disk has no room for above its reserve with 503 storage_full, which `notifier` tells the attempt's
 * proctors (their console reads the store's room again).
 */
export async function storageGateway(
  app: FastifyInstance,
  store: LocalObjectStore,
  maxBytes: number,
  usage: StorageUsageRepository,
  notifier: ProctorNotifier,
): Promise<void> {
  const credentials = store.credentials;
  if (!credentials) return;
  // Logged when the store starts refusing and when it takes objects again, not at every refusal.
  let full = false;
  const refusedFull = (request: FastifyRequest, grant: StorageGrant | undefined) => {
    if (!full) request.log.warn('the local store is down to its disk reserve (STORAGE_RESERVE_MB): evidence waits');
    full = true;
    const attemptId = Number(ATTEMPT_KEY.exec(grant?.prefix ?? '')?.[1]);
    if (attemptId > 0) notifier.announce({ type: 'attempt', attemptId });
  };
  await app.register(async (s) => {
    // Objects are opaque bytes whatever their content type says.
    s.removeAllContentTypeParsers();
    s.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: maxBytes }, (_req, body, done) => done(null, body));
    s.setErrorHandler((err: { statusCode?: number; message: string }, request, reply) => {
      const resource = request.url.split('?')[0] ?? '';
      if (err.statusCode === 413)
        return s3Error(reply, 400, 'EntityTooLarge', `objects are limited to ${maxBytes} bytes`, resource);
      if (err.statusCode && err.statusCode < 500) return s3Error(reply, 400, 'InvalidRequest', err.message, resource);
      request.log.error({ err }, 'storage request failed');
      return s3Error(reply, 500, 'InternalError', 'we encountered an internal error, please try again', resource);
    });
    s.addHook('onRequest', async (request, reply) => {
      reply.header('access-control-allow-origin', '*');
      reply.header('access-control-expose-headers', 'ETag, Content-Length, x-amz-request-id');
      reply.header('vary', 'Origin');
    });
    // A declared length over the object's kind is refused before its body is read (the handler checks the bytes too).
    s.addHook('onRequest', async (request, reply) => {
      if (request.method !== 'PUT') return;
      const length = Number(request.headers['content-length']);
      // Past the store's own limit the body parser answers EntityTooLarge.
      if (!Number.isFinite(length) || length > maxBytes) return;
      const rawPath = request.url.split('?')[0] ?? '';
      const rest = rawPath.slice(STORAGE_PATH.length + 1);
      let name: string | undefined;
      try {
        name = ATTEMPT_KEY.exec(decodeURIComponent(rest.slice(rest.indexOf('/') + 1)))?.[2];
      } catch {
        return;
      }
      if (name === undefined) return;
      const kind = kindOfName(name);
      if (length > OBJECT_MAX_BYTES[kind]) return tooLarge(reply, kind, rawPath);
    });
    s.options(`${STORAGE_PATH}/*`, async (request, reply) => {
      reply
        .header('access-control-allow-methods', 'GET, HEAD, PUT')
        .header('access-control-allow-headers', request.headers['access-control-request-headers'] ?? '*')
        .header('access-control-max-age', '600')
        .code(204)
        .send();
    });
    s.route({
      method: ['GET', 'HEAD', 'PUT'],
      url: `${STORAGE_PATH}/*`,
      exposeHeadRoute: false,
      handler: async (request, reply) => {
        const raw = request.raw.url ?? '';
        const q = raw.indexOf('?');
        const rawPath = q < 0 ? raw : raw.slice(0, q);
        const rawQuery = q < 0 ? '' : raw.slice(q + 1);
        const rest = rawPath.slice(STORAGE_PATH.length + 1);
        const slash = rest.indexOf('/');
        const bucket = slash < 0 ? rest : rest.slice(0, slash);
        if (bucket !== credentials.bucket)
          return s3Error(reply, 404, 'NoSuchBucket', 'the bucket does not exist', rawPath);
        let key: string;
        try {
          key = checkKey(decodeURIComponent(slash < 0 ? '' : rest.slice(slash + 1)));
        } catch (err) {
          if (err instanceof InvalidKeyError && err.tooLong)
            return s3Error(reply, 400, 'KeyTooLongError', err.message, rawPath);
          return s3Error(
            reply,
            400,
            'InvalidArgument',
            err instanceof InvalidKeyError ? err.message : 'the key is not valid percent-encoding',
            rawPath,
          );
        }
        const headers = headerMap(request);
        let grant: StorageGrant | undefined;
        try {
          const claim = readClaim(request.method, rawPath, rawQuery, headers);
          grant = await credentials.verify(claim);
          if (request.method === 'PUT') {
            const body = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
            if (claim.payloadHash.startsWith('STREAMING-'))
              return s3Error(reply, 501, 'NotImplemented', 'send the object in one request, not aws-chunked', rawPath);
            // Hashed once: the signature's check and the digest the recording call reads (LocalObjectStore.digest).
            const sha256 = sha256Hex(body);
            if (claim.payloadHash !== UNSIGNED_PAYLOAD && claim.payloadHash !== sha256)
              return s3Error(
                reply,
                400,
                'XAmzContentSHA256Mismatch',
                'the provided x-amz-content-sha256 does not match what was computed',
                rawPath,
              );
            if (!grantAllows(grant, key, 'write'))
              return s3Error(reply, 403, 'AccessDenied', 'the credentials do not reach this key', rawPath);
            const kind = kindOfName(key.slice(grant.prefix.length));
            if (body.length > OBJECT_MAX_BYTES[kind]) return tooLarge(reply, kind, rawPath);
            // Before it is counted: a full disk is not the attempt's doing, and its quota stays whole for later.
            await store.ensureRoom(body.length);
            // Counted before the write, so concurrent uploads cannot pass the quota together.
            const counted = await usage.reserve(grant.prefix, body.length);
            if (counted === 'none')
              return s3Error(reply, 403, 'AccessDenied', 'the credentials carry no storage quota', rawPath);
            let created = false;
            try {
              if (counted === 'ok') created = await store.create(key, body, sha256);
            } finally {
              if (counted === 'ok' && !created) await usage.release(grant.prefix, body.length);
            }
            // Evidence is write-once: a recorded picture cannot be swapped for another with the same key.
            // Sending the same bytes again (a retry whose answer was lost) succeeds, at the quota too.
            if (!created && (await store.get(key))?.equals(body) !== true) {
              if (counted === 'over')
                return s3Error(
                  reply,
                  403,
                  'QuotaExceeded',
                  "the attempt's storage quota is used up: no more objects are accepted",
                  rawPath,
                );
              return s3Error(
                reply,
                403,
                'AccessDenied',
                'objects are write-once: this key already holds other bytes',
                rawPath,
              );
            }
            if (full) request.log.info('the local store takes evidence again');
            full = false;
            const etag = `"${createHash('md5').update(body).digest('hex')}"`;
            return reply.code(200).header('etag', etag).send();
          }
        } catch (err) {
          if (err instanceof SigV4FormatError) return s3Error(reply, 403, 'AccessDenied', err.message, rawPath);
          // Not the upload's fault and not for good: the page keeps the object and sends it again later.
          if (err instanceof AppError && err.code === 'storage_full') {
            refusedFull(request, grant);
            return s3Error(reply, 503, 'storage_full', err.message, rawPath);
          }
          if (err instanceof StorageDenied)
            return s3Error(reply, DENIED_STATUS[err.code], err.code, err.message, rawPath);
          // The codes MinIO answers with for the same clashes on its file-system backend.
          if (err instanceof KeyConflictError)
            return err.kind === 'folder'
              ? s3Error(reply, 409, 'XMinioObjectExistsAsDirectory', err.message, rawPath)
              : s3Error(reply, 400, 'XMinioParentIsObject', err.message, rawPath);
          throw err;
        }
        if (!grantAllows(grant, key, 'read'))
          return s3Error(reply, 403, 'AccessDenied', 'the credentials do not reach this key', rawPath);
        const found = await store.stream(key);
        if (!found) return s3Error(reply, 404, 'NoSuchKey', 'the specified key does not exist', rawPath);
        const ext = key.slice(key.lastIndexOf('.') + 1).toLowerCase();
        reply
          .code(200)
          .header('content-length', String(found.size))
          .header('cache-control', 'private, max-age=60')
          .type(MIME[ext] ?? 'application/octet-stream');
        if (request.method === 'HEAD') {
          found.stream.destroy();
          return reply.send();
        }
        return reply.send(found.stream);
      },
    });
  });
}
