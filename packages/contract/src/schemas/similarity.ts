import { z } from 'zod';
import { LANGUAGE_IDS } from '../languages.js';
import { EpochMs, Id, IdParam, PageQuery } from './common.js';

/** Where a similarity flag is: waiting for a grader, confirmed as shared work, or dismissed. */
export const SIMILARITY_STATUSES = ['open', 'confirmed', 'dismissed'] as const;
/** A similarity flag's status. */
export type SimilarityStatus = (typeof SIMILARITY_STATUSES)[number];

/**
 * Pairs scoring at least this are stored and listed (lower ones are independent work as far as the
 * fingerprints tell); at or above `SIMILARITY_FLAG_SCORE` the console marks them for a look.
 */
export const SIMILARITY_STORED_SCORE = 0.3;
/**
 * A pair at or above this score is marked for a grader, and joins groups of three or more. On the rarity-weighted
 * scale, about where 95 % of the pairs above it are copies on IR-Plag (0.38), and above every independent pair of
 * the held-out disguised copies (similarity/disguised.test.ts).
 */
export const SIMILARITY_FLAG_SCORE = 0.4;

/** POST /admin/grading/similarity/run body: compute the pairs of one programming question of an exam. */
export const SimilarityRunBody = z.object({
  /** The exam. */
  exam_id: Id,
  /** A programming question of it (any version's copy: every copy of the same bank question counts). */
  question_id: Id,
});
/** POST /admin/grading/similarity/run body. */
export type SimilarityRunBody = z.input<typeof SimilarityRunBody>;

/** A programming question of an exam, as the similarity page offers it. */
export const SimilarityQuestion = z.object({
  /** The question (its copy in the newest version that has it). */
  question_id: Id,
  /** Its statement as plain text, cut to 120 characters. */
  title: z.string(),
  /** Answers with code, across the exam's versions. */
  submissions: z.number().int(),
  /** When its pairs were last computed, or null. */
  computed_at: EpochMs.nullable(),
});
/** A programming question of an exam, as the similarity page offers it. */
export type SimilarityQuestion = z.infer<typeof SimilarityQuestion>;

/** GET /admin/grading/similarity/questions data. */
export const SimilarityQuestionsData = z.object({
  /** The exam's programming questions. */
  list: z.array(SimilarityQuestion),
});
/** GET /admin/grading/similarity/questions data. */
export type SimilarityQuestionsData = z.infer<typeof SimilarityQuestionsData>;

/** One side of a pair: the attempt and its candidate. */
export const SimilaritySide = z.object({
  /** The attempt. */
  attempt_id: Id,
  /** The candidate's name ('' when unknown). */
  name: z.string(),
  /** The candidate's phone, masked as 138****8000. */
  phone: z.string(),
});
/** One side of a pair. */
export type SimilaritySide = z.infer<typeof SimilaritySide>;

/** A pair of candidates whose code is alike, with the flag a grader decides. */
export const SimilarityPairView = z.object({
  /** Pair id. */
  id: Id,
  /** The question it was computed for. */
  question_id: Id,
  /** The language both wrote in. */
  language: z.enum(LANGUAGE_IDS),
  /** The side with the smaller attempt id. */
  a: SimilaritySide,
  /** The other side. */
  b: SimilaritySide,
  /** Share of matched code: fingerprints both hold over those of the side with fewer, 0..1. */
  score: z.number(),
  /** The same count over a's fingerprints. */
  share_a: z.number(),
  /** The same count over b's fingerprints. */
  share_b: z.number(),
  /** The grader's decision, 'open' until one is made. */
  status: z.enum(SIMILARITY_STATUSES),
  /** The grader's note on it. */
  note: z.string(),
  /** Who decided, '' while open. */
  decided_by: z.string(),
  /** When it was decided (epoch ms), or null. */
  decided_at: EpochMs.nullable(),
});
/** A pair of candidates whose code is alike. */
export type SimilarityPairView = z.infer<typeof SimilarityPairView>;

