import { z } from 'zod';
import { QuestionKindField } from '../questions/index.js';
import { QueryFlag } from './bank.js';
import { EpochMs, PageQuery } from './common.js';
import { Id, IdParam } from './ids.js';

/**
 * Item analysis of an exam's version over its finished attempts. The figures are defined once, in the server's
 * `services/itemAnalysis.ts`, and the console shows each definition beside its number.
 */

/** The share of each end of the ranking the upper-lower index compares (27 %). */
export const UPPER_LOWER_PERCENT = 27;

/** Columns the question table sorts by (nulls last either way; ties by number). */
export const ITEM_ANALYSIS_SORTS = ['number', 'facility', 'sd', 'item_rest', 'upper_lower', 'n'] as const;
/** A sort column of the question table. */
export type ItemAnalysisSort = (typeof ITEM_ANALYSIS_SORTS)[number];

/**
 * GET /admin/analysis/items query: the exam, which of its published versions (default: the current one), and the
 * page of questions: sorted, filtered (flagged only, one section) and paged on the server.
 */
export const ItemAnalysisQuery = PageQuery.extend({
  /** Exam id. */
  exam_id: IdParam,
  /** A published version of the exam; default: the one published now. */
  version_id: IdParam.optional(),
  /** Sort column. */
  sort: z.enum(ITEM_ANALYSIS_SORTS).default('number'),
  /** Sort direction. */
  order: z.enum(['asc', 'desc']).default('asc'),
  /** Only questions flagged for negative discrimination. */
  flagged: QueryFlag.default(false),
  /** Only this section's questions. */
  section: z.enum(['linetest', 'major']).optional(),
});
/** GET /admin/analysis/items query. */
export type ItemAnalysisQuery = z.input<typeof ItemAnalysisQuery>;

/** Share of the attempts given a choice question that chose one option. */
export const OptionShare = z.object({
  /** Option id ('A'..'H'); '' stands for no answer. */
  option: z.string(),
  /** Share, 0..1 (several picks of a multiple choice each count, so the shares may add up past 1). */
  share: z.number(),
  /** True for a right option of the key (a gradient choice: its best option). */
  key: z.boolean(),
});
/** Share of attempts choosing one option. */
export type OptionShare = z.infer<typeof OptionShare>;

/** The figures of one question; a figure the data leaves undefined (no attempts, no spread) is null. */
export const ItemAnalysisItem = z.object({
  /** The question (the version's frozen copy). */
  question_id: Id,
  /** The bank question it was copied from, or null. */
  bank_question_id: Id.nullable(),
  /** Question number in the exam, from 1 (sections in order, then the author's order). */
  number: z.number().int(),
  /** Kind. */
  kind: QuestionKindField,
  /** Type id (1..11). */
  type: z.number().int(),
  /** Section: linetest or major. */
  section: z.enum(['linetest', 'major']),
  /** The start of its stem as plain text. */
  title: z.string(),
  /** Points it is worth. */
  max: z.number(),
  /** Attempts given it whose answer has its final points. */
  n: z.number().int(),
  /** Answers still waiting for a grader (left out of the figures). */
  pending: z.number().int(),
  /** Mean points. */
  mean: z.number().nullable(),
  /** Facility (难度, 通过率): mean points over the question's points, 0..1; higher is easier. */
  facility: z.number().nullable(),
  /** Standard deviation of the points (the sample one, n - 1). */
  sd: z.number().nullable(),
  /** Item-rest correlation (题总相关): Pearson's r between its points and the total on the other questions. */
  item_rest: z.number().nullable(),
  /** Upper-lower index (区分度 D, 高低分组 27 %): mean of the top 27 % by total minus the bottom's, over its points. */
  upper_lower: z.number().nullable(),
  /** Choice questions: the share choosing each option, then no answer (''); null for other kinds. */
  option_shares: z.array(OptionShare).nullable(),
  /** Negative discrimination by either index: stronger candidates did worse on it. */
  flagged: z.boolean(),
});
/** The figures of one question. */
export type ItemAnalysisItem = z.infer<typeof ItemAnalysisItem>;

/** The figures of the exam's version as a whole. */
export const ExamAnalysisFigures = z.object({
  /** Finished attempts analysed. */
  attempts: z.number().int(),
  /** Questions analysed. */
  questions: z.number().int(),
  /** Mean total score. */
  mean_total: z.number().nullable(),
  /** Standard deviation of the totals. */
  sd_total: z.number().nullable(),
  /** Cronbach's alpha: k/(k-1) × (1 - Σ item variances / variance of totals); null when undefined. */
  alpha: z.number().nullable(),
  /** Attempts alpha is computed over: those given every question with every answer graded. */
  alpha_attempts: z.number().int(),
});
/** The exam's figures. */
export type ExamAnalysisFigures = z.infer<typeof ExamAnalysisFigures>;

/** A published version of the exam with its finished attempts, to choose which one to analyse. */
export const AnalysisVersion = z.object({
  /** Version id. */
  id: Id,
  /** Version number. */
  number: z.number().int(),
  /** Finished attempts on it. */
  attempts: z.number().int(),
});
/** A version to analyse. */
export type AnalysisVersion = z.infer<typeof AnalysisVersion>;

/** GET /admin/analysis/items data. */
export const ItemAnalysisData = z.object({
  /** Exam id. */
  exam_id: Id,
  /** Exam name. */
  name: z.string(),
  /** The version analysed; null when the exam has never been published (nothing to analyse). */
  version_id: Id.nullable(),
  /** The exam's published versions, newest first. */
  versions: z.array(AnalysisVersion),
  /** The exam as a whole. */
  exam: ExamAnalysisFigures,
  /** One page of the scored questions (the evaluation section is not scored) matching the filters, sorted. */
  items: z.array(ItemAnalysisItem),
  /** Questions matching the filters. */
  total: z.number().int(),
  /** Questions flagged in the version, whatever the filters. */
  flagged: z.number().int(),
  /** When the figures shown were computed (epoch ms); null while the first computation is under way. */
  computed_at: EpochMs.nullable(),
  /**
   * The job computing newer figures (scores changed since, or none computed yet), to follow at /admin/jobs/detail;
   * null when the figures shown are current.
   */
  job_id: Id.nullable(),
});
/** GET /admin/analysis/items data. */
export type ItemAnalysisData = z.infer<typeof ItemAnalysisData>;
