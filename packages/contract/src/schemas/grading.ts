import { z } from 'zod';
import { AnswerValue } from './answer.js';
import { EpochMs, PageQuery } from './common.js';
import { Id, IdParam } from './ids.js';

/** Sections whose answers graders score (the evaluation section has no grader questions). */
export const GRADED_SECTIONS = ['linetest', 'major'] as const;
/** A section graders may be limited to. */
export const GradedSection = z.enum(GRADED_SECTIONS);

/** Largest reconciliation margin, in points. */
export const GRADING_MARGIN_MAX = 1000;
/** Longest grader's comment. */
export const GRADING_COMMENT_MAX = 5000;

/** How an exam is graded. */
export const GradingSettings = z.object({
  /** Graders see no name, phone or school until every answer of the exam is graded. */
  blind: z.boolean(),
  /** Each answer is marked by two different graders. */
  double_marking: z.boolean(),
  /** Two marks further apart than this many points go to reconciliation (double marking only). */
  margin: z.number().min(0, 'the margin cannot be negative').max(GRADING_MARGIN_MAX, 'the margin is too large'),
});
/** How an exam is graded. */
export type GradingSettings = z.infer<typeof GradingSettings>;

/** The default of an exam that never set its grading: one grader, names shown, margin 0. */
export const DEFAULT_GRADING_SETTINGS: GradingSettings = { blind: false, double_marking: false, margin: 0 };

/** Change an exam's grading settings. */
export const GradingSettingsBody = GradingSettings.extend({
  /** Exam id. */
  exam_id: Id,
});

/** A grader of an exam and the sections they grade. */
export const GraderView = z.object({
  /** Staff id. */
  staff_id: Id,
  /** Name. */
  name: z.string(),
  /** Sections they grade; empty: the whole exam. */
  sections: z.array(GradedSection),
});
/** A grader of an exam. */
export type GraderView = z.infer<typeof GraderView>;

/** An exam's grading set-up: its settings and graders. */
export const GradingSetupData = z.object({
  /** Settings. */
  settings: GradingSettings,
  /** Assigned graders. */
  graders: z.array(GraderView),
});
/** An exam's grading set-up. */
export type GradingSetupData = z.infer<typeof GradingSetupData>;

/** Assign a grader to an exam, for the whole exam or some sections (assigning again replaces the sections). */
export const GradingAssignBody = z.object({
  /** Exam id. */
  exam_id: Id,
  /** The grader's staff id. */
  staff_id: Id,
  /** Sections they grade; empty: the whole exam. */
  sections: z.array(GradedSection).max(GRADED_SECTIONS.length).default([]),
});

/** Counts of an exam's (or a question's) answers waiting for graders. */
export const GradingCounts = z.object({
  /** Answers graders score (finished attempts, answered questions). */
  total: z.number().int(),
  /** Answers with a final score. */
  graded: z.number().int(),
  /** Answers whose two marks differ by more than the margin, waiting for a reconciling mark. */
  reconcile: z.number().int(),
});
/** Counts of answers to grade. */
export type GradingCounts = z.infer<typeof GradingCounts>;

/** An exam in the grader's list. */
export const GradingExamItem = GradingCounts.extend({
  /** Exam id. */
  exam_id: Id,
  /** Exam name. */
  name: z.string(),
  /** Settings. */
  settings: GradingSettings,
  /** Answers the caller may still mark now. */
  mine_left: z.number().int(),
});
/** An exam in the grader's list. */
export type GradingExamItem = z.infer<typeof GradingExamItem>;

/** Exams the caller grades, paged; `keyword` filters by name. */
export const GradingExamListQuery = PageQuery.extend({
  /** Part of the exam's name. */
  keyword: z.string().trim().max(100).optional(),
});

/** A page of exams to grade. */
export const GradingExamListData = z.object({
  /** Exams. */
  list: z.array(GradingExamItem),
  /** Exams in all. */
  total: z.number().int(),
});
/** A page of exams to grade. */
export type GradingExamListData = z.infer<typeof GradingExamListData>;

