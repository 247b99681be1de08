/** The exam page's questions: the order lists, every question loaded up front, and each one's shape. */
import { type AnswerShape, subjectCalls, cepingCalls } from '@examhall/contract';
import { useQueries, useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { request } from '../api/client.js';
import { cardItems, keyOf } from './card.js';
import { cached } from './offlineCache.js';
import { loadedAnswer, loadedShape, loadQuestion, questionQueryKey } from './questionLoad.js';
import type { PageAnswer } from './useAnswers.js';

/** The card's items, and by item key the shape of each loaded question and the answer the server holds. */
export function useExamItems(examId: number, hasEvaluation: boolean) {
  const order = useQuery({
    queryKey: ['order-list', examId],
    queryFn: ({ signal }) =>
      cached(`order:${examId}`, () => request(subjectCalls.orderList, { query: { exam_id: examId }, signal })),
  });
  const card = useQuery({
    queryKey: ['ceping-card', examId],
    queryFn: ({ signal }) =>
      cached(`ceping-card:${examId}`, () =>
        request(cepingCalls.cepingLineOrder, { query: { exam_id: examId }, signal }),
      ),
    enabled: hasEvaluation,
  });
  const items = useMemo(() => cardItems(order.data?.subject_order, card.data?.data), [order.data, card.data]);
  // Every question is fetched (and kept in this browser) up front, so moving on works without a network.
  const { shapes, stored } = useQueries({
    queries: items.map((item) => ({
      queryKey: questionQueryKey(examId, item),
      queryFn: () => loadQuestion(examId, item),
      staleTime: Infinity,
    })),
    combine: (results) => {
      const shapes = new Map<string, AnswerShape>();
      const stored = new Map<string, PageAnswer | undefined>();
      results.forEach((r, i) => {
        shapes.set(keyOf(items[i]!), loadedShape(r.data));
        stored.set(keyOf(items[i]!), loadedAnswer(r.data));
      });
      return { shapes, stored };
    },
  });
  const error = order.error ?? card.error;
  return { items, shapes, stored, error };
}
