import { z } from 'zod';
import { SECTIONS } from '../enums.js';
import { LANGUAGE_IDS } from '../languages.js';
import { EpochMs, Flag, Id, IdParam } from './common.js';

/** A question type id, 1 to 11. */
export const QuestionTypeField = z.number().int().min(1).max(11);

/** A section kind. */
export const SectionField = z.enum(SECTIONS);

/** A language id. */
export const LanguageField = z.enum(LANGUAGE_IDS);

/** One entry of the subject order list and of the answer card. */
export const SubjectOrderEntry = z.object({
  /** Question id. */
  id: z.number().int(),
  /** Question type. */
  type: QuestionTypeField,
  /** Position shown to the candidate, from 1. */
  order_num: z.number().int(),
  /** 0 means unanswered. */
  isAnswered: Flag,
  /** Section the question belongs to. */
  section: SectionField,
});
/** One entry of the subject order list. */
export type SubjectOrderEntry = z.infer<typeof SubjectOrderEntry>;

/** GET /subject/order-list query. */
export const OrderListQuery = z.object({
  /** Exam id. */
  exam_id: IdParam,
});
/** GET /subject/order-list query. */
export type OrderListQuery = z.input<typeof OrderListQuery>;

/** GET /subject/order-list data. */
export const OrderListData = z.object({
  /** Questions section by section, each section's types in QUESTION_TYPE_DISPLAY_ORDER. */
  subject_order: z.array(SubjectOrderEntry),
});
/** GET /subject/order-list data. */
export type OrderListData = z.infer<typeof OrderListData>;

/** An option of a choice question, never with its correctness. */
export const SubjectOption = z.object({
  /** Option id, stable across shuffles ('A', 'B', ...). */
  id: z.string(),
  /** Option text (sanitized HTML). */
  content: z.string(),
});

/** A sample case shown with a programming question. */
export const SampleCase = z.object({
  /** Standard input. */
  input: z.string(),
  /** Expected standard output. */
  output: z.string(),
});

/** The fields a question shows in every type. */
const SubjectBase = z.object({
  /** Question id. */
  id: z.number().int(),
  /** Question type. */
  type: QuestionTypeField,
  /** Position in the exam, from 1. */
  order_num: z.number().int(),
  /** Points the question is worth. */
  score: z.number(),
  /** The question text (sanitized HTML). */
  stem: z.string(),
  /** Options of choice types (1, 2, 3, 7, 11). */
  options: z.array(SubjectOption).optional(),
  /** Number of blanks of a fill-in-blank question. */
  blanks: z.number().int().optional(),
  /** Languages offered by a programming question. */
  languages: z.array(LanguageField).optional(),
  /** Starter code per language of a programming question, shown before the candidate types. */
  starter: z.partialRecord(LanguageField, z.string()).optional(),
  /** Sample cases of a programming question (hidden cases never leave the server). */
  samples: z.array(SampleCase).optional(),
  /** CPU time limit per case, ms. */
  time_limit_ms: z.number().int().optional(),
  /** Memory limit, MB. */
  memory_limit_mb: z.number().int().optional(),
});

/** A question as the candidate sees it: never with its answer key. */
export const Subject = SubjectBase.extend({
  /** Sub-questions of a reading or listening question. */
  subs: z.array(SubjectBase).optional(),
  /** The passage of a reading question (sanitized HTML). */
  passage: z.string().optional(),
  /** Audio of a listening question: how often it may be played. */
  audio: z.object({ play_limit: z.number().int(), duration_s: z.number() }).optional(),
  /** Section the question belongs to. */
  section: SectionField,
});
/** A question as the candidate sees it. */
export type Subject = z.infer<typeof Subject>;

/** GET /subject/show-new query. */
export const ShowNewQuery = z.object({
  /** Question id. */
  subject_id: IdParam,
  /** Exam id. */
  exam_id: IdParam,
});
/** GET /subject/show-new query. */
export type ShowNewQuery = z.input<typeof ShowNewQuery>;

/** A stored answer and its version. */
export const StoredAnswer = z.object({
  /** The answer value (see AnswerValue). */
  value: z.unknown(),
  /** Version stored on the server; grows by one on each change. */
  version: z.number().int(),
  /** The client sequence number of the stored change; a new change needs a higher one. */
  seq: z.number().int(),
  /** When it was stored (epoch ms). */
  saved_at: EpochMs,
});

/** GET /subject/show-new data. */
export const ShowNewData = z.object({
  /** The question. */
  subject: Subject,
  /** The candidate's stored answer, if any. */
  answer: StoredAnswer.nullable(),
});
/** GET /subject/show-new data. */
export type ShowNewData = z.infer<typeof ShowNewData>;

/** GET /subject/show-section query (our extension): a section's questions in one call. */
export const ShowSectionQuery = z.object({
  /** Exam id. */
  exam_id: IdParam,
  /** The section: linetest or major (evaluation items come from /ceping/show-new). */
  section: z.enum(['linetest', 'major']),
});
/** GET /subject/show-section query. */
export type ShowSectionQuery = z.input<typeof ShowSectionQuery>;

/** GET /subject/show-section data. */
export const ShowSectionData = z.object({
  /** Each question of the section in display order, as /subject/show-new answers it. */
  list: z.array(ShowNewData),
  /** Questions of the section whose stored row no longer parses: /subject/show-new names the problem. */
  invalid: z.array(z.number().int()),
});
/** GET /subject/show-section data. */
export type ShowSectionData = z.infer<typeof ShowSectionData>;

/** POST /subject/get-audio-info and /subject/audio-play body. */
export const AudioBody = z.object({
  /** Exam id. */
  exam_id: Id,
  /** Listening question id. */
  subject_id: Id,
});
/** Audio call body. */
export type AudioBody = z.input<typeof AudioBody>;

/** Audio call data: how often the audio was played and a short-lived link to it. */
export const AudioData = z.object({
  /** Plays allowed. */
  play_limit: z.number().int(),
  /** Plays used. */
  play_count: z.number().int(),
  /** Link to the audio, null once the limit is used up. */
  url: z.string().nullable(),
  /** Length in seconds. */
  duration_s: z.number(),
});
/** Audio call data. */
export type AudioData = z.infer<typeof AudioData>;
