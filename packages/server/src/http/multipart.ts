import type { FastifyRequest } from 'fastify';
import type { z } from 'zod';
import type { Upload } from '../services/profile.js';
import { AppError, fail } from '../errors.js';

/** The first problem of a failed parse as `field: message`. */
export function firstProblem(error: z.ZodError): string {
  const first = error.issues[0];
  return `${first?.path.join('.') || 'fields'}: ${first?.message ?? 'invalid'}`;
}

/** A size as people read it: `20 MB` for whole megabytes, bytes otherwise. */
function sizeText(bytes: number): string {
  const mb = bytes / (1024 * 1024);
  return Number.isInteger(mb) ? `${mb} MB` : `${bytes} bytes`;
}

/**
 * Reads the one file of a multipart request (form field `field`) with the text fields sent before it;
 * refuses a file over `maxBytes` (default: the app's multipart limit) and a body that is not well-formed
 * multipart, each with a clear 4xx.
 */
export async function readUpload(
  request: FastifyRequest,
  opts: { field: string; maxBytes?: number | undefined },
): Promise<{ file: Upload; fields: Record<string, string> }> {
  const { field } = opts;
  const tooLarge = () =>
    fail(
      'payload_too_large',
      opts.maxBytes === undefined ? `${field}: too large` : `${field}: over the limit of ${sizeText(opts.maxBytes)}`,
    );
  if (!request.isMultipart())
    throw fail('unsupported_media_type', `body: send multipart/form-data with a field named ${field}`);
  let part: Awaited<ReturnType<FastifyRequest['file']>>;
  let data: Buffer;
  try {
    part = await request.file(opts.maxBytes === undefined ? undefined : { limits: { fileSize: opts.maxBytes } });
    if (!part || part.fieldname !== field) throw fail('validation_error', `${field}: is required`);
    data = await part.toBuffer();
  } catch (err) {
    if (err instanceof AppError) throw err;
    // A body that is not well-formed multipart (no boundary, cut off, broken headers) is the sender's fault.
    const status = (err as { statusCode?: number }).statusCode;
    if (status === 413) throw tooLarge();
    throw fail('validation_error', `body: malformed multipart (${(err as Error).message})`);
  }
  if (part.file.truncated) throw tooLarge();
  const fields: Record<string, string> = {};
  for (const [name, value] of Object.entries(part.fields)) {
    const v = Array.isArray(value) ? value[0] : value;
    if (v && v.type === 'field') fields[name] = String(v.value);
  }
  return { file: { fileName: part.filename, mime: part.mimetype, data }, fields };
}
