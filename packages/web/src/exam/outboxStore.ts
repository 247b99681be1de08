/**
 * Where unacknowledged changes live between the keystroke and the server's receipt: IndexedDB,
 * which survives reloads, crashes and a closed tab. Framework-free, so the outbox can be tested
 * with fake-indexeddb and used by any page.
 */
import type { AnswerEvent, AnswerValue } from '@examhall/contract';
import { done, promised } from './idb.js';

/** Which call an entry goes to. */
export type OutboxChannel = 'answer' | 'ceping' | 'risk';

/** One change waiting for its receipt. */
export interface OutboxEntry {
  /** Client-generated id; also the idempotency key the server sees. */
  client_id: string;
  /** Exam id. */
  exam_id: number;
  /** Which call carries it. */
  channel: OutboxChannel;
  /** Question id (0 for risk records). */
  subject_id: number;
  /** Per-question sequence number (0 for risk records). */
  seq: number;
  /** When the change was made, server-aligned epoch ms. */
  changed_at: number;
  /** Enqueue order, so the sender keeps the order the candidate made the changes in. */
  order: number;
  /** The new answer (channel 'answer'). */
  answer?: AnswerValue;
  /** The answer event (channel 'answer'). */
  event?: AnswerEvent;
  /** The option chosen (channel 'ceping'). */
  option?: string;
  /** Risk event id (channel 'risk'). */
  risk?: number;
  /** Free detail of a risk record. */
  detail?: string;
  /** Object key of the picture a risk record was seen on (the face monitor's frame). */
  image_key?: string;
  /** Whose change it is: the candidate logged in when it was made (absent: made before candidates were noted). */
  candidate_id?: number;
}

/** The storage the outbox needs; IndexedDB in the browser. */
export interface OutboxStore {
  /** Every entry of the exam, in enqueue order. */
  list(examId: number): Promise<OutboxEntry[]>;
  /** Writes an entry and, in the same transaction, removes `replaces` (a superseded unsent change). */
  put(entry: OutboxEntry, replaces?: string): Promise<void>;
  /** Removes entries by client id. */
  remove(clientIds: readonly string[]): Promise<void>;
  /** Reserves the next sequence number of a question, at least `floor`, durably. */
  nextSeq(key: string, floor: number): Promise<number>;
}

const DB_NAME = 'examhall-outbox';
const DB_VERSION = 1;
const OUTBOX = 'outbox';
const SEQS = 'seqs';

/** Opens the outbox database (creating it on first use). */
export function openIndexedDbStore(factory: IDBFactory = indexedDB): Promise<OutboxStore> {
  const open = factory.open(DB_NAME, DB_VERSION);
  open.onupgradeneeded = () => {
    const db = open.result;
    if (!db.objectStoreNames.contains(OUTBOX)) {
      const store = db.createObjectStore(OUTBOX, { keyPath: 'client_id' });
      store.createIndex('by_exam', ['exam_id', 'order']);
    }
    if (!db.objectStoreNames.contains(SEQS)) db.createObjectStore(SEQS, { keyPath: 'key' });
  };
  return promised(open).then((db) => new IndexedDbStore(db));
}

class IndexedDbStore implements OutboxStore {
  constructor(private readonly db: IDBDatabase) {}

  async list(examId: number): Promise<OutboxEntry[]> {
    const tx = this.db.transaction(OUTBOX, 'readonly');
    const range = IDBKeyRange.bound([examId, -Infinity], [examId, Infinity]);
    const rows = await promised(tx.objectStore(OUTBOX).index('by_exam').getAll(range));
    return rows as OutboxEntry[];
  }

  async put(entry: OutboxEntry, replaces?: string): Promise<void> {
    const tx = this.db.transaction(OUTBOX, 'readwrite');
    const store = tx.objectStore(OUTBOX);
    if (replaces) store.delete(replaces);
    store.put(entry);
    await done(tx);
  }

  async remove(clientIds: readonly string[]): Promise<void> {
    if (clientIds.length === 0) return;
    const tx = this.db.transaction(OUTBOX, 'readwrite');
    const store = tx.objectStore(OUTBOX);
    for (const id of clientIds) store.delete(id);
    await done(tx);
  }

  async nextSeq(key: string, floor: number): Promise<number> {
    const tx = this.db.transaction(SEQS, 'readwrite');
    const store = tx.objectStore(SEQS);
    const row = (await promised(store.get(key))) as { key: string; seq: number } | undefined;
    const seq = Math.max((row?.seq ?? 0) + 1, floor);
    store.put({ key, seq });
    await done(tx);
    return seq;
  }
}
