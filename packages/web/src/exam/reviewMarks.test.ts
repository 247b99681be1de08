import { describe, expect, it } from 'vitest';
import { loadMarks, toggleMark } from './reviewMarks.js';
import { memoryStorage } from '../test/memoryStorage.js';

describe('review marks', () => {
  it('keeps marks per attempt across a reload, and a second toggle removes one', () => {
    const storage = memoryStorage();
    let marks = toggleMark(storage, 7, loadMarks(storage, 7), 'answer:3');
    marks = toggleMark(storage, 7, marks, 'ceping:9');
    expect([...loadMarks(storage, 7)]).toEqual(['answer:3', 'ceping:9']);
    expect(loadMarks(storage, 8).size).toBe(0);
    toggleMark(storage, 7, marks, 'answer:3');
    expect([...loadMarks(storage, 7)]).toEqual(['ceping:9']);
  });

  it('reads a damaged entry as no marks', () => {
    const storage = memoryStorage();
    storage.setItem('exam-review:7', '{not json');
    expect(loadMarks(storage, 7).size).toBe(0);
    storage.setItem('exam-review:7', '{"a":1}');
    expect(loadMarks(storage, 7).size).toBe(0);
  });
});
