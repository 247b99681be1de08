import { z } from 'zod';
import { RISK_EVENT_IDS } from '../enums.js';
import { ClientId, EpochMs, Id, IdParam } from './common.js';
import { EvaluationDimension } from './ceping.js';
import { ExamModeField, ExamPhaseField, ShowScoreField } from './exam.js';

/** GET /monitor/time-table data: the server's clock. */
export const TimeTableData = z.object({
  /** Server time in UTC+8, 'YYYY-MM-DD HH:mm:ss'. */
  date: z.string(),
  /** The same instant as epoch ms, for aligning the client clock. */
  timestamp: EpochMs,
  /** Offset of `date` from UTC, '+08:00'. */
  timezone: z.string(),
});
/** GET /monitor/time-table data. */
export type TimeTableData = z.infer<typeof TimeTableData>;

/** POST /monitor/start-exam body. */
export const StartExamBody = z.object({
  /** Exam id. */
  exam_id: Id,
  /** The candidate's invitation. */
  anid: Id,
  /** 2 to leave the device checks and start the clock; absent to create or resume only. */
  phase: z.literal(2).optional(),
});
/** POST /monitor/start-exam body. */
export type StartExamBody = z.input<typeof StartExamBody>;

/** An attempt as the candidate sees it. */
export const AttemptView = z.object({
  /** Attempt id. */
  id: z.number().int(),
  /** Exam id. */
  exam_id: z.number().int(),
  /** Mode. */
  mode: ExamModeField,
  /** Phase. */
  phase: ExamPhaseField,
  /** When the exam phase started (epoch ms); null while the device checks run. */
  create_time: EpochMs.nullable(),
  /** When it ends (epoch ms): start + minutes with extra time, or the window's end in longTime mode; null before the start. */
  end_time: EpochMs.nullable(),
  /** When it was submitted, null while open. */
  finished_at: EpochMs.nullable(),
  /** Screen switches left before the attempt is submitted. */
  cuts_left: z.number().int(),
});
/** An attempt as the candidate sees it. */
export type AttemptView = z.infer<typeof AttemptView>;

/** POST /monitor/start-exam data. */
export const StartExamData = z.object({
  /** The attempt created or resumed. */
  attempt: AttemptView,
  /** Server time (epoch ms) when answered. */
  server_time: EpochMs,
});
/** POST /monitor/start-exam data. */
export type StartExamData = z.infer<typeof StartExamData>;

/** POST /monitor/finish-exam body. */
export const FinishExamBody = z.object({
  /** Exam id. */
  exam_id: Id,
  /** Makes a retried finish idempotent. */
  client_id: ClientId.optional(),
});
/** POST /monitor/finish-exam body. */
export type FinishExamBody = z.input<typeof FinishExamBody>;

/** The outcome of a finished attempt as the candidate sees it. */
export const ExamResult = z.object({
  /** The finished attempt. */
  attempt: AttemptView,
  /** What the exam tells candidates: their score, only whether they passed, or nothing (told later). */
  show_score: ShowScoreField,
  /** The final score so far (automatic, judged and graders' points); null unless show_score is 'score'. */
  score: z.number().nullable(),
  /** Points every scored question is worth, graders' included; null unless show_score is 'score'. */
  max_score: z.number().nullable(),
  /**
   * Whether the result clears the exam's passing rule; null when show_score is 'none', the exam has no rule,
   * or it is not decided until a grader has scored the answers waiting for one.
   */
  passed: z.boolean().nullable(),
  /** Questions answered. */
  answered: z.number().int(),
  /** Questions in all. */
  total: z.number().int(),
  /** Answers that still wait for a grader (Q&A, programming Q&A); 0 once every one is graded. */
  pending_manual: z.number().int(),
  /** True for a practice run, which never counts. */
  practice: z.boolean(),
  /** The evaluation profile, one entry per dimension (as /ceping/exam-finish answers it); null without an evaluation section. */
  evaluation: z.array(EvaluationDimension).nullable(),
  /** True when the exam lets the candidate read the questions' explanations now (GET /exam/explanations). */
  explanations: z.boolean(),
});
/** The outcome of a finished attempt. */
export type ExamResult = z.infer<typeof ExamResult>;

