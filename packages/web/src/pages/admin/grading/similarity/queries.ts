/** The similarity page's server data: exams, their programming questions, the pairs, one pair, runs and decisions. */
import { api, type JobView, type SimilarityDecideBody, type SimilarityPairsQuery } from '@examhall/contract';
import { useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { request } from '../../../../api/client.js';
import { followJob } from '../../../../api/jobs.js';
import { queryKey } from '../../../../api/queryKeys.js';
import { can, useStaffMe } from '../../../../session/staff.js';
import { useServerList } from '../../shared/serverList.js';

/** The picker's exams: the first 100, newest first. */
const PICKER_EXAMS = { page: 1, page_size: 100, sort: 'updated_at' } as const;

/** Exams the grader may see, newest first (the picker's first 100). */
export function useGradingExams() {
  const me = useStaffMe();
  return useQuery({
    queryKey: queryKey(api.examEditorList, PICKER_EXAMS),
    queryFn: ({ signal }) => request(api.examEditorList, { query: PICKER_EXAMS, signal }),
    enabled: can(me.data, 'grade.read'),
  });
}

/** An exam's programming questions with their submissions and last computation. */
export function useSimilarityQuestions(examId: number | undefined) {
  const query = { exam_id: examId! };
  return useQuery({
    queryKey: queryKey(api.similarityQuestions, query),
    queryFn: ({ signal }) => request(api.similarityQuestions, { query, signal }),
    enabled: examId !== undefined,
  });
}

/** One page of a question's pairs (sorted, filtered and paged on the server) with the run and its groups. */
export function useSimilarityPairs(query: SimilarityPairsQuery | null) {
  return useServerList(api.similarityPairs, query);
}

/** One pair side by side with its fragments. */
export function useSimilarityPair(examId: number | undefined, pairId: number | undefined) {
  const query = { exam_id: examId!, pair_id: pairId! };
  return useQuery({
    queryKey: queryKey(api.similarityPair, query),
    queryFn: ({ signal }) => request(api.similarityPair, { query, signal }),
    enabled: examId !== undefined && pairId !== undefined,
  });
}

/** Refetches what a run or a decision changes: the questions' last runs, the pairs, a pair. */
function invalidateSimilarity(queryClient: QueryClient): void {
  for (const call of [api.similarityQuestions, api.similarityPairs, api.similarityPair])
    void queryClient.invalidateQueries({ queryKey: queryKey(call) });
}

/** Computes a question's pairs as a job, reporting its progress; the page's lists are refetched at the end. */
export function useRunSimilarity(onProgress: (job: JobView) => void) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (input: { examId: number; questionId: number }) => {
      const { job_id } = await request(api.similarityRun, {
        body: { exam_id: input.examId, question_id: input.questionId },
      });
      return followJob(job_id, onProgress);
    },
    onSettled: () => invalidateSimilarity(queryClient),
  });
}

/** Confirms, dismisses or reopens a pair's flag; the lists are refetched. */
export function useDecidePair() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: SimilarityDecideBody) => request(api.similarityDecide, { body }),
    onSuccess: () => invalidateSimilarity(queryClient),
  });
}
