/**
 * The files the exam page's face monitor loads: the server's models as its engine runs them (the face detector
 * run at half its input, the object detector at its smaller input and on phones only, the face description
 * fused), each JSON naming one weights file of the right length, and the WASM backend's binaries, served with
 * their types and cached by ETag.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FACE_ENGINE_DEFAULTS } from '../proctoring/face/engine.js';
import { createTestApp, type TestApp } from '../test/app.js';
import { testedDialects } from '../test/db.js';

interface ServedModel {
  modelTopology: { node: { op: string; attr?: { shape?: { shape?: { dim?: { size: string }[] } } } }[] };
  weightsManifest: {
    paths: string[];
    weights: { name: string; shape: number[]; dtype: string; quantization?: { dtype: string } }[];
  }[];
  signature?: { inputs?: Record<string, { tensorShape?: { dim?: { size: string }[] } }> };
}

/** Bytes the manifest says its weights take. */
function manifestBytes(model: ServedModel): number {
  return model.weightsManifest
    .flatMap((g) => g.weights)
    .reduce((n, w) => {
      const dtype = w.quantization?.dtype ?? w.dtype;
      const size = dtype === 'uint8' || dtype === 'int8' || dtype === 'bool' ? 1 : dtype.endsWith('16') ? 2 : 4;
      return n + w.shape.reduce((a, d) => a * d, 1) * size;
    }, 0);
}

describe.each(await testedDialects())('/face-models on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect);
  });
  afterAll(async () => t.close());

  const get = (file: string, headers: Record<string, string> = {}) =>
    t.app.inject({ url: `/face-models/${file}`, headers });

  it('serves each model as the engine runs it, its weights in one file', async () => {
    for (const name of ['blazeface', 'faceres', 'centernet']) {
      const json = await get(`${name}.json`);
      expect(json.statusCode, name).toBe(200);
      expect(json.headers['content-type']).toMatch(/^application\/json/);
      const model = json.json<ServedModel>();
      expect(model.weightsManifest.map((g) => g.paths)).toEqual([[`${name}.bin`]]);
      const bin = await get(`${name}.bin`);
      expect(bin.statusCode).toBe(200);
      expect(bin.rawPayload.length, name).toBe(manifestBytes(model));
      if (name === 'centernet') {
        const dims = Object.values(model.signature?.inputs ?? {})[0]?.tensorShape?.dim?.map((d) => d.size);
        expect(dims?.slice(1, 3)).toEqual([
          String(FACE_ENGINE_DEFAULTS.objectInput),
          String(FACE_ENGINE_DEFAULTS.objectInput),
        ]);
      }
      if (name === 'blazeface') {
        // declared at the file's 256 (human's anchors and face crops), run at half behind an average pooling
        const input = model.modelTopology.node.find((n) => n.op === 'Placeholder');
        expect(input?.attr?.shape?.shape?.dim?.map((d) => d.size)).toEqual(['1', '256', '256', '3']);
        const halved = model.modelTopology.node.some((n) => n.op === 'AvgPool');
        expect(halved).toBe(FACE_ENGINE_DEFAULTS.detectorInput === 128);
      }
      if (name === 'centernet' && FACE_ENGINE_DEFAULTS.phonesOnly) {
        // one class left in the heat map
        const bias = model.weightsManifest.flatMap((g) => g.weights).find((w) => w.name.endsWith('cls_output/biases'));
        expect(bias?.shape).toEqual([1]);
      }
      if (name === 'faceres') expect(model.modelTopology.node.some((n) => n.op === '_FusedConv2D')).toBe(true);
    }
  }, 60_000);

  it('serves the WASM binaries as application/wasm, answers 304 to its ETag and 404 to any other file', async () => {
    const wasm = await get('tfjs-backend-wasm-simd.wasm');
    expect(wasm.statusCode).toBe(200);
    expect(wasm.headers['content-type']).toBe('application/wasm');
    expect(wasm.rawPayload.subarray(0, 4)).toEqual(Buffer.from([0, 0x61, 0x73, 0x6d]));
    const again = await get('tfjs-backend-wasm-simd.wasm', { 'if-none-match': String(wasm.headers.etag) });
    expect(again.statusCode).toBe(304);
    for (const file of ['emotion.json', '..%2Fpackage.json', 'models.json']) {
      const res = await get(file);
      expect(res.statusCode, file).toBe(404);
      expect(res.json()).toMatchObject({ status: 'error', code: 'not_found' });
    }
  });
});