/** POST /monitor/finish-exam data. */
export const FinishExamData = ExamResult;
/** POST /monitor/finish-exam data. */
export type FinishExamData = z.infer<typeof FinishExamData>;

/** POST /monitor/first-picture body: the first camera picture, already in storage. */
export const FirstPictureBody = z.object({
  /** Exam id. */
  exam_id: Id,
  /** Object key of the picture. */
  key: z.string().min(1).max(300),
  /** SHA-256 of the picture, hex. */
  sha256: z.string().regex(/^[0-9a-f]{64}$/),
  /** When it was taken (epoch ms); the server's time when absent. */
  trigger_time: EpochMs.optional(),
});
/** POST /monitor/first-picture body. */
export type FirstPictureBody = z.input<typeof FirstPictureBody>;

/** A risk event id from the catalogue, sent as a string in forms. */
export const RiskEventField = z.coerce
  .number()
  .int()
  .refine((v) => (RISK_EVENT_IDS as number[]).includes(v), 'unknown risk event');

/** POST /monitor/record-risk form (fields arrive as strings; undefined ones are left out). */
export const RecordRiskBody = z.object({
  /** Exam id. */
  exam_id: IdParam,
  /** Risk event id (RISK_EVENTS). */
  risk: RiskEventField,
  /** When it happened (epoch ms). */
  trigger_time: z.coerce.number().int(),
  /** Object key of a picture taken at that moment. */
  image_key: z.string().max(300).optional(),
  /** Free detail, e.g. the track that ended. */
  detail: z.string().max(2000).optional(),
  /** Makes a retried record idempotent. */
  client_id: ClientId,
});
/** POST /monitor/record-risk form. */
export type RecordRiskBody = z.input<typeof RecordRiskBody>;

/** POST /monitor/record-risk data. */
export const RecordRiskData = z.object({
  /** Record id. */
  id: z.number().int(),
  /** Hash of the record in the attempt's chain, hex. */
  hash: z.string(),
  /** Screen switches left; 0 or less means the attempt was submitted. */
  cuts_left: z.number().int(),
  /** Phase after the record (3 when it ended the attempt). */
  phase: ExamPhaseField,
});
/** POST /monitor/record-risk data. */
export type RecordRiskData = z.infer<typeof RecordRiskData>;

/** POST /tools/face_recognize form: the picture in field face_img, plus the exam. */
export const FaceRecognizeFields = z.object({
  /** Exam id. */
  exam_id: IdParam,
});

/** POST /tools/face_recognize data. */
export const FaceRecognizeData = z.object({
  /** Faces found. */
  face_count: z.number().int(),
  /** Similarity to the attempt's first picture, 0 to 1; null without one. */
  similarity: z.number().nullable(),
  /** Similarity to the exam's ID photo of the candidate, 0 to 1; null without one. */
  id_similarity: z.number().nullable(),
  /** True when a phone is seen in the picture. */
  phone_detected: z.boolean(),
  /** True when exactly one face is found and it matches. */
  passed: z.boolean(),
  /** The risk record made when the check did not pass (no face, several faces, mismatch, phone), else null. */
  risk_id: z.number().int().nullable(),
});
/** POST /tools/face_recognize data. */
export type FaceRecognizeData = z.infer<typeof FaceRecognizeData>;

/** GET /sts/get-token data: short-lived upload credentials for object storage. */
export const StsData = z.object({
  /** Session token. */
  SecurityToken: z.string(),
  /** Access key id. */
  AccessKeyId: z.string(),
  /** Access key secret. */
  AccessKeySecret: z.string(),
  /** When they expire, ISO 8601. */
  Expiration: z.string(),
  /** Bucket to upload to. */
  bucket: z.string(),
  /** Region. */
  region: z.string(),
  /** Endpoint URL. */
  endpoint: z.string(),
  /** Key prefix the credentials are limited to. */
  prefix: z.string(),
});
/** GET /sts/get-token data. */
export type StsData = z.infer<typeof StsData>;
