import { z } from 'zod';
import { ClientId, EpochMs, Flag, Id, IdParam } from './common.js';
import { SubjectOrderEntry, SubjectOption } from './subject.js';

/** Query of evaluation calls that take the exam only. */
export const CepingExamQuery = z.object({
  /** Exam id. */
  exam_id: IdParam,
});
/** Query of evaluation calls that take the exam only. */
export type CepingExamQuery = z.input<typeof CepingExamQuery>;

/** One item of the evaluation answer card. */
export const CepingCardItem = z.object({
  /** Item id. */
  id: z.number().int(),
  /** Position from 1. */
  order_num: z.number().int(),
  /** 0 means unanswered. */
  isAnswered: Flag,
});

/** GET /ceping/exam-line-order data: the evaluation answer card. */
export const CepingLineOrderData = z.object({
  /** Items in order. */
  data: z.array(CepingCardItem),
  /** Items in all. */
  total: z.number().int(),
});
/** GET /ceping/exam-line-order data. */
export type CepingLineOrderData = z.infer<typeof CepingLineOrderData>;

/** GET /ceping/exam-order-list data. */
export const CepingOrderListData = z.object({
  /** Evaluation items in order. */
  subject_order: z.array(SubjectOrderEntry),
});
/** GET /ceping/exam-order-list data. */
export type CepingOrderListData = z.infer<typeof CepingOrderListData>;

/** GET /ceping/exam-show and /ceping/exam-show-new query. */
export const CepingShowQuery = z.object({
  /** Exam id. */
  exam_id: IdParam,
  /** Item id. */
  subject_id: IdParam,
});
/** Evaluation show query. */
export type CepingShowQuery = z.input<typeof CepingShowQuery>;

/** An evaluation item: a statement with options; option scores stay on the server. */
export const CepingItem = z.object({
  /** Item id. */
  id: z.number().int(),
  /** Position from 1. */
  order_num: z.number().int(),
  /** The statement (sanitized HTML). */
  stem: z.string(),
  /** The options. */
  options: z.array(SubjectOption),
});

/** Evaluation show data. */
export const CepingShowData = z.object({
  /** The item. */
  subject: CepingItem,
  /** The option chosen so far. */
  answer: z.string().nullable(),
  /** Previous item id, null on the first. */
  prev_id: z.number().int().nullable(),
  /** Next item id, null on the last. */
  next_id: z.number().int().nullable(),
});
/** Evaluation show data. */
export type CepingShowData = z.infer<typeof CepingShowData>;

/** POST /ceping/answer body. */
export const CepingAnswerBody = z.object({
  /** Exam id. */
  exam_id: Id,
  /** Item id. */
  subject_id: Id,
  /** The option chosen. */
  option: z.string().min(1).max(16),
  /** Client-generated id; a retry with the same id is a no-op. */
  client_id: ClientId,
  /** Client sequence number for the item. */
  seq: z.number().int().min(0),
  /** When the change was made (epoch ms). */
  changed_at: EpochMs,
});
/** POST /ceping/answer body. */
export type CepingAnswerBody = z.input<typeof CepingAnswerBody>;

/** POST /ceping/exam-finish body. */
export const CepingFinishBody = z.object({
  /** Exam id. */
  exam_id: Id,
});
/** POST /ceping/exam-finish body. */
export type CepingFinishBody = z.input<typeof CepingFinishBody>;

/** One dimension of the evaluation profile: its score out of its most, and how many of its items were answered. */
export const EvaluationDimension = z.object({
  dimension: z.string(),
  /** The answered items' points. */
  score: z.number(),
  /** The most its items can add up to. */
  max: z.number(),
  /** Its items the candidate answered (0: the dimension has no score, which is not the lowest score). */
  answered: z.number().int().nonnegative(),
  /** Its items in all. */
  items: z.number().int().nonnegative(),
});
/** One dimension of the evaluation profile. */
export type EvaluationDimension = z.infer<typeof EvaluationDimension>;

/** POST /ceping/exam-finish data: the dimension scores. */
export const CepingFinishData = z.object({
  /** One score per dimension. */
  dimensions: z.array(EvaluationDimension),
});
/** POST /ceping/exam-finish data. */
export type CepingFinishData = z.infer<typeof CepingFinishData>;
