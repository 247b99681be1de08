import { api } from '@examhall/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { AppError, fail } from '../http/errors.js';
import { route } from '../http/route.js';
import type { Services } from '../services/index.js';
import type { Upload } from '../services/profile.js';

/**
 * Reads the one file of a multipart request (form field `field`, default `file`) with its text fields sent
 * before it; refuses a file over the size limit (`maxBytes`, default the app's multipart limit).
 */
export async function readUpload(
  request: FastifyRequest,
  opts: { field?: string; maxBytes?: number } = {},
): Promise<{ file: Upload; fields: Record<string, string> }> {
  const field = opts.field ?? 'file';
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
    if (status === 413) throw fail('payload_too_large', `${field}: too large`);
    throw fail('validation_error', `body: malformed multipart (${(err as Error).message})`);
  }
  if (part.file.truncated) throw fail('payload_too_large', `${field}: too large`);
  const fields: Record<string, string> = {};
  for (const [name, value] of Object.entries(part.fields)) {
    const v = Array.isArray(value) ? value[0] : value;
    if (v && v.type === 'field') fields[name] = String(v.value);
  }
  return { file: { fileName: part.filename, mime: part.mimetype, data }, fields };
}

const UploadFields = z.object({
  exam_id: z.coerce.number().int().positive(),
  subject_id: z.coerce.number().int().positive(),
});

/** Saving answers, attaching files, running and submitting code. */
export function answerRoutes(app: FastifyInstance, s: Services): void {
  route(app, s, api.answer, async ({ body, candidate }) => s.answers.save(candidate, body));
  route(app, s, api.judge, async ({ body, candidate }) => s.judge.start(candidate, body));
  route(app, s, api.judgeStatus, async ({ query, candidate }) =>
    s.judge.status(candidate, query.exam_id, query.job_id),
  );
  route(app, s, api.judgeLatest, async ({ query, candidate }) =>
    s.judge.latest(candidate, query.exam_id, query.subject_id),
  );
  route(app, s, api.uploadAnswerFile, async ({ request, candidate }) => {
    const { file, fields } = await readUpload(request);
    const parsed = UploadFields.safeParse(fields);
    if (!parsed.success) {
      const first = parsed.error.issues[0];
      throw fail('validation_error', `${first?.path.join('.') ?? 'fields'}: ${first?.message ?? 'invalid'}`);
    }
    return s.answers.upload(candidate, parsed.data.exam_id, parsed.data.subject_id, file);
  });
}
