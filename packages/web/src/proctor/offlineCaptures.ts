/**
 * Captures that could not be sent (no connection, the store away, no session until the next login): camera and
 * screen pictures (counted in the monitor data's `offlineImages` once sent), pictures of risk events and
 * microphone recordings. Kept in IndexedDB, which survives a reload or a closed tab, until they are uploaded.
 */
import { done, promised } from '../exam/idb.js';
import { currentCandidate, ownedBy } from '../session/owner.js';

/** One capture waiting to be sent. */
export interface OfflineCapture {
  /** Client id: the store's key (and the record's idempotency key for frames and screens). */
  client_id: string;
  /** Exam id. */
  exam_id: number;
  /** frame (camera), screen, pertinent (a picture at a risk event) or byte (a microphone recording). */
  kind: 'frame' | 'screen' | 'pertinent' | 'byte';
  /** Object name under the attempt's prefix; the same at every try, so a record made twice is one record. */
  name: string;
  /** When it was taken, or when recording started (server-aligned epoch ms). */
  trigger_time: number;
  /** The JPEG or the recording (its type is the upload's content type). */
  blob: Blob;
  /** The risk record a pertinent picture belongs to. */
  risk_id?: number;
  /** A recording's length, ms. */
  duration_ms?: number;
  /** Whose it is: the candidate logged in when it was kept (set by the store). */
  candidate_id?: number;
}

/** Where captures waiting to be sent are kept. */
export interface OfflineCaptureStore {
  /** Every waiting capture of the exam the candidate logged in now took, oldest first. */
  list(examId: number): Promise<OfflineCapture[]>;
  /** Keeps one, as the candidate's logged in now. */
  put(capture: OfflineCapture): Promise<void>;
  /** Forgets one (uploaded and recorded). */
  remove(clientId: string): Promise<void>;
}

const DB_NAME = 'examhall-captures';
const STORE = 'offline_images';

/**
 * Opens the store of captures waiting to be sent (creating it on first use). Each is kept as the candidate's
 * logged in (`owner`): on a shared browser, one candidate's pictures are never sent with another's login.
 */
export async function openOfflineCaptures(
  factory: IDBFactory = indexedDB,
  owner: () => number | null = currentCandidate,
): Promise<OfflineCaptureStore> {
  const open = factory.open(DB_NAME, 1);
  open.onupgradeneeded = () => {
    const store = open.result.createObjectStore(STORE, { keyPath: 'client_id' });
    store.createIndex('by_exam', ['exam_id', 'trigger_time']);
  };
  const db = await promised(open);
  return {
    async list(examId) {
      const tx = db.transaction(STORE, 'readonly');
      const range = IDBKeyRange.bound([examId, -Infinity], [examId, Infinity]);
      const all = (await promised(tx.objectStore(STORE).index('by_exam').getAll(range))) as OfflineCapture[];
      const now = owner();
      return all.filter((c) => ownedBy(c, now));
    },
    async put(capture) {
      const tx = db.transaction(STORE, 'readwrite');
      const now = owner();
      tx.objectStore(STORE).put(now === null ? capture : { ...capture, candidate_id: now });
      await done(tx);
    },
    async remove(clientId) {
      const tx = db.transaction(STORE, 'readwrite');
      tx.objectStore(STORE).delete(clientId);
      await done(tx);
    },
  };
}
