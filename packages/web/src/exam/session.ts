/** Wires the framework-free outbox to the API client and the browser. */
import { type RecordRiskData, subjectCalls, cepingCalls, monitorCalls } from '@examhall/contract';
import { isApiError, isSessionGone, request } from '../api/client.js';
import { serverNow } from './clock.js';
import { Outbox, type FailureKind, type OutboxEntry, type Receipt } from './outbox.js';
import { openIndexedDbStore } from './outboxStore.js';
import { currentCandidate } from '../session/owner.js';
import { browserJournal } from './stagedJournal.js';

/** Sorts a failed send: the attempt is over, the server refuses this change for good, the session is gone, or try again. */
export function classifyFailure(e: unknown): FailureKind {
  // A lost session first: its error is an API error too, and not the network's fault.
  if (isSessionGone(e)) return 'signedOut';
  if (!isApiError(e)) return 'retry';
  if (e.code === 'exam_finished') return 'finished';
  // No answer, a server fault, a rate limit or a lost session: the change is fine, the moment is not.
  if (e.status === 0 || e.status >= 500 || e.status === 429 || e.status === 401 || e.status === 403) return 'retry';
  return 'rejected';
}

/** Hears every risk record the server confirmed, with its answer (record id, screen switches left, phase). */
export type RiskListener = (entry: OutboxEntry, data: RecordRiskData) => void;

const riskListeners = new Set<RiskListener>();

/** Subscribes to confirmed risk records (the exam page takes a picture and follows the screen-switch count); answers the unsubscribe. */
export function onRiskRecorded(listener: RiskListener): () => void {
  riskListeners.add(listener);
  return () => riskListeners.delete(listener);
}

/** Sends one outbox entry through its call. */
export async function sendEntry(entry: OutboxEntry): Promise<Receipt | null> {
  switch (entry.channel) {
    case 'answer':
      return request(subjectCalls.answer, {
        body: {
          exam_id: entry.exam_id,
          subject_id: entry.subject_id,
          ...(entry.answer !== undefined ? { answer: entry.answer } : {}),
          ...(entry.event !== undefined ? { event: entry.event } : {}),
          client_id: entry.client_id,
          seq: entry.seq,
          changed_at: entry.changed_at,
        },
      });
    case 'ceping':
      return request(cepingCalls.cepingAnswer, {
        body: {
          exam_id: entry.exam_id,
          subject_id: entry.subject_id,
          option: entry.option ?? '',
          client_id: entry.client_id,
          seq: entry.seq,
          changed_at: entry.changed_at,
        },
      });
    case 'risk': {
      const data = await request(monitorCalls.recordRisk, {
        body: {
          exam_id: entry.exam_id,
          risk: entry.risk ?? 0,
          trigger_time: entry.changed_at,
          detail: entry.detail,
          ...(entry.image_key !== undefined ? { image_key: entry.image_key } : {}),
          client_id: entry.client_id,
        },
      });
      for (const listener of riskListeners) {
        try {
          listener(entry, data);
        } catch (e) {
          // A listener's fault must not make the outbox send the record again.
          console.warn('[risk] listener failed', e);
        }
      }
      return null;
    }
  }
}

/** Opens the exam's outbox on IndexedDB, following the browser's online and offline events. */
export async function openExamOutbox(examId: number): Promise<Outbox> {
  const store = await openIndexedDbStore();
  const box = await Outbox.open(examId, {
    store,
    send: sendEntry,
    classify: classifyFailure,
    now: serverNow,
    newId: () => crypto.randomUUID(),
    online: navigator.onLine,
    journal: browserJournal(),
    owner: currentCandidate,
  });
  const online = () => box.setOnline(true);
  const offline = () => box.setOnline(false);
  window.addEventListener('online', online);
  window.addEventListener('offline', offline);
  const close = box.close.bind(box);
  box.close = () => {
    window.removeEventListener('online', online);
    window.removeEventListener('offline', offline);
    close();
  };
  return box;
}
