/** Submitting the attempt: every change reaches the server, then the evaluation is scored, then the attempt ends. */
import { AnswerEvent, ExamPhase, type AttemptView, cepingCalls, monitorCalls } from '@examhall/contract';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { errorText, isApiError, request } from '../api/client.js';
import { useI18n } from '../i18n/index.js';
import { stopStreams } from '../proctor/streams.js';
import type { CardItem } from './card.js';
import { remember } from './offlineCache.js';
import type { Outbox } from './outbox.js';
import { pathForPhase, resultKey } from './queries.js';

/** How long a submit waits for unsent changes: less when the time is up and the server ends the attempt anyway. */
const DRAIN_MS = { auto: 8_000, asked: 15_000 };

/** Ignores exam_finished: the attempt ended already, which is what submitting wants. */
async function unlessFinished(call: () => Promise<void>): Promise<void> {
  try {
    await call();
  } catch (e) {
    if (!(isApiError(e) && e.code === 'exam_finished')) throw e;
  }
}

/** The submit flow. `auto` is the timer's submit at time up, which goes on even with changes left unsent. */
export function useSubmit(p: {
  attempt: AttemptView;
  anid: number;
  hasEvaluation: boolean;
  box: Outbox | null;
  current: CardItem | undefined;
  record: (item: CardItem | undefined, event: AnswerEvent) => void;
}) {
  const { t } = useI18n();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const finishId = useRef(crypto.randomUUID());
  const [submitting, setSubmitting] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const { attempt, anid, hasEvaluation, box, current, record } = p;
  const examId = attempt.exam_id;

  const submit = useCallback(
    async (auto: boolean) => {
      if (!box || submitting) return;
      setSubmitting(true);
      setError(null);
      try {
        record(current, AnswerEvent.submit);
        const left = await box.drain(auto ? DRAIN_MS.auto : DRAIN_MS.asked);
        if (left > 0 && !auto && !box.getSnapshot().finished) {
          setError(t('exam.submitUnsent', { n: left }));
          return;
        }
        if (hasEvaluation) {
          await unlessFinished(async () => {
            // The profile comes back with the result, whenever the result page is opened.
            await request(cepingCalls.cepingFinish, { body: { exam_id: examId } });
          });
        }
        await unlessFinished(async () => {
          const result = await request(monitorCalls.finishExam, {
            body: { exam_id: examId, client_id: finishId.current },
          });
          queryClient.setQueryData(resultKey(examId), result);
        });
        await remember(`attempt:${examId}`, { ...attempt, phase: ExamPhase.submit });
        stopStreams();
        await navigate(pathForPhase(examId, anid, ExamPhase.submit), { replace: true, state: { unsent: left } });
        // Only once the result page is shown: a refetch while it loads would navigate again, without the state.
        queryClient.removeQueries({ queryKey: ['attempt', examId] });
      } catch (e) {
        setError(t('exam.submitFailed', { msg: errorText(e) }));
      } finally {
        setSubmitting(false);
      }
    },
    [box, submitting, record, current, t, hasEvaluation, examId, queryClient, attempt, navigate, anid],
  );
  return { submit, submitting, error };
}
