/** What the candidate sees as their answers: the server's copy, with unsent changes from this browser on top. */
import type { AnswerValue } from '@examhall/contract';
import { useCallback, useEffect, useRef, useState } from 'react';
import { errorText } from '../api/client.js';
import { keyOf, type CardItem } from './card.js';
import type { Outbox } from './outbox.js';

/** A question's answer on the page: a value of the answer kinds, or an evaluation item's option. */
export type PageAnswer = AnswerValue | string;

/**
 * The page's answers by item key. `adopt` takes the server's answer only where the page has none yet (a change
 * waiting in the outbox wins); `change` shows a change at once and hands it to the outbox.
 */
export function useAnswers(box: Outbox | null, onStoreError: (msg: string) => void) {
  const [answers, setAnswers] = useState<Map<string, PageAnswer>>(new Map());
  const restored = useRef(false);
  useEffect(() => {
    if (!box || restored.current) return;
    restored.current = true;
    const pending = box.pendingAnswers();
    setAnswers((prev) => {
      const next = new Map(prev);
      for (const [key, entry] of pending) {
        const v = entry.answer ?? entry.option;
        if (v !== undefined) next.set(key, v);
      }
      return next;
    });
  }, [box]);

  const adopt = useCallback((key: string, value: PageAnswer | undefined) => {
    if (value === undefined) return;
    setAnswers((prev) => (prev.has(key) ? prev : new Map(prev).set(key, value)));
  }, []);

  const change = useCallback(
    (item: CardItem, value: PageAnswer) => {
      setAnswers((prev) => new Map(prev).set(keyOf(item), value));
      if (!box) return;
      const stored =
        item.kind === 'ceping'
          ? box.enqueue({ channel: 'ceping', subject_id: item.id, option: value as string })
          : box.enqueue({ channel: 'answer', subject_id: item.id, answer: value as AnswerValue });
      stored.catch((e: unknown) => onStoreError(errorText(e)));
    },
    [box, onStoreError],
  );
  return { answers, adopt, change };
}