/** Columns the pair list sorts by. */
export const SIMILARITY_SORTS = ['score', 'status'] as const;

/** GET /admin/grading/similarity/pairs query. */
export const SimilarityPairsQuery = PageQuery.extend({
  /** The exam. */
  exam_id: IdParam,
  /** The question (as the run named it). */
  question_id: IdParam,
  /** Only pairs in this status. */
  status: z.enum(SIMILARITY_STATUSES).optional(),
  /** Only pairs scoring at least this. */
  min_score: z.coerce.number().min(0).max(1).optional(),
  /** Sort column. */
  sort: z.enum(SIMILARITY_SORTS).default('score'),
  /** Sort direction. */
  order: z.enum(['asc', 'desc']).default('desc'),
});
/** GET /admin/grading/similarity/pairs query. */
export type SimilarityPairsQuery = z.input<typeof SimilarityPairsQuery>;

/** Three or more candidates joined by pairs at or above the flag score. */
export const SimilarityGroup = z.object({
  /** The members. */
  members: z.array(SimilaritySide),
  /** Pairs at or above the flag score among them. */
  pairs: z.number().int(),
  /** The highest of their scores. */
  max_score: z.number(),
});
/** Three or more candidates joined by pairs at or above the flag score. */
export type SimilarityGroup = z.infer<typeof SimilarityGroup>;

/** GET /admin/grading/similarity/pairs data. */
export const SimilarityPairsData = z.object({
  /** The last computation, or null before the first. */
  run: z
    .object({
      /** Attempts whose code was compared. */
      submissions: z.number().int(),
      /** When. */
      computed_at: EpochMs,
      /** The job that computed it. */
      job_id: Id.nullable(),
      /** Groups of three or more, largest first. */
      groups: z.array(SimilarityGroup),
    })
    .nullable(),
  /** One page of pairs. */
  list: z.array(SimilarityPairView),
  /** How many pairs match in all. */
  total: z.number().int(),
});
/** GET /admin/grading/similarity/pairs data. */
export type SimilarityPairsData = z.infer<typeof SimilarityPairsData>;

/** GET /admin/grading/similarity/pair query. */
export const SimilarityPairQuery = z.object({
  /** The exam. */
  exam_id: IdParam,
  /** The pair. */
  pair_id: IdParam,
});
/** GET /admin/grading/similarity/pair query. */
export type SimilarityPairQuery = z.input<typeof SimilarityPairQuery>;

/** A stretch of code: 1-based lines and columns, the end inclusive. */
export const SourceRange = z.object({
  start_line: z.number().int(),
  start_col: z.number().int(),
  end_line: z.number().int(),
  end_col: z.number().int(),
});
/** A stretch of code. */
export type SourceRange = z.infer<typeof SourceRange>;

/** GET /admin/grading/similarity/pair data: the pair, both candidates' code and the matched fragments. */
export const SimilarityPairDetail = z.object({
  /** The pair. */
  pair: SimilarityPairView,
  /** a's code as it stands now. */
  code_a: z.string(),
  /** b's code as it stands now. */
  code_b: z.string(),
  /**
   * Stretches alike in both (the starter code never counts), rarest first among the question's submissions as the
   * last run counted them (ties longest first); in a's order when the run counted none.
   */
  fragments: z.array(z.object({ a: SourceRange, b: SourceRange, tokens: z.number().int() })),
});
/** GET /admin/grading/similarity/pair data. */
export type SimilarityPairDetail = z.infer<typeof SimilarityPairDetail>;

/** POST /admin/grading/similarity/decide body. */
export const SimilarityDecideBody = z.object({
  /** The exam. */
  exam_id: Id,
  /** The pair. */
  pair_id: Id,
  /** Confirmed (shared work), dismissed, or open again. */
  status: z.enum(SIMILARITY_STATUSES),
  /** Why, for the other graders (at most 500 characters). */
  note: z.string().trim().max(500).default(''),
});
/** POST /admin/grading/similarity/decide body. */
export type SimilarityDecideBody = z.input<typeof SimilarityDecideBody>;
