import { z } from 'zod';
import { AnswerEvent } from '../enums.js';
import { ClientId, EpochMs, Id, IdParam } from './common.js';
import { LanguageField, ShowNewQuery } from './subject.js';

const OptionId = z.string().min(1).max(16);

/** The answer to a choice with one pick (single 1, true/false 7, gradient 11). */
export const ChoiceAnswer = z.object({ kind: z.literal('choice'), option: OptionId });
/** The answer to a choice with several picks (multiple 2, indefinite 3). */
export const MultiAnswer = z.object({ kind: z.literal('multi'), options: z.array(OptionId).max(26) });
/** The answer to a fill-in-blank question (4): one text per blank. */
export const BlanksAnswer = z.object({ kind: z.literal('blanks'), blanks: z.array(z.string().max(1000)).max(50) });
/** The answer to a Q&A question (5): rich text and uploaded files. */
export const TextAnswer = z.object({
  kind: z.literal('text'),
  html: z.string().max(200_000),
  files: z.array(z.string().max(300)).max(10).default([]),
});
/** The answer to a programming question (6, 8). */
export const CodeAnswer = z.object({ kind: z.literal('code'), language: LanguageField, code: z.string().max(100_000) });
/** The answer of one sub-question. */
export const SubAnswer = z.discriminatedUnion('kind', [ChoiceAnswer, MultiAnswer, BlanksAnswer]);
/** The answer to a reading (9) or listening (10) question: one per sub-question id. */
export const SubsAnswer = z.object({ kind: z.literal('subs'), subs: z.record(z.string().regex(/^\d+$/), SubAnswer) });

/** Any answer value; the server checks that its kind fits the question's type. */
export const AnswerValue = z.discriminatedUnion('kind', [
  ChoiceAnswer,
  MultiAnswer,
  BlanksAnswer,
  TextAnswer,
  CodeAnswer,
  SubsAnswer,
]);
/** Any answer value. */
export type AnswerValue = z.infer<typeof AnswerValue>;

/** An answer event id. */
export const AnswerEventField = z.union([
  z.literal(AnswerEvent.prevAndNext),
  z.literal(AnswerEvent.goto),
  z.literal(AnswerEvent.submit),
  z.literal(AnswerEvent.leave),
  z.literal(AnswerEvent.enter),
]);

/** POST /answer/answer body: saves an answer, records an answer event, or both. */
export const AnswerBody = z
  .object({
    /** Exam id. */
    exam_id: Id,
    /** Question id. */
    subject_id: Id,
    /** The new answer; absent when only an event is recorded. */
    answer: AnswerValue.optional(),
    /** The event that caused the call. */
    event: AnswerEventField.optional(),
    /** Client-generated id of this change; a retry with the same id is a no-op. */
    client_id: ClientId,
    /** Client sequence number of this change for the question; older ones never overwrite newer. */
    seq: z.number().int().min(0),
    /** When the change was made in the browser (epoch ms, server-aligned clock). */
    changed_at: EpochMs,
  })
  .refine((v) => v.answer !== undefined || v.event !== undefined, {
    message: 'answer or event is required',
    path: ['answer'],
  });
/** POST /answer/answer body. */
export type AnswerBody = z.input<typeof AnswerBody>;

/** POST /answer/answer data: the receipt, given only after the change is committed. */
export const AnswerReceipt = z.object({
  /** Question id. */
  subject_id: z.number().int(),
  /** The change acknowledged. */
  client_id: z.string(),
  /** Its sequence number. */
  seq: z.number().int(),
  /** Version of the answer now stored. */
  version: z.number().int(),
  /** When it was committed (epoch ms). */
  saved_at: EpochMs,
});
/** POST /answer/answer data. */
export type AnswerReceipt = z.infer<typeof AnswerReceipt>;

/** POST /answer/judge body: run on samples or custom input, or submit against hidden cases. */
export const JudgeBody = z.object({
  /** Exam id. */
  exam_id: Id,
  /** Programming question id. */
  subject_id: Id,
  /** Language of the code. */
  language: LanguageField,
  /** Source code. */
  code: z.string().min(1).max(100_000),
  /** 'run' uses the samples or `input`; 'submit' uses the hidden cases. */
  mode: z.enum(['run', 'submit']),
  /** Custom standard input for a run. */
  input: z.string().max(1_000_000).optional(),
  /** Makes a retried submit idempotent. */
  client_id: ClientId,
});
/** POST /answer/judge body. */
export type JudgeBody = z.input<typeof JudgeBody>;

/** A judge verdict. */
export const Verdict = z.enum(['AC', 'WA', 'TLE', 'MLE', 'OLE', 'RE', 'CE', 'SE']);
/** A judge verdict. */
export type Verdict = z.infer<typeof Verdict>;

/** The result of one test case. */
export const CaseResult = z.object({
  /** Case number from 1. */
  index: z.number().int(),
  /** Verdict. */
  verdict: Verdict,
  /** CPU time, ms. */
  time_ms: z.number(),
  /** Peak memory, KB. */
  memory_kb: z.number(),
  /** Output of a sample or custom run (never of a hidden case). */
  output: z.string().optional(),
});