/** Which answer is next for the caller; `question_id` keeps to one question. */
export const GradingNextQuery = z.object({
  /** Exam id. */
  exam_id: IdParam,
  /** Only this question's answers. */
  question_id: IdParam.optional(),
});

/** One answer: an attempt's answer to one question. */
export const GradingItemRef = z.object({
  /** Attempt id. */
  attempt_id: Id,
  /** Question id (of the attempt's exam version). */
  question_id: Id,
});
/** One answer. */
export type GradingItemRef = z.infer<typeof GradingItemRef>;

/** The caller's next answer to mark, or null when none is left. */
export const GradingNextData = z.object({
  /** The next answer, or null. */
  next: GradingItemRef.nullable(),
  /** Answers the caller may still mark (this one included). */
  left: z.number().int(),
});
/** The caller's next answer. */
export type GradingNextData = z.infer<typeof GradingNextData>;

/** One answer to show. */
export const GradingItemQuery = z.object({
  /** Attempt id. */
  attempt_id: IdParam,
  /** Question id. */
  question_id: IdParam,
});

/** A criterion as graders see it. */
export const GradingCriterion = z.object({
  /** Name. */
  title: z.string(),
  /** Points it is worth in the rubric. */
  points: z.number(),
  /** What earns the points. */
  description: z.string(),
});

/** A grader's mark. */
export const GradingMarkView = z.object({
  /** Mark id. */
  id: Id,
  /** Grader's staff id. */
  grader_id: Id,
  /** Grader's name. */
  grader_name: z.string(),
  /** Points per criterion, in the rubric's order (empty when the question has no criteria). */
  criteria: z.array(z.number()),
  /** Points for the answer, on the question's points in the exam. */
  total: z.number(),
  /** The grader's comment. */
  comment: z.string(),
  /** True for the mark that settles two marks too far apart. */
  reconciling: z.boolean(),
  /** When it was given. */
  created_at: EpochMs,
});
/** A grader's mark. */
export type GradingMarkView = z.infer<typeof GradingMarkView>;

/** A run or submit of the candidate's code by the judge. */
export const GradingRunView = z.object({
  /** Run id. */
  id: Id,
  /** 'run' (samples or own input) or 'submit' (hidden cases). */
  mode: z.string(),
  /** Language id. */
  language: z.string(),
  /** The code it ran. */
  source: z.string(),
  /** Verdict, or null while judging. */
  verdict: z.string().nullable(),
  /** Cases passed. */
  passed: z.number().int().nullable(),
  /** Cases in all. */
  total: z.number().int(),
  /** When it was asked for. */
  created_at: EpochMs,
});

/** Where an answer stands: waiting for marks, waiting for reconciliation, or graded. */
export const GRADING_STATES = ['waiting', 'reconcile', 'graded'] as const;

/** One answer as a grader sees it: the question and rubric, the candidate's work and the marks so far. */
export const GradingItemData = GradingItemRef.extend({
  /** Exam id. */
  exam_id: Id,
  /** Question type id. */
  type: z.number().int(),
  /** Section. */
  section: GradedSection,
  /** Position in the exam. */
  order_num: z.number().int(),
  /** Points the question is worth in the exam. */
  max: z.number(),
  /** The question's text (sanitized HTML). */
  stem: z.string(),
  /** The rubric's text, or ''. */
  rubric: z.string(),
  /** The rubric's criteria ([] : the answer is scored as a whole, 0 to `max`). */
  criteria: z.array(GradingCriterion),
  /** True while the exam's grading is blind and not complete: `candidate` is then null. */
  blind: z.boolean(),
  /** Who wrote it, unless blind. */
  candidate: z.object({ name: z.string(), phone: z.string(), school: z.string() }).nullable(),
  /** The answer (text with its files, or code with its language), or null when there is none. */
  answer: AnswerValue.nullable(),
  /** Signed links of the answer's files, in the answer's order. */
  files: z.array(z.object({ key: z.string(), url: z.string() })),
  /** The judge's runs of the candidate's code on this question, newest first. */
  runs: z.array(GradingRunView),
  /** Where the answer stands. */
  state: z.enum(GRADING_STATES),
  /** The final points, once graded. */
  final: z.number().nullable(),
  /** The caller's own mark, if any. */
  my_mark: GradingMarkView.nullable(),
  /** Every mark, for a caller who may reconcile it (state `reconcile` or `graded`); otherwise []. */
  marks: z.array(GradingMarkView),
});
/** One answer as a grader sees it. */
export type GradingItemData = z.infer<typeof GradingItemData>;

