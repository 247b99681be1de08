/**
 * The note that bridges a change's way into IndexedDB: the page shows a change at once and the outbox stores it a
 * moment later, and a page that goes away in that moment (a reload, a closed tab, a crash) would lose it. The
 * newest change of each question on its way is noted synchronously, before the page answers the keystroke, and
 * forgotten once stored; the next visit's outbox takes back what it finds. localStorage in the browser.
 */
import type { AnswerValue } from '@examhall/contract';

/** A change as the page hands it to the outbox, with when it was made (server-aligned epoch ms). */
export type StagedChange = (
  | { channel: 'answer'; subject_id: number; answer: AnswerValue; changed_at: number }
  | { channel: 'ceping'; subject_id: number; option: string; changed_at: number }
) & {
  /** Whose change it is (see OutboxEntry.candidate_id). */
  candidate_id?: number;
};

/** Synchronous notes of the changes on their way to the store, by exam and question key. */
export interface StagedJournal {
  /** Notes the newest change of a question (replacing an older note of it). Never throws. */
  note(examId: number, key: string, change: StagedChange): void;
  /** Forgets a question's note: its newest change is stored. Never throws. */
  forget(examId: number, key: string): void;
  /** What an earlier visit left noted, oldest change first. */
  read(examId: number): StagedChange[];
}

/** The part of the Web Storage API the journal uses. */
export type KeyValueStorage = Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;

const itemOf = (examId: number) => `examhall-staged:${examId}`;

function parse(text: string | null): Record<string, StagedChange> {
  if (!text) return {};
  try {
    const value: unknown = JSON.parse(text);
    return value !== null && typeof value === 'object' && !Array.isArray(value)
      ? (value as Record<string, StagedChange>)
      : {};
  } catch {
    return {};
  }
}

function isStaged(v: unknown): v is StagedChange {
  if (v === null || typeof v !== 'object') return false;
  const c = v as Partial<Record<string, unknown>>;
  if (typeof c['subject_id'] !== 'number' || typeof c['changed_at'] !== 'number') return false;
  return (
    (c['channel'] === 'answer' && c['answer'] !== undefined) ||
    (c['channel'] === 'ceping' && typeof c['option'] === 'string')
  );
}

/**
 * A journal in `storage` (localStorage), one item per exam. A storage that refuses a write (full, or switched
 * off) leaves the change to IndexedDB alone, as before; an item that no longer parses is ignored.
 */
export function storageJournal(storage: KeyValueStorage): StagedJournal {
  const write = (examId: number, notes: Record<string, StagedChange>) => {
    try {
      if (Object.keys(notes).length === 0) storage.removeItem(itemOf(examId));
      else storage.setItem(itemOf(examId), JSON.stringify(notes));
    } catch {
      // Full or unavailable: the change still goes to IndexedDB.
    }
  };
  const load = (examId: number) => {
    try {
      return parse(storage.getItem(itemOf(examId)));
    } catch {
      return {};
    }
  };
  return {
    note(examId, key, change) {
      write(examId, { ...load(examId), [key]: change });
    },
    forget(examId, key) {
      const notes = load(examId);
      if (!(key in notes)) return;
      delete notes[key];
      write(examId, notes);
    },
    read(examId) {
      return Object.values(load(examId))
        .filter(isStaged)
        .sort((a, b) => a.changed_at - b.changed_at);
    },
  };
}

/** The browser's journal: localStorage, or none where the page may not use it. */
export function browserJournal(): StagedJournal | undefined {
  try {
    return typeof localStorage === 'undefined' ? undefined : storageJournal(localStorage);
  } catch {
    return undefined;
  }
}
