/** Moving through the exam's questions: the current one, kept for the tab, with its answer events. */
import { AnswerEvent } from '@examhall/contract';
import { useCallback, useEffect, useRef, useState } from 'react';
import type { CardItem } from './card.js';
import type { Outbox } from './outbox.js';

/** Records an answer event of an item (evaluation items' events go through /answer/answer too). */
export function useAnswerEvents(box: Outbox | null) {
  return useCallback(
    (item: CardItem | undefined, event: AnswerEvent) => {
      if (!box || !item) return;
      void box.enqueue({ channel: 'answer', subject_id: item.id, event });
    },
    [box],
  );
}

/**
 * The current question: restored from this tab after a reload, entered with an enter event, left with a leave
 * event, moved by the card (goto), the buttons or Alt+←/→ (prevAndNext).
 */
export function useNavigation(
  examId: number,
  items: readonly CardItem[],
  ready: boolean,
  record: (item: CardItem | undefined, event: AnswerEvent) => void,
) {
  const [index, setIndex] = useState(() => {
    const saved = Number(sessionStorage.getItem(`exam-pos:${examId}`));
    return Number.isInteger(saved) && saved >= 0 ? saved : 0;
  });
  const at = Math.min(index, Math.max(0, items.length - 1));
  const current = items[at];
  useEffect(() => sessionStorage.setItem(`exam-pos:${examId}`, String(index)), [index, examId]);

  const entered = useRef<number | null>(null);
  useEffect(() => {
    if (!current || !ready || entered.current === current.id) return;
    entered.current = current.id;
    record(current, AnswerEvent.enter);
  }, [current, ready, record]);

  const go = useCallback(
    (to: number, how: 'prevAndNext' | 'goto') => {
      if (to < 0 || to >= items.length || to === at) return;
      record(items[at], AnswerEvent.leave);
      record(items[to], how === 'goto' ? AnswerEvent.goto : AnswerEvent.prevAndNext);
      setIndex(to);
      requestAnimationFrame(() => document.getElementById('question-heading')?.focus());
    },
    [items, at, record],
  );

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (!e.altKey || e.ctrlKey || e.metaKey) return;
      if (e.key === 'ArrowLeft') {
        e.preventDefault();
        go(at - 1, 'prevAndNext');
      } else if (e.key === 'ArrowRight') {
        e.preventDefault();
        go(at + 1, 'prevAndNext');
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [go, at]);

  return { index: at, current, go };
}