/**
 * A mark: points per criterion (or `points` for a question without criteria) and a comment; the same for a
 * grader's mark (POST /admin/grading/mark) and the deciding one (POST /admin/grading/reconcile/mark).
 */
export const GradingMarkBody = GradingItemRef.extend({
  /** Points per criterion in the rubric's order, each 0 up to the criterion's points. */
  criteria: z.array(z.number().min(0, 'points cannot be negative')).max(20).default([]),
  /** Points for the whole answer when the question has no criteria. */
  points: z.number().min(0, 'points cannot be negative').optional(),
  /** Why. */
  comment: z.string().max(GRADING_COMMENT_MAX, 'the comment is too long').default(''),
});

/** What a mark did. */
export const GradingMarkData = z.object({
  /** The mark stored. */
  mark: GradingMarkView,
  /** Where the answer stands now. */
  state: z.enum(GRADING_STATES),
  /** The final points, once graded. */
  final: z.number().nullable(),
});
/** What a mark did. */
export type GradingMarkData = z.infer<typeof GradingMarkData>;

/** An answer whose two marks differ by more than the margin. */
export const ReconcileItem = GradingItemRef.extend({
  /** Position of the question in the exam. */
  order_num: z.number().int(),
  /** Points the question is worth. */
  max: z.number(),
  /** The two marks. */
  marks: z.array(GradingMarkView),
  /** How far apart they are. */
  difference: z.number(),
});
/** An answer to reconcile. */
export type ReconcileItem = z.infer<typeof ReconcileItem>;

/** An exam's answers to reconcile, paged. */
export const ReconcileListQuery = PageQuery.extend({
  /** Exam id. */
  exam_id: IdParam,
});

/** A page of answers to reconcile. */
export const ReconcileListData = z.object({
  /** Answers. */
  list: z.array(ReconcileItem),
  /** Answers in all. */
  total: z.number().int(),
});
/** A page of answers to reconcile. */
export type ReconcileListData = z.infer<typeof ReconcileListData>;

/** Grading progress of an exam: per grader and per question. */
export const GradingProgressData = GradingCounts.extend({
  /** Marks per grader. */
  graders: z.array(
    z.object({
      /** Staff id. */
      staff_id: Id,
      /** Name. */
      name: z.string(),
      /** Marks given. */
      marks: z.number().int(),
    }),
  ),
  /** Counts per question. */
  questions: z.array(
    GradingCounts.extend({
      /** Question id. */
      question_id: Id,
      /** Position in the exam. */
      order_num: z.number().int(),
      /** Question type id. */
      type: z.number().int(),
    }),
  ),
});
/** Grading progress of an exam. */
export type GradingProgressData = z.infer<typeof GradingProgressData>;

/** Correct the key (or rubric) of a question of the exam's published versions; finished attempts are re-scored. */
export const GradingKeyBody = z.object({
  /** Exam id. */
  exam_id: Id,
  /** The question (a frozen copy in one of the exam's published versions). */
  question_id: Id,
  /** The new key, checked against the question's kind. */
  key: z.unknown(),
});

/** The re-scoring job started by a key change. */
export const GradingKeyData = z.object({
  /** The `rescore` job. */
  job_id: Id,
});
/** The re-scoring job started. */
export type GradingKeyData = z.infer<typeof GradingKeyData>;
