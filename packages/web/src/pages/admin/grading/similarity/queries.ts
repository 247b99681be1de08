/** The similarity page's server data: exams, their programming questions, the pairs, one pair, runs and decisions. */
import { api, type JobView, type SimilarityDecideBody, type SimilarityPairsQuery } from '@examhall/contract';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { request } from '../../../../api/client.js';
import { followJob } from '../../../../api/jobs.js';
import { can, useStaffMe } from '../../../../session/staff.js';

/** Query key of everything on the page. */
export const SIMILARITY_KEY = ['admin', 'similarity'] as const;

/** Exams the grader may see, newest first (the picker's first 100). */
export function useGradingExams() {
  const me = useStaffMe();
  return useQuery({
    queryKey: [...SIMILARITY_KEY, 'exams'],
    queryFn: ({ signal }) =>
      request(api.examEditorList, { query: { page: 1, page_size: 100, sort: 'updated_at' }, signal }),
    enabled: can(me.data, 'grade.read'),
  });
}

/** An exam's programming questions with their submissions and last computation. */
export function useSimilarityQuestions(examId: number | undefined) {
  return useQuery({
    queryKey: [...SIMILARITY_KEY, 'questions', examId],
    queryFn: ({ signal }) => request(api.similarityQuestions, { query: { exam_id: examId! }, signal }),
    enabled: examId !== undefined,
  });
}

/** One page of a question's pairs (sorted, filtered and paged on the server) with the run and its groups. */
export function useSimilarityPairs(query: SimilarityPairsQuery | null) {
  return useQuery({
    queryKey: [...SIMILARITY_KEY, 'pairs', query],
    queryFn: ({ signal }) => request(api.similarityPairs, { query: query!, signal }),
    enabled: query !== null,
    placeholderData: keepPreviousData,
  });
}

/** One pair side by side with its fragments. */
export function useSimilarityPair(examId: number | undefined, pairId: number | undefined) {
  return useQuery({
    queryKey: [...SIMILARITY_KEY, 'pair', examId, pairId],
    queryFn: ({ signal }) => request(api.similarityPair, { query: { exam_id: examId!, pair_id: pairId! }, signal }),
    enabled: examId !== undefined && pairId !== undefined,
  });
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
    onSettled: () => void queryClient.invalidateQueries({ queryKey: SIMILARITY_KEY }),
  });
}

/** Confirms, dismisses or reopens a pair's flag; the lists are refetched. */
export function useDecidePair() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: SimilarityDecideBody) => request(api.similarityDecide, { body }),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: SIMILARITY_KEY }),
  });
}
