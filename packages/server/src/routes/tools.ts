import { api } from '@examhall/contract';
import type { FastifyInstance } from 'fastify';
import { uploadRoute } from '../http/route.js';
import type { Services } from '../services/index.js';

/** Tools the exam page calls: the face check. */
export function toolsRoutes(app: FastifyInstance, s: Services): void {
  uploadRoute(app, s, api.faceRecognize, async ({ body, file, candidate }) =>
    s.faceCheck.recognize(candidate, body.exam_id, file.data),
  );
}
