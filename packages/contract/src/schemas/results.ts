import { z } from 'zod';
import { AnswerValue } from './answer.js';
import { EpochMs, PageQuery } from './common.js';
import { GradedSection } from './grading.js';
import { Id, IdParam } from './ids.js';

/** How a query string says yes or no ('1'/'true' or '0'/'false'). */
const QueryFlag = z.enum(['1', '0', 'true', 'false']).transform((v) => v === '1' || v === 'true');

/** A score or count bound of a query string. */
const QueryNumber = z.coerce.number().min(0).max(1_000_000);

/** Columns the ranking sorts by. */
export const RANKING_SORTS = ['rank', 'name', 'school', 'risk_count', 'finished_at'] as const;
/** A ranking sort column. */
export type RankingSort = (typeof RANKING_SORTS)[number];

/** What narrows the ranking (the table's filters, and what an export holds). */
export const RankingFilter = z.object({
  /** Exam id. */
  exam_id: IdParam,
  /** Rank by this section's score instead of the total; the score range then applies to it. */
  section: GradedSection.optional(),
  /** Part of the candidate's school. */
  school: z.string().trim().max(100).optional(),
  /** Part of the candidate's major. */
  major: z.string().trim().max(100).optional(),
  /** Lowest score (of the section when one is given). */
  score_min: QueryNumber.optional(),
  /** Highest score (of the section when one is given). */
  score_max: QueryNumber.optional(),
  /** Fewest risk records. */
  risk_min: z.coerce.number().int().min(0).max(1_000_000).optional(),
  /** Most risk records. */
  risk_max: z.coerce.number().int().min(0).max(1_000_000).optional(),
  /** Only attempts with (true) or without (false) a risk flag a proctor confirmed. */
  flagged: QueryFlag.optional(),
});
/** What narrows the ranking. */
export type RankingFilter = z.input<typeof RankingFilter>;

/** GET /admin/results/ranking query. */
export const RankingQuery = PageQuery.merge(RankingFilter).extend({
  /** Sort column ('rank': by the ranked score, ties by attempt). */
  sort: z.enum(RANKING_SORTS).default('rank'),
  /** Sort direction. */
  order: z.enum(['asc', 'desc']).default('asc'),
});
/** GET /admin/results/ranking query. */
export type RankingQuery = z.input<typeof RankingQuery>;

/** A section's points in an attempt. */
export const SectionScore = z.object({
  /** Section. */
  section: GradedSection,
  /** Points so far (answers waiting for a grader count 0). */
  score: z.number(),
  /** Points it is worth. */
  max: z.number(),
});
/** A section's points in an attempt. */
export type SectionScore = z.infer<typeof SectionScore>;

/** A candidate as the results show them. */
export const ResultCandidate = z.object({
  /** Candidate id. */
  id: Id,
  /** Name ('' when none given, or hidden under blind grading). */
  name: z.string(),
  /** Phone, masked ('138****8000'). */
  phone: z.string(),
  /** School. */
  school: z.string(),
  /** Major. */
  major: z.string(),
});
/** A candidate as the results show them. */
export type ResultCandidate = z.infer<typeof ResultCandidate>;

/** One row of the ranking. */
export const RankingRow = z.object({
  /** Attempt id. */
  attempt_id: Id,
  /** Place among all the exam's finished attempts (ties share it: 1, 1, 3); filters do not renumber. */
  rank: z.number().int(),
  /** The candidate. */
  candidate: ResultCandidate,
  /** Total points. */
  score: z.number(),
  /** Points the attempt is worth. */
  max_score: z.number(),
  /** Points per section. */
  sections: z.array(SectionScore),
  /** By the exam's pass rule: true, false, or null (no rule, or undecided while answers wait for a grader). */
  passed: z.boolean().nullable(),
  /** Risk records of the attempt. */
  risk_count: z.number().int(),
  /** True when a proctor confirmed at least one of them. */
  flagged: z.boolean(),
  /** Risk records no proctor decided yet. */
  open_flags: z.number().int(),
  /** 'complete' once every answer is scored, 'pending' while some wait for a grader. */
  grading: z.enum(['complete', 'pending']),
  /** When the attempt finished. */
  finished_at: EpochMs.nullable(),
});
/** One row of the ranking. */
export type RankingRow = z.infer<typeof RankingRow>;

