/** When the server ends the attempt (time, a proctor, too many screen switches), the result page says why. */
import { ExamPhase } from '@examhall/contract';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useNavigate } from 'react-router';
import { stopStreams } from '../proctor/streams.js';
import { pathForPhase, resultKey } from './queries.js';

/**
 * Leaves for the result page once the attempt has ended, seen by a save (`finished`), a judge call
 * (`endedOnJudge`), a risk record or the live stream (`reason`), with the count of changes left unsent.
 */
export function useAttemptEnd(p: {
  examId: number;
  anid: number;
  finished: boolean;
  endedOnJudge: boolean;
  reason: string | null;
  unsent: number;
}) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const { examId, anid, finished, endedOnJudge, reason, unsent } = p;
  useEffect(() => {
    if (!finished && !endedOnJudge && reason === null) return;
    queryClient.removeQueries({ queryKey: resultKey(examId) });
    stopStreams();
    // Kept for the tab as well: any later navigation to the result (a reload, a second redirect) still explains it.
    if (reason !== null) sessionStorage.setItem(`exam-ended:${examId}`, reason);
    void Promise.resolve(
      navigate(pathForPhase(examId, anid, ExamPhase.submit), { replace: true, state: { unsent, reason } }),
    ).then(() => queryClient.removeQueries({ queryKey: ['attempt', examId] }));
  }, [finished, endedOnJudge, reason, unsent, navigate, examId, anid, queryClient]);
}
