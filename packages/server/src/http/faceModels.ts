/**
 * The face models and WASM binaries the exam page's monitor loads on demand (web: proctor/faceMonitor.ts), from
 * this server and never a CDN: the models @vladmandic/human ships, made exactly as the server's engine runs them
 * (loadModelArtifacts: the face detector at half its input, the object detector at its smaller input, the face
 * description fused), so the browser and
 * the server see a picture alike. Each file is built once per process and kept in memory (about 5 MB).
 */
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { sendError } from './errorHandler.js';
import {
  FACE_ENGINE_DEFAULTS,
  humanModelsDir,
  loadModelArtifacts,
  wasmDir,
  type FaceEngineOptions,
} from '../proctoring/face/engine.js';

/** Where the files are served (outside the API prefix, like the web app's own files). */
export const FACE_MODELS_PATH = '/face-models/';

/** The models the monitor runs: face detector, face description, object detector (phones). */
const MODELS = ['blazeface', 'faceres', 'centernet'] as const;

/** The backend's binaries: tfjs picks the SIMD one where the browser has SIMD. */
const WASM_FILES = ['tfjs-backend-wasm.wasm', 'tfjs-backend-wasm-simd.wasm', 'tfjs-backend-wasm-threaded-simd.wasm'];

/** Models change only with the package: a day of caching, revalidated by ETag after. */
const CACHE = 'public, max-age=86400';

interface Served {
  type: string;
  body: Buffer;
  etag: string;
}

function served(type: string, body: Buffer): Served {
  return { type, body, etag: `"${createHash('sha256').update(body).digest('hex').slice(0, 32)}"` };
}

/** The files of one model as served: its JSON naming one weights file, and that file. */
async function modelFiles(name: string, options: FaceEngineOptions): Promise<[string, Served][]> {
  const { model, weights } = await loadModelArtifacts(join(humanModelsDir(), `${name}.json`), options);
  const json = {
    ...model,
    weightsManifest: [{ paths: [`${name}.bin`], weights: model.weightsManifest.flatMap((g) => g.weights) }],
  };
  return [
    [`${name}.json`, served('application/json', Buffer.from(JSON.stringify(json)))],
    [`${name}.bin`, served('application/octet-stream', weights)],
  ];
}

/** Builds every file once, on the first request. */
async function buildAll(options: FaceEngineOptions): Promise<Map<string, Served>> {
  const files = new Map<string, Served>();
  for (const name of MODELS) for (const [file, s] of await modelFiles(name, options)) files.set(file, s);
  for (const file of WASM_FILES) files.set(file, served('application/wasm', await readFile(join(wasmDir(), file))));
  return files;
}

/** Registers GET /face-models/:file. */
export function faceModelRoutes(app: FastifyInstance, options: FaceEngineOptions = FACE_ENGINE_DEFAULTS): void {
  let files: Promise<Map<string, Served>> | null = null;
  app.get<{ Params: { file: string } }>(`${FACE_MODELS_PATH}:file`, async (request, reply) => {
    files ??= buildAll(options).catch((err: unknown) => {
      files = null;
      throw err;
    });
    const file = (await files).get(request.params.file);
    if (!file) return sendError(reply, 404, 'not_found', `no such face model file: ${request.params.file}`);
    reply.header('cache-control', CACHE).header('etag', file.etag);
    if (request.headers['if-none-match'] === file.etag) return reply.code(304).send();
    return reply.type(file.type).send(file.body);
  });
}
