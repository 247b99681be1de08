import { api, type GradingItemRef } from '@examhall/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { App } from 'antd';
import { errorText, request } from '../../../api/client.js';
import { useI18n } from '../../../i18n/index.js';
import { invalidateGrading } from './queries.js';
import type { MarkInput } from './RubricScorer.js';

/** Submits a mark (or the reconciling one) and refreshes every grading view of the exam. */
export function useMark(examId: number, onDone?: (ref: GradingItemRef) => void) {
  const { t } = useI18n();
  const { message } = App.useApp();
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ ref, mark, reconcile }: { ref: GradingItemRef; mark: MarkInput; reconcile: boolean }) =>
      request(reconcile ? api.gradingReconcileMark : api.gradingMark, { body: { ...ref, ...mark } }),
    onSuccess: async (_data, { ref }) => {
      void message.success(t('console.grading.marked'));
      await invalidateGrading(client);
      onDone?.(ref);
    },
    onError: (e) => void message.error(errorText(e)),
  });
}
