/** Code similarity across candidates, per programming question: compute, list pairs, look at one, decide. */
import { ExamIdQuery } from '../schemas/examEditor.js';
import { JobStartedData } from '../schemas/jobs.js';
import * as S from '../schemas/similarity.js';
import { call } from './define.js';

/** The grading area's similarity calls; a flag is a person's to confirm or dismiss, never a verdict. */
export const similarityCalls = {
  similarityQuestions: call({
    method: 'GET',
    path: '/admin/grading/similarity/questions',
    summary: "An exam's programming questions with their answers with code and when their pairs were computed",
    query: ExamIdQuery,
    body: undefined,
    data: S.SimilarityQuestionsData,
    auth: 'staff',
    permission: 'grade.read',
    scope: { kind: 'exam', field: 'exam_id' },
  }),
  similarityRun: call({
    method: 'POST',
    path: '/admin/grading/similarity/run',
    summary: "Compare candidates' final code for one programming question (a job); decisions made stay",
    query: undefined,
    body: S.SimilarityRunBody,
    data: JobStartedData,
    auth: 'staff',
    permission: 'grade.score',
    scope: { kind: 'exam', field: 'exam_id' },
    refs: { question_id: 'exam_question' },
  }),
  similarityPairs: call({
    method: 'GET',
    path: '/admin/grading/similarity/pairs',
    summary: 'Pairs of candidates whose code is alike, ranked by score, filtered and paged, with the groups',
    query: S.SimilarityPairsQuery,
    body: undefined,
    data: S.SimilarityPairsData,
    auth: 'staff',
    permission: 'grade.read',
    scope: { kind: 'exam', field: 'exam_id' },
    refs: { question_id: 'exam_question' },
    identity: 'blanked',
  }),
  similarityPair: call({
    method: 'GET',
    path: '/admin/grading/similarity/pair',
    summary: "One pair side by side: both candidates' code and the matched fragments",
    query: S.SimilarityPairQuery,
    body: undefined,
    data: S.SimilarityPairDetail,
    auth: 'staff',
    permission: 'grade.read',
    scope: { kind: 'exam', field: 'exam_id' },
    refs: { pair_id: 'pair' },
    identity: 'blanked',
  }),
  similarityDecide: call({
    method: 'POST',
    path: '/admin/grading/similarity/decide',
    summary: 'Confirm or dismiss a similarity flag (or open it again), with a note',
    query: undefined,
    body: S.SimilarityDecideBody,
    data: S.SimilarityPairView,
    auth: 'staff',
    permission: 'grade.score',
    scope: { kind: 'exam', field: 'exam_id' },
    refs: { pair_id: 'pair' },
    identity: 'blanked',
  }),
} as const;
