/** Queries the exam pages share; the ones the exam page needs offline keep a copy in this browser. */
import { ExamPhase, type AttemptView, type ExamDetail, examCalls } from '@examhall/contract';
import { useQuery } from '@tanstack/react-query';
import { useParams } from 'react-router';
import { request } from '../api/client.js';
import { cached } from './offlineCache.js';

/** The exam id and invitation id from the route. */
export function useExamParams(): { examId: number; anid: number } {
  const { id, anid } = useParams();
  return { examId: Number(id), anid: Number(anid) };
}

/** Query key of an exam's detail. */
export const examDetailKey = (examId: number, anid: number) => ['exam-detail', examId, anid] as const;

/** The exam detail, kept for a reload without a network. */
export function useExamDetail(examId: number, anid: number) {
  return useQuery<ExamDetail>({
    queryKey: examDetailKey(examId, anid),
    queryFn: ({ signal }) =>
      cached(`exam:${examId}:${anid}`, () => request(examCalls.examShow, { query: { id: examId, anid }, signal })),
    enabled: Number.isInteger(examId) && examId > 0 && Number.isInteger(anid) && anid > 0,
  });
}

/** The page of an exam that fits an attempt's phase. */
export function pathForPhase(examId: number, anid: number, phase: AttemptView['phase']): string {
  const base = `/exam/${examId}/${anid}`;
  switch (phase) {
    case ExamPhase.monitor:
      return `${base}/monitor`;
    case ExamPhase.exam:
      return `${base}/answer`;
    case ExamPhase.submit:
      return `${base}/result`;
  }
}

/** Where the result page finds the result of a submit made a moment ago. */
export const resultKey = (examId: number) => ['exam-result', examId] as const;
