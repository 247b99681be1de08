/**
 * Pictures taken while offline (counted in the monitor data's `offlineImages`): kept in IndexedDB, which
 * survives a reload or a closed tab, until they are uploaded on reconnect.
 */
import { done, promised } from '../exam/idb.js';

/** One picture waiting for the connection. */
export interface OfflineImage {
  /** Client id; also the record's idempotency key. */
  client_id: string;
  /** Exam id. */
  exam_id: number;
  /** frame (camera) or screen. */
  kind: 'frame' | 'screen';
  /** Object name under the attempt's prefix. */
  name: string;
  /** When it was taken (server-aligned epoch ms). */
  trigger_time: number;
  /** The JPEG. */
  blob: Blob;
}

/** Where offline pictures are kept. */
export interface OfflineImageStore {
  /** Every waiting picture of the exam, oldest first. */
  list(examId: number): Promise<OfflineImage[]>;
  /** Keeps one. */
  put(image: OfflineImage): Promise<void>;
  /** Forgets one (uploaded and recorded). */
  remove(clientId: string): Promise<void>;
}

const DB_NAME = 'examhall-captures';
const STORE = 'offline_images';

/** Opens the offline picture store (creating it on first use). */
export async function openOfflineImages(factory: IDBFactory = indexedDB): Promise<OfflineImageStore> {
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
      return (await promised(tx.objectStore(STORE).index('by_exam').getAll(range))) as OfflineImage[];
    },
    async put(image) {
      const tx = db.transaction(STORE, 'readwrite');
      tx.objectStore(STORE).put(image);
      await done(tx);
    },
    async remove(clientId) {
      const tx = db.transaction(STORE, 'readwrite');
      tx.objectStore(STORE).delete(clientId);
      await done(tx);
    },
  };
}
