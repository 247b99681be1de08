/**
 * The exam page's face monitor: every camera frame the page records (captures.ts) goes through the face models in
 * this browser, with the server's library (@vladmandic/human), models and settings (its engine.ts), and a
 * problem that starts (faceRule.ts) is raised as the catalogue's risk event naming the frame, which the server
 * then checks on its own (docs/contract.md#face-monitoring). The library (about 2 MB) and its models (about
 * 5 MB, from this server's /face-models/) load after the exam page is up, never with it. Where they cannot load
 * or run (no WebAssembly, a refused download) the monitor stops and the exam goes on; the server's sample of
 * frames still runs.
 */
import { faceLibrarySettings } from '@examhall/contract';
import type { Config, Human } from '@vladmandic/human';
import { FaceEpisodes, type FaceFinding, type FrameSeen } from './faceRule.js';

/** Where this server serves the models and the WASM backend's binaries. */
export const FACE_MODELS_URL = '/face-models/';

/** Performance entries of the monitor (read by the journey that measures its cost in the browser). */
export const FACE_MEASURES = { load: 'examhall:face-load', read: 'examhall:face-read' } as const;

/** Longest side a frame is read at, as the server decodes it (proctoring/face/image.ts MODEL_SIDE). */
const MODEL_SIDE = 640;

/** The face library's settings of every face check (the server's too), with this server's files. */
function humanConfig(base: string): Partial<Config> {
  return faceLibrarySettings({ wasmPath: base, modelBasePath: base, rotation: false, mesh: false });
}

/** The loaded library: reads one picture. */
export interface FaceReader {
  /** Faces (with descriptions) and the best phone score in a JPEG or PNG picture. */
  read(picture: Blob): Promise<FrameSeen>;
  /** Human's similarity of two face descriptions, 0 to 1. */
  similarity(a: readonly number[], b: readonly number[]): number;
}

/** Loads the library and its models (once per page); rejects where they cannot run here. */
export async function loadFaceReader(base = FACE_MODELS_URL): Promise<FaceReader> {
  const loadStart = performance.now();
  const { Human: HumanClass } = (await import('@vladmandic/human')) as { Human: typeof Human };
  const human = new HumanClass(humanConfig(base));
  // one thread: the threaded build wants SharedArrayBuffer (cross-origin isolation), as on the server's workers
  human.tf.env().set('WASM_HAS_MULTITHREAD_SUPPORT', false);
  await human.init();
  await human.load();
  if (human.tf.getBackend() !== 'wasm') throw new Error(`face models: backend ${human.tf.getBackend()}, not wasm`);
  const { blazeface, faceres, centernet } = human.models.models;
  if (!blazeface || !faceres || !centernet) throw new Error('face models not loaded');
  performance.measure(FACE_MEASURES.load, { start: loadStart });
  return {
    async read(picture) {
      const readStart = performance.now();
      const source = await createImageBitmap(picture);
      const scale = Math.min(1, MODEL_SIDE / Math.max(source.width, source.height));
      const canvas = document.createElement('canvas');
      canvas.width = Math.round(source.width * scale);
      canvas.height = Math.round(source.height * scale);
      canvas.getContext('2d')?.drawImage(source, 0, 0, canvas.width, canvas.height);
      source.close();
      const result = await human.detect(canvas);
      if (result.error) throw new Error(`face detection failed: ${result.error}`);
      performance.measure(FACE_MEASURES.read, { start: readStart });
      return {
        faces: result.face.map((f) => ({ embedding: f.embedding ? Array.from(f.embedding) : [] })),
        phoneScore: Math.max(0, ...result.object.filter((o) => o.label === 'cell phone').map((o) => o.score)),
      };
    },
    similarity: (a, b) => human.match.similarity([...a], [...b]),
  };
}

/** A recorded camera frame: the picture and the object key the server knows it by. */
export interface MonitoredFrame {
  picture: Blob;
  key: string;
}

/** What the monitor raises: the event, its detail and the frame's key (the evidence). */
export type RaiseFaceRisk = (finding: FaceFinding, imageKey: string) => void;

/** The running monitor. */
export interface FaceMonitor {
  /**
   * Reads a recorded frame. The first one starts loading the models and is read once they are in; frames that
   * arrive while another is being read are skipped (the next one will do).
   */
  frame(f: MonitoredFrame): void;
  /** Stops reading frames. */
  stop(): void;
  /** Resolves once the models are loaded (true) or could not be (false); null before the first frame. */
  readonly ready: Promise<boolean> | null;
}

/**
 * The monitor: loads the models at the first frame (so an exam without a camera never downloads them), then
 * reads every frame handed to it and raises each problem once per episode. A failure to load is logged once and
 * the monitor goes quiet.
 */
export function startFaceMonitor(raise: RaiseFaceRisk, load: () => Promise<FaceReader> = loadFaceReader): FaceMonitor {
  let reader: FaceReader | null = null;
  let episodes: FaceEpisodes | null = null;
  let ready: Promise<boolean> | null = null;
  let waiting: MonitoredFrame | null = null;
  let busy = false;
  let stopped = false;
  const read = (f: MonitoredFrame) => {
    if (stopped || busy || !reader || !episodes) return;
    busy = true;
    const ep = episodes;
    void reader
      .read(f.picture)
      .then((seen) => {
        if (stopped) return;
        for (const finding of ep.next(seen)) raise(finding, f.key);
      })
      .catch((e: unknown) => console.warn('[proctor] face monitor:', e instanceof Error ? e.message : e))
      .finally(() => (busy = false));
  };
  return {
    get ready() {
      return ready;
    },
    frame(f) {
      if (stopped) return;
      if (ready === null) {
        waiting = f;
        ready = load().then(
          (r) => {
            reader = r;
            episodes = new FaceEpisodes(r.similarity);
            if (waiting) read(waiting);
            waiting = null;
            return true;
          },
          (e: unknown) => {
            console.warn('[proctor] face monitor unavailable:', e instanceof Error ? e.message : e);
            return false;
          },
        );
        return;
      }
      if (!reader) waiting = f;
      else read(f);
    },
    stop() {
      stopped = true;
    },
  };
}
