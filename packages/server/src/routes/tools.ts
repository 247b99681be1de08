import { api } from '@examhall/contract';
import type { FastifyInstance } from 'fastify';
import { FACE_IMG_MAX_BYTES } from '../services/faceCheck.js';
import { fail } from '../http/errors.js';
import { route } from '../http/route.js';
import type { Services } from '../services/index.js';
import { readUpload } from './answer.js';

/** Tools the exam page calls: the face check. */
export function toolsRoutes(app: FastifyInstance, s: Services): void {
  route(app, s, api.faceRecognize, async ({ request, candidate }) => {
    const { file, fields } = await readUpload(request, { field: 'face_img', maxBytes: FACE_IMG_MAX_BYTES });
    const parsed = api.faceRecognize.body.safeParse(fields);
    if (!parsed.success) {
      const first = parsed.error.issues[0];
      throw fail('validation_error', `${first?.path.join('.') ?? 'fields'}: ${first?.message ?? 'invalid'}`);
    }
    return s.faceCheck.recognize(candidate, parsed.data.exam_id, file.data);
  });
}
