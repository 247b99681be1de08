import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL, fileURLToPath } from 'node:url';
import type { Config, Human, Result } from '@vladmandic/human';
import { decodeImage } from './image.js';

const require = createRequire(import.meta.url);

/** The folder of an installed package, found from its entry point (some packages do not export package.json). */
function packageDir(name: string): string {
  let dir = dirname(require.resolve(name));
  while (!existsSync(join(dir, 'package.json'))) dir = dirname(dir);
  return dir;
}

/** What the package's Node build exports that is used here. */
interface HumanModule {
  Human: typeof Human;
  match: Human['match'];
}

/** The package's Node build for the WASM backend; its exports map has no valid key for it, so it is required by path. */
function loadHuman(): HumanModule {
  return require(join(packageDir('@vladmandic/human'), 'dist', 'human.node-wasm.js')) as HumanModule;
}

/** One face found in a picture. */
export interface FaceFound {
  /** Detector confidence, 0 to 1. */
  score: number;
  /** Box in pixels: x, y, width, height. */
  box: [number, number, number, number];
  /** The face description vector (faceres), empty when it could not be computed. */
  embedding: number[];
}

/** What the engine sees in one picture. */
export interface FaceAnalysis {
  /** Picture width in pixels. */
  width: number;
  /** Picture height in pixels. */
  height: number;
  /** Faces found, most confident first. */
  faces: FaceFound[];
  /** Best confidence of a "cell phone" from the object detector, 0 when none was seen. */
  phoneScore: number;
  /** Milliseconds spent decoding and in the models. */
  decodeMs: number;
  /** Milliseconds spent in the models. */
  inferMs: number;
}

/** Object-detector confidence from which a phone counts as seen. */
export const PHONE_MIN_SCORE = 0.3;

/** The models folder shipped inside the @vladmandic/human package; nothing is downloaded. */
export function humanModelsDir(): string {
  return join(packageDir('@vladmandic/human'), 'models');
}

/** The folder holding tfjs-backend-wasm's .wasm binaries. */
function wasmDir(): string {
  return join(packageDir('@tensorflow/tfjs-backend-wasm'), 'dist');
}

/** Human's settings: face detection with description, and the object detector for phones; everything else off. */
function humanConfig(): Partial<Config> {
  return {
    backend: 'wasm',
    wasmPath: wasmDir() + '/',
    wasmPlatformFetch: false,
    modelBasePath: pathToFileURL(humanModelsDir()).href + '/',
    debug: false,
    warmup: 'none',
    // every picture is independent: no result reuse between "frames"
    cacheSensitivity: 0,
    skipAllowed: false,
    filter: { enabled: false },
    face: {
      enabled: true,
      detector: { rotation: true, maxDetected: 10, minConfidence: 0.5, skipFrames: 0, skipTime: 0 },
      mesh: { enabled: true },
      iris: { enabled: false },
      emotion: { enabled: false },
      description: { enabled: true, skipFrames: 0, skipTime: 0 },
      antispoof: { enabled: false },
      liveness: { enabled: false },
      attention: { enabled: false },
      gear: { enabled: false },
    },
    body: { enabled: false },
    hand: { enabled: false },
    gesture: { enabled: false },
    segmentation: { enabled: false },
    object: {
      enabled: true,
      modelPath: 'centernet.json',
      minConfidence: 0.2,
      maxDetected: 20,
      skipFrames: 0,
      skipTime: 0,
    },
  };
}

/** Minimal slice of tfjs's IO types that the file loader fills in. */
interface WeightsManifestGroup {
  paths: string[];
  weights: unknown[];
}

/**
 * Lets tfjs load `file://` model URLs from disk: in Node only tfjs-node registers such a handler,
 * and human's default (fetch) cannot read files.
 */
function registerFileLoader(tf: Human['tf']): void {
  tf.io.registerLoadRouter((url: unknown) => {
    if (typeof url !== 'string' || !url.startsWith('file://')) return null;
    const jsonPath = fileURLToPath(url);
    return {
      load: async () => {
        const model = JSON.parse(await readFile(jsonPath, 'utf8')) as {
          modelTopology: unknown;
          weightsManifest: WeightsManifestGroup[];
          format?: string;
          generatedBy?: string;
          convertedBy?: string;
          signature?: unknown;
          userDefinedMetadata?: unknown;
        };
        const parts: Buffer[] = [];
        const weightSpecs: unknown[] = [];
        for (const group of model.weightsManifest) {
          for (const p of group.paths) parts.push(await readFile(join(dirname(jsonPath), p)));
          weightSpecs.push(...group.weights);
        }
        const all = Buffer.concat(parts);
        return {
          modelTopology: model.modelTopology,
          weightSpecs,
          weightData: all.buffer.slice(all.byteOffset, all.byteOffset + all.byteLength),
          format: model.format,
          generatedBy: model.generatedBy,
          convertedBy: model.convertedBy,
          signature: model.signature,
          userDefinedMetadata: model.userDefinedMetadata,
        };
      },
    };
  });
}

/** The face engine of one thread: @vladmandic/human on the tfjs WASM backend with the models its package ships. */
export class FaceEngine {
  private constructor(private readonly human: Human) {}

  /** Loads the backend and the models (a second or two); call once per thread. */
  static async create(): Promise<FaceEngine> {
    const human = new (loadHuman().Human)(humanConfig());
    registerFileLoader(human.tf);
    // the threaded WASM build wants web workers; each pool thread runs one single-threaded backend instead
    human.tf.env().set('WASM_HAS_MULTITHREAD_SUPPORT', false);
    await human.init();
    await human.load();
    const missing = Object.entries({
      blazeface: human.models.models.blazeface,
      facemesh: human.models.models.facemesh,
      faceres: human.models.models.faceres,
      centernet: human.models.models.centernet,
    }).filter(([, m]) => !m);
    if (missing.length > 0) throw new Error(`face models not loaded: ${missing.map(([n]) => n).join(', ')}`);
    return new FaceEngine(human);
  }

  /** Decodes a JPEG/PNG and finds faces (with embeddings) and phones in it. */
  async analyze(bytes: Uint8Array): Promise<FaceAnalysis> {
    const t0 = performance.now();
    const img = decodeImage(bytes);
    const t1 = performance.now();
    const tf = this.human.tf;
    const tensor = tf.tensor4d(img.data, [1, img.height, img.width, 3], 'int32');
    let result: Result;
    try {
      result = await this.human.detect(tensor);
    } finally {
      tf.dispose(tensor);
    }
    if (result.error) throw new Error(`face detection failed: ${result.error}`);
    const t2 = performance.now();
    const faces = result.face
      .map((f) => ({
        score: f.boxScore ?? f.score,
        box: f.box,
        embedding: f.embedding ? Array.from(f.embedding) : [],
      }))
      .sort((a, b) => b.score - a.score);
    const phoneScore = Math.max(0, ...result.object.filter((o) => o.label === 'cell phone').map((o) => o.score));
    return { width: img.width, height: img.height, faces, phoneScore, decodeMs: t1 - t0, inferMs: t2 - t1 };
  }
}

/**
 * Similarity of two face embeddings, 0 to 1, with human's match.similarity (its default normalisation:
 * the same person scores about 0.7 to 1, different people about 0.15 to 0.45 on the fixtures); 0 when
 * either embedding is missing.
 */
export function faceSimilarity(a: readonly number[], b: readonly number[]): number {
  if (a.length === 0 || a.length !== b.length) return 0;
  return loadHuman().match.similarity([...a], [...b]);
}
