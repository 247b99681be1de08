import { parentPort } from 'node:worker_threads';
import { FaceEngine, type FaceAnalysis } from './engine.js';
import { ImageUnreadableError } from './image.js';

/** A picture to analyse, sent by the pool. */
export interface FaceJob {
  /** Job number, echoed in the answer. */
  id: number;
  /** The encoded picture (transferred, not copied). */
  bytes: Uint8Array;
}

/** The worker's answer to one job, or its start-up report (id 0). */
export type FaceReply =
  | { id: number; ok: true; result: FaceAnalysis }
  | { id: number; ok: false; unreadable: boolean; message: string }
  | { id: 0; ready: true }
  | { id: 0; ready: false; message: string };

const port = parentPort;
if (!port) throw new Error('the face worker runs in a worker thread');

// Jobs wait for the engine here, so the pool can send work while the models load.
const engine = FaceEngine.create();
engine.then(
  () => port.postMessage({ id: 0, ready: true } satisfies FaceReply),
  (err: unknown) => port.postMessage({ id: 0, ready: false, message: String(err) } satisfies FaceReply),
);

port.on('message', (job: FaceJob) => {
  void (async () => {
    let reply: FaceReply;
    try {
      const result = await (await engine).analyze(job.bytes);
      reply = { id: job.id, ok: true, result };
    } catch (err) {
      reply = {
        id: job.id,
        ok: false,
        unreadable: err instanceof ImageUnreadableError,
        message: err instanceof Error ? err.message : String(err),
      };
    }
    port.postMessage(reply);
  })();
});
