import { describe, expect, it } from 'vitest';
import { storageJournal, type StagedChange } from './stagedJournal.js';
import { memoryStorage } from '../test/memoryStorage.js';

const answer = (subject_id: number, option: string, changed_at: number): StagedChange => ({
  channel: 'answer',
  subject_id,
  answer: { kind: 'choice', option },
  changed_at,
});

describe('the journal of changes on their way to the store', () => {
  it('keeps the newest note per question and exam, oldest change first, and removes an exam item left empty', () => {
    const storage = memoryStorage();
    const journal = storageJournal(storage);
    journal.note(1, 'answer:5', answer(5, 'A', 300));
    journal.note(1, 'answer:5', answer(5, 'B', 400));
    journal.note(1, 'ceping:2', { channel: 'ceping', subject_id: 2, option: 'C', changed_at: 100 });
    journal.note(2, 'answer:5', answer(5, 'D', 50));
    expect(journal.read(1)).toEqual([
      { channel: 'ceping', subject_id: 2, option: 'C', changed_at: 100 },
      answer(5, 'B', 400),
    ]);
    expect(journal.read(2)).toEqual([answer(5, 'D', 50)]);

    journal.forget(1, 'answer:5');
    journal.forget(1, 'ceping:2');
    journal.forget(1, 'answer:404');
    expect(journal.read(1)).toEqual([]);
    expect([...storage.items.keys()]).toEqual(['examhall-staged:2']);
  });

  it('ignores what it cannot read: an item that does not parse, a note of another shape', () => {
    const storage = memoryStorage();
    storage.items.set('examhall-staged:1', '{not json');
    storage.items.set(
      'examhall-staged:2',
      JSON.stringify({
        'answer:1': { channel: 'answer', subject_id: 1 },
        'ceping:2': 'B',
        ...{ 'answer:3': answer(3, 'A', 1) },
      }),
    );
    const journal = storageJournal(storage);
    expect(journal.read(1)).toEqual([]);
    expect(journal.read(2)).toEqual([answer(3, 'A', 1)]);
    // A note over an unreadable item replaces it.
    journal.note(1, 'answer:7', answer(7, 'A', 5));
    expect(journal.read(1)).toEqual([answer(7, 'A', 5)]);
  });

  it('never throws when the storage refuses (full, or switched off)', () => {
    const refusing = {
      getItem: () => {
        throw new Error('SecurityError');
      },
      setItem: () => {
        throw new Error('QuotaExceededError');
      },
      removeItem: () => {
        throw new Error('SecurityError');
      },
    };
    const journal = storageJournal(refusing);
    expect(() => journal.note(1, 'answer:1', answer(1, 'A', 1))).not.toThrow();
    expect(() => journal.forget(1, 'answer:1')).not.toThrow();
    expect(journal.read(1)).toEqual([]);
  });
});
