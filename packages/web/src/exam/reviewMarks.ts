/** Questions the candidate marked for review, kept in this browser per attempt so a reload keeps them. */
import { useCallback, useState } from 'react';

/** Where an attempt's marks are kept. */
const storageKey = (attemptId: number) => `exam-review:${attemptId}`;

/** The marks stored for an attempt (item keys); an unreadable entry counts as none. */
export function loadMarks(storage: Pick<Storage, 'getItem'>, attemptId: number): Set<string> {
  try {
    const parsed: unknown = JSON.parse(storage.getItem(storageKey(attemptId)) ?? '[]');
    return new Set(Array.isArray(parsed) ? parsed.filter((k): k is string => typeof k === 'string') : []);
  } catch {
    return new Set();
  }
}

/** Marks or unmarks `key` and stores the result. */
export function toggleMark(
  storage: Pick<Storage, 'setItem'>,
  attemptId: number,
  marks: ReadonlySet<string>,
  key: string,
): Set<string> {
  const next = new Set(marks);
  if (!next.delete(key)) next.add(key);
  try {
    storage.setItem(storageKey(attemptId), JSON.stringify([...next]));
  } catch {
    // A full or blocked storage keeps the mark for this page only; marks are a reminder, not an answer.
  }
  return next;
}

/** The attempt's review marks and a toggle. */
export function useReviewMarks(attemptId: number) {
  const [marks, setMarks] = useState(() => loadMarks(localStorage, attemptId));
  const toggle = useCallback(
    (key: string) => setMarks((prev) => toggleMark(localStorage, attemptId, prev, key)),
    [attemptId],
  );
  return { marks, toggle };
}