/** GET /admin/results/ranking data. */
export const RankingData = z.object({
  /** One page of rows. */
  list: z.array(RankingRow),
  /** Rows the filters match. */
  total: z.number().int(),
  /** Finished attempts of the exam in all. */
  finished: z.number().int(),
  /** True when names are hidden (blind grading, answers still waiting for a grader). */
  blind: z.boolean(),
});
/** GET /admin/results/ranking data. */
export type RankingData = z.infer<typeof RankingData>;

/** GET /admin/results/report query. */
export const ResultReportQuery = z.object({
  /** Attempt id. */
  attempt_id: IdParam,
});

/** The judge's verdict of a programming question's latest submit. */
export const ReportJudge = z.object({
  /** Language of the code. */
  language: z.string(),
  /** Overall verdict, or null while judging. */
  verdict: z.string().nullable(),
  /** Hidden cases passed. */
  passed: z.number().int().nullable(),
  /** Hidden cases. */
  total: z.number().int(),
  /** Submits made. */
  submits: z.number().int(),
});

/** One question of the report. */
export const ReportQuestion = z.object({
  /** Question id. */
  question_id: Id,
  /** Its section. */
  section: GradedSection,
  /** Question type id. */
  type: z.number().int(),
  /** Number shown to the candidate. */
  order_num: z.number().int(),
  /** Plain text of the stem, shortened. */
  stem: z.string(),
  /** The candidate's answer (null when none). */
  answer: AnswerValue.nullable(),
  /** Points got (null while a grader has not decided). */
  points: z.number().nullable(),
  /** Points it is worth. */
  max: z.number(),
  /** Who scored it: automatically, the judge, or a grader. */
  source: z.enum(['auto', 'judge', 'grader']),
  /** Time the candidate spent on it (ms), from the answer events (entering and leaving it). */
  time_ms: z.number().int(),
  /** The latest judged submit of a programming question, or null. */
  judge: ReportJudge.nullable(),
});
/** One question of the report. */
export type ReportQuestion = z.infer<typeof ReportQuestion>;

/** One evaluation dimension's score. */
export const DimensionScore = z.object({
  /** Dimension id. */
  dimension: z.string(),
  /** Points (option points added). */
  score: z.number(),
  /** Most points possible. */
  max: z.number(),
});

/** Risk records of one kind in an attempt, with the proctors' decisions. */
export const RiskTally = z.object({
  /** Risk event id. */
  risk: z.number().int(),
  /** Records. */
  count: z.number().int(),
  /** Confirmed by a proctor. */
  confirmed: z.number().int(),
  /** Dismissed by a proctor. */
  dismissed: z.number().int(),
});

/** GET /admin/results/report data: one attempt's report. */
export const ResultReportData = z.object({
  /** Exam id. */
  exam_id: Id,
  /** Attempt id. */
  attempt_id: Id,
  /** The candidate. */
  candidate: ResultCandidate,
  /** When the attempt started and finished, and why it finished. */
  started_at: EpochMs.nullable(),
  finished_at: EpochMs.nullable(),
  finish_reason: z.string().nullable(),
  /** Total points and what the attempt is worth. */
  score: z.number(),
  max_score: z.number(),
  /** Place in the exam's ranking. */
  rank: z.number().int(),
  /** Finished attempts ranked. */
  ranked: z.number().int(),
  /** By the pass rule (null: none, or undecided). */
  passed: z.boolean().nullable(),
  /** 'complete' or 'pending'. */
  grading: z.enum(['complete', 'pending']),
  /** Points per section. */
  sections: z.array(SectionScore),
  /** Each question in the candidate's order. */
  questions: z.array(ReportQuestion),
  /** Evaluation dimensions. */
  dimensions: z.array(DimensionScore),
  /** The integrity summary. */
  integrity: z.object({
    /** Risk records in all. */
    risk_count: z.number().int(),
    /** Per risk event. */
    by_risk: z.array(RiskTally),
    /** Records no proctor decided yet. */
    open: z.number().int(),
    /** True when a proctor confirmed one. */
    flagged: z.boolean(),
    /** Warnings proctors sent. */
    warnings: z.number().int(),
    /** Screen switches used. */
    cuts_used: z.number().int(),
    /** Decisions with their notes, newest first. */
    decisions: z.array(
      z.object({
        /** Risk record id. */
        record_id: Id,
        /** Risk event id. */
        risk: z.number().int(),
        /** The decision. */
        decision: z.enum(['confirmed', 'dismissed']),
        /** The proctor's note. */
        note: z.string(),
        /** When it was decided. */
        decided_at: EpochMs.nullable(),
      }),
    ),
  }),
});
/** One attempt's report. */
export type ResultReportData = z.infer<typeof ResultReportData>;