/** POST /answer/judge data: the job and, once done, its results. */
export const JudgeData = z.object({
  /** Job id, to poll. */
  job_id: z.string(),
  /** Where the job is. */
  state: z.enum(['queued', 'running', 'done']),
  /** Overall verdict once done. */
  verdict: Verdict.nullable(),
  /** Cases judged so far. */
  cases: z.array(CaseResult),
  /** Cases in all. */
  total: z.number().int(),
  /** Compiler output on CE. */
  compile_output: z.string().optional(),
});
/** POST /answer/judge data. */
export type JudgeData = z.infer<typeof JudgeData>;

/** GET /answer/judge-status query: a run or submit of the candidate's, to follow its progress. */
export const JudgeStatusQuery = z.object({
  /** Exam id. */
  exam_id: IdParam,
  /** The job id /answer/judge answered. */
  job_id: z.string().regex(/^[A-Za-z0-9-]{1,64}$/),
});
/** GET /answer/judge-status query. */
export type JudgeStatusQuery = z.input<typeof JudgeStatusQuery>;

/** GET /answer/judge-latest query: a question of the exam, as /subject/show-new takes it. */
export const JudgeLatestQuery = ShowNewQuery;
/** GET /answer/judge-latest query. */
export type JudgeLatestQuery = z.input<typeof JudgeLatestQuery>;

/** A run or submit as judge-latest answers it: the job as judge-status shows it, and how it was started. */
export const JudgeLatestItem = JudgeData.extend({
  /** Language the code was judged in. */
  language: LanguageField,
  /** The candidate's own input of a run; null for a run on the samples and for a submit. */
  input: z.string().nullable(),
  /** When it was started (epoch ms, server clock), to tell which of a run and a submit is newer. */
  started_at: EpochMs,
});
/** A run or submit as judge-latest answers it. */
export type JudgeLatestItem = z.infer<typeof JudgeLatestItem>;

/** The newest run and submit of a question in the candidate's current attempt, so a reload keeps them. */
export const JudgeLatestData = z.object({
  /** Newest run (samples or own input), or null. */
  run: JudgeLatestItem.nullable(),
  /** Newest submit (hidden cases: verdicts only), or null. */
  submit: JudgeLatestItem.nullable(),
});
/** GET /answer/judge-latest answer. */
export type JudgeLatestData = z.infer<typeof JudgeLatestData>;

/** POST /answer/pertinent-moment body: a picture taken at a risk event, already in storage. */
export const PertinentBody = z.object({
  /** Exam id. */
  exam_id: Id,
  /** Object key of the picture. */
  key: z.string().min(1).max(300),
  /** SHA-256 of the picture, hex. */
  sha256: z.string().regex(/^[0-9a-f]{64}$/),
  /** When it was taken (epoch ms). */
  time: EpochMs,
  /** The risk record it belongs to. */
  risk_id: Id.optional(),
});
/** POST /answer/pertinent-moment body. */
export type PertinentBody = z.input<typeof PertinentBody>;

/** POST /answer/byte body: a short microphone recording, already in storage. */
export const ByteBody = z.object({
  /** Exam id. */
  exam_id: Id,
  /** Object key of the recording. */
  key: z.string().min(1).max(300),
  /** SHA-256 of the recording, hex. */
  sha256: z.string().regex(/^[0-9a-f]{64}$/),
  /** When recording started (epoch ms). */
  time: EpochMs,
  /** Length, ms. */
  duration_ms: z.number().int().min(0).max(600_000),
});
/** POST /answer/byte body. */
export type ByteBody = z.input<typeof ByteBody>;

/** Data of calls that record one piece of evidence. */
export const EvidenceData = z.object({
  /** Record id. */
  id: z.number().int(),
  /** Hash of the record in the attempt's chain, hex. */
  hash: z.string(),
});
/** Data of evidence calls. */
export type EvidenceData = z.infer<typeof EvidenceData>;

/** POST /answer/upload fields besides the file. */
export const UploadAnswerFields = z.object({
  /** Exam id. */
  exam_id: IdParam,
  /** The Q&A question the file belongs to. */
  subject_id: IdParam,
});
/** POST /answer/upload fields. */
export type UploadAnswerFields = z.input<typeof UploadAnswerFields>;

/** POST /answer/upload data: a file attached to a Q&A answer (multipart fields exam_id, subject_id, file). */
export const UploadData = z.object({
  /** Storage key to put in the answer's `files`. */
  key: z.string(),
  /** File name as uploaded. */
  file_name: z.string(),
  /** Size in bytes. */
  size: z.number().int(),
});
/** POST /answer/upload data. */
export type UploadData = z.infer<typeof UploadData>;

/** Largest file attached to a Q&A answer, bytes. */
export const ANSWER_FILE_MAX_BYTES = 20 * 1024 * 1024;