/** GET /admin/results/stats query. */
export const ResultStatsQuery = z.object({
  /** Exam id. */
  exam_id: IdParam,
  /** Bins of the score distribution. */
  bins: z.coerce.number().int().min(2).max(50).default(10),
});

/** GET /admin/results/stats data: the exam's figures for charts. */
export const ResultStatsData = z.object({
  /** Finished attempts. */
  attempts: z.number().int(),
  /** Mean, median and highest total (null without attempts). */
  mean: z.number().nullable(),
  median: z.number().nullable(),
  top: z.number().nullable(),
  /** The largest maximum among the attempts. */
  max_score: z.number(),
  /** Passed, failed and undecided by the pass rule (all undecided without one). */
  pass: z.object({ passed: z.number().int(), failed: z.number().int(), undecided: z.number().int() }),
  /** True when a version the finished attempts took has a pass rule (without one, nobody passes or fails). */
  pass_rule: z.boolean(),
  /** The score distribution: equal bins from 0 to max_score; the last includes its upper bound. */
  distribution: z.array(z.object({ from: z.number(), to: z.number(), count: z.number().int() })),
  /** Per section: mean points and what it is worth. */
  sections: z.array(z.object({ section: GradedSection, mean: z.number(), max: z.number() })),
  /** Per question: mean and median time spent (ms) among the attempts that spent any, and its mean points. */
  questions: z.array(
    z.object({
      question_id: Id,
      section: GradedSection,
      type: z.number().int(),
      order_num: z.number().int(),
      mean_ms: z.number().int(),
      median_ms: z.number().int(),
      mean_points: z.number().nullable(),
      max: z.number(),
    }),
  ),
});
/** The exam's figures for charts. */
export type ResultStatsData = z.infer<typeof ResultStatsData>;

/** GET /admin/results/dimensions data: the evaluation section's dimensions over the exam's finished attempts. */
export const DimensionReportData = z.object({
  /** Finished attempts with evaluation items. */
  attempts: z.number().int(),
  /** Per dimension: mean, lowest and highest score, what it is worth, and the distribution in five bands. */
  dimensions: z.array(
    z.object({
      dimension: z.string(),
      mean: z.number(),
      min: z.number(),
      max_seen: z.number(),
      max: z.number(),
      /** Attempts per fifth of the maximum, lowest first. */
      bands: z.array(z.number().int()),
    }),
  ),
});
/** The evaluation dimension report. */
export type DimensionReportData = z.infer<typeof DimensionReportData>;

/** File formats of a results export. */
export const RESULT_EXPORT_FORMATS = ['xlsx', 'csv'] as const;

/** POST /admin/results/export body: the ranking (as filtered) with per-question points, as a file. */
export const ResultExportBody = z.object({
  /** Exam id. */
  exam_id: Id,
  /** File format. */
  format: z.enum(RESULT_EXPORT_FORMATS),
  /** Language of the headers. */
  lang: z.enum(['zh', 'en']).default('zh'),
  /** Rank by this section. */
  section: GradedSection.optional(),
  /** Part of the school. */
  school: z.string().trim().max(100).optional(),
  /** Part of the major. */
  major: z.string().trim().max(100).optional(),
  /** Score range. */
  score_min: z.number().min(0).max(1_000_000).optional(),
  score_max: z.number().min(0).max(1_000_000).optional(),
  /** Risk record range. */
  risk_min: z.number().int().min(0).max(1_000_000).optional(),
  risk_max: z.number().int().min(0).max(1_000_000).optional(),
  /** Confirmed flag or not. */
  flagged: z.boolean().optional(),
});
/** POST /admin/results/export body. */
export type ResultExportBody = z.input<typeof ResultExportBody>;

/** What a finished `results_export` job answers (its result). */
export const ResultExportResult = z.object({
  /** Rows written. */
  rows: z.number().int(),
  /** The file's name. */
  file_name: z.string(),
  /** Its size in bytes. */
  size: z.number().int(),
  /** Format. */
  format: z.enum(RESULT_EXPORT_FORMATS),
  /** The download call's path (under the API prefix), with the job id. */
  download: z.string(),
});
/** What a finished `results_export` job answers. */
export type ResultExportResult = z.infer<typeof ResultExportResult>;

/** GET /admin/results/export-file query. */
export const ResultExportFileQuery = z.object({
  /** The export job. */
  job_id: IdParam,
});
