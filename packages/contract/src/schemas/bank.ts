/** The question bank: folders, questions with their metadata, tags, uploads and reference-solution checks. */
import { z } from 'zod';
import { CODE_LIMITS, QuestionBody, QuestionExplanation, QuestionKindField } from '../questions/index.js';
import { Verdict } from './answer.js';
import { EpochMs, Id, PageQuery, IdParam } from './common.js';

/** Limits of the bank the server enforces (and editors show). */
export const BANK_LIMITS = {
  /** Longest folder name, characters. */
  folderName: 60,
  /** Deepest folder nesting (a top folder is depth 0). */
  folderDepth: 8,
  /** Most tags per question. */
  tags: 20,
  /** Longest tag, characters. */
  tagChars: 40,
  /** Most knowledge points per question. */
  knowledgePoints: 20,
  /** Longest knowledge point, characters. */
  knowledgePointChars: 60,
  /** Most questions one bulk call acts on. */
  bulkIds: 500,
  /** Longest search text, characters. */
  searchChars: 100,
  /** Largest picture, bytes. */
  imageBytes: 5 * 1024 * 1024,
  /** Largest listening audio, bytes. */
  audioBytes: 24 * 1024 * 1024,
  /** Largest zip of hidden cases, bytes. */
  casesZipBytes: 24 * 1024 * 1024,
  /** Most files in a zip of hidden cases (two per case). */
  casesZipFiles: 2 * CODE_LIMITS.cases,
  /** Largest one .in or .out file once unpacked, bytes. */
  caseFileBytes: CODE_LIMITS.caseChars,
  /** Largest sum of every unpacked file of a zip of hidden cases, bytes. */
  casesTotalBytes: 16 * 1024 * 1024,
  /** Largest JSON body of a question create or update: the hidden cases travel in it, escaped. */
  questionBodyBytes: 40 * 1024 * 1024,
} as const;

/** How a query string says yes or no ('1'/'true' or '0'/'false'). */
export const QueryFlag = z
  .union([z.boolean(), z.enum(['1', '0', 'true', 'false'])])
  .transform((v) => v === true || v === '1' || v === 'true');

/** True when a name has no control character (tab, newline, ...). */
const noControl = (s: string) => ![...s].some((c) => c.charCodeAt(0) < 0x20);

/** A folder's name. */
export const BankFolderName = z
  .string()
  .trim()
  .min(1, 'the name is empty')
  .max(BANK_LIMITS.folderName, `at most ${BANK_LIMITS.folderName} characters`)
  .refine(noControl, 'no control characters');

/** A tag. */
export const BankTag = z
  .string()
  .trim()
  .min(1, 'a tag is empty')
  .max(BANK_LIMITS.tagChars, `a tag has at most ${BANK_LIMITS.tagChars} characters`)
  .refine(noControl, 'no control characters');

/** A knowledge point. */
export const BankKnowledgePoint = z
  .string()
  .trim()
  .min(1, 'a knowledge point is empty')
  .max(BANK_LIMITS.knowledgePointChars, `a knowledge point has at most ${BANK_LIMITS.knowledgePointChars} characters`)
  .refine(noControl, 'no control characters');

/** Difficulty from 1 (easy) to 5 (hard). */
export const BankDifficulty = z.coerce
  .number({ error: 'the difficulty must be a number' })
  .int('the difficulty is a whole number')
  .min(1, 'the difficulty is 1 to 5')
  .max(5, 'the difficulty is 1 to 5');

/** A list of question ids of a bulk call. */
const BulkIds = z
  .array(Id)
  .min(1, 'choose at least one question')
  .max(BANK_LIMITS.bulkIds, `at most ${BANK_LIMITS.bulkIds} questions at a time`);

/** A staff member as the bank names them. */
export const BankPerson = z.object({
  /** Staff id. */
  id: z.number().int(),
  /** Display name. */
  name: z.string(),
});

// ---------------------------------------------------------------- folders

/** One folder of the tree, with how many questions it holds. */
export const BankFolderNode = z.object({
  /** Folder id. */
  id: z.number().int(),
  /** Team that owns it, or null (no team: only admins see it). */
  team_id: z.number().int().nullable(),
  /** Parent folder, or null at the top. */
  parent_id: z.number().int().nullable(),
  /** Name. */
  name: z.string(),
  /** Nesting depth: 0 for a top folder. */
  depth: z.number().int(),
  /** Questions directly in it. */
  question_count: z.number().int(),
  /** Questions in it and every sub-folder. */
  total_count: z.number().int(),
  /** When it was created (epoch ms). */
  created_at: EpochMs,
});
/** One folder of the tree. */
export type BankFolderNode = z.infer<typeof BankFolderNode>;

/** GET /admin/bank/folders data: the tree as a list in tree order (parents before children, siblings by name). */
export const BankFolderTree = z.object({
  /** Every folder the caller may see, depth-first. */
  list: z.array(BankFolderNode),
  /** Questions in no folder. */
  unfiled_count: z.number().int(),
});
/** The folder tree. */
export type BankFolderTree = z.infer<typeof BankFolderTree>;

/** POST /admin/bank/folders body: creates a folder. */
export const BankFolderCreateBody = z.object({
  /** Its name, unique among its siblings. */
  name: BankFolderName,
  /** Parent folder; absent or null for a top folder. */
  parent_id: Id.nullable().optional(),
  /** Team of a top folder (admins only; others' folders are their team's, a sub-folder its parent's). */
  team_id: Id.nullable().optional(),
});
/** POST /admin/bank/folders body. */
export type BankFolderCreateBody = z.input<typeof BankFolderCreateBody>;

/** POST /admin/bank/folders/update body: renames and/or moves a folder (never into itself or below it). */
export const BankFolderUpdateBody = z.object({
  /** The folder. */
  folder_id: Id,
  /** New name; absent keeps it. */
  name: BankFolderName.optional(),
  /** New parent (null: to the top); absent keeps it. */
  parent_id: Id.nullable().optional(),
});
/** POST /admin/bank/folders/update body. */
export type BankFolderUpdateBody = z.input<typeof BankFolderUpdateBody>;

/** POST /admin/bank/folders/delete body: deletes an empty folder. */
export const BankFolderDeleteBody = z.object({
  /** The folder; it must hold no sub-folder and no question. */
  folder_id: Id,
});
/** POST /admin/bank/folders/delete body. */
export type BankFolderDeleteBody = z.input<typeof BankFolderDeleteBody>;

// ---------------------------------------------------------------- questions

/** Columns the question list sorts by: last change, difficulty, how often used, id. */
export const BANK_SORTS = ['updated', 'difficulty', 'used', 'id'] as const;
/** A sort column of the question list. */
export type BankSort = (typeof BANK_SORTS)[number];

/** GET /admin/bank/questions query: filters combine (and); paged and sorted on the server. */
export const BankQuestionQuery = PageQuery.extend({
  /** Sort column. */
  sort: z.enum(BANK_SORTS).default('updated'),
  /** Sort direction. */
  order: z.enum(['asc', 'desc']).default('desc'),
  /** Only questions in this folder (and its sub-folders unless `sub_folders` is false). */
  folder_id: IdParam.optional(),
  /** With `folder_id`: include its sub-folders (default true). */
  sub_folders: QueryFlag.default(true),
  /** Only questions in no folder. */
  unfiled: QueryFlag.default(false),
  /** Only this kind. */
  kind: QuestionKindField.optional(),
  /** Only this difficulty. */
  difficulty: BankDifficulty.optional(),
  /** Only questions with this tag. */
  tag: BankTag.optional(),
  /** Only questions with this knowledge point. */
  knowledge_point: BankKnowledgePoint.optional(),
  /** Only questions written by this staff member. */
  author_id: IdParam.optional(),
  /** Only questions an exam's item analysis flagged for negative discrimination. */
  flagged: QueryFlag.default(false),
  /** Only questions whose stem, options or passage contain this text (any language; Latin letters in any case). */
  q: z.string().trim().max(BANK_LIMITS.searchChars, `at most ${BANK_LIMITS.searchChars} characters`).optional(),
});
/** GET /admin/bank/questions query. */
export type BankQuestionQuery = z.input<typeof BankQuestionQuery>;

/** Where a programming question's reference check stands: none yet, passed, failed, or made before the last edit. */
export const BankVerificationState = z.enum(['none', 'ok', 'failed', 'stale']);
/** Where a reference check stands. */
export type BankVerificationState = z.infer<typeof BankVerificationState>;

/** An exam whose item analysis found the question discriminating negatively (its latest analysis). */
export const BankItemFlag = z.object({
  /** Exam id. */
  exam_id: z.number().int(),
  /** Exam name. */
  exam_name: z.string(),
  /** Item-rest correlation found, or null. */
  item_rest: z.number().nullable(),
  /** Upper-lower 27 % index found, or null. */
  upper_lower: z.number().nullable(),
  /** Attempts it was computed over. */
  n: z.number().int(),
  /** When the analysis ran (epoch ms). */
  flagged_at: EpochMs,
});
/** An exam's item analysis flag on a question. */
export type BankItemFlag = z.infer<typeof BankItemFlag>;

/** One question of the list (no key). */
export const BankQuestionItem = z.object({
  /** Question id. */
  id: z.number().int(),
  /** Team that owns it, or null. */
  team_id: z.number().int().nullable(),
  /** Folder, or null. */
  folder_id: z.number().int().nullable(),
  /** Kind. */
  kind: QuestionKindField,
  /** Question type id (1..11, QuestionType). */
  type: z.number().int(),
  /** The start of the stem as plain text. */
  stem: z.string(),
  /** Difficulty 1 to 5. */
  difficulty: z.number().int(),
  /** Knowledge points. */
  knowledge_points: z.array(z.string()),
  /** Tags, sorted. */
  tags: z.array(z.string()),
  /** Points it gets when added to an exam, unless the exam says otherwise. */
  default_score: z.number(),
  /** Who wrote it. */
  author: BankPerson,
  /** Who changed it last. */
  editor: BankPerson,
  /** When it was created (epoch ms). */
  created_at: EpochMs,
  /** When it was changed last (epoch ms). */
  updated_at: EpochMs,
  /** Its revision, to send back with an update. */
  revision: z.number().int(),
  /** How many exams' versions contain it. */
  used_count: z.number().int(),
  /** Reference-solution check of a programming question ('none' for other kinds). */
  verification: BankVerificationState,
  /** Why the stored question no longer parses (`path: message`), or null when it is fine. */
  problem: z.string().nullable(),
  /** Exams whose item analysis found it discriminating negatively: stronger candidates did worse on it. */
  flags: z.array(BankItemFlag),
});
/** One question of the list. */
export type BankQuestionItem = z.infer<typeof BankQuestionItem>;

/** GET /admin/bank/questions data. */
export const BankQuestionListData = z.object({
  /** One page. */
  list: z.array(BankQuestionItem),
  /** How many questions match the filters in all. */
  total: z.number().int(),
});
/** GET /admin/bank/questions data. */
export type BankQuestionListData = z.infer<typeof BankQuestionListData>;

/** One case of a reference-solution check. */
export const BankVerifiedCase = z.object({
  /** A sample (shown to candidates) or a hidden case. */
  kind: z.enum(['sample', 'hidden']),
  /** Its number among the samples or among the hidden cases, from 1. */
  number: z.number().int(),
  /** A hidden case's name (its file name), when it has one. */
  name: z.string().optional(),
  /** Verdict. */
  verdict: Verdict,
  /** CPU time, ms. */
  time_ms: z.number(),
  /** Peak memory, KB. */
  memory_kb: z.number(),
});
/** One case of a reference-solution check. */
export type BankVerifiedCase = z.infer<typeof BankVerifiedCase>;

/** The outcome of judging a programming question's reference solution on every sample and hidden case. */
export const BankVerification = z.object({
  /** The question's revision it was made at. */
  revision: z.number().int(),
  /** True when every case was accepted. */
  ok: z.boolean(),
  /** Overall verdict: AC, or the first failing case's (CE when it did not compile). */
  verdict: Verdict,
  /** Language of the reference solution. */
  language: z.string(),
  /** Every case in order: samples, then hidden cases. */
  cases: z.array(BankVerifiedCase),
  /** What failed, e.g. "hidden case 2 (2.in): WA"; null when ok. */
  problem: z.string().nullable(),
  /** Compiler output when it did not compile. */
  compile_output: z.string().optional(),
  /** When it was made (epoch ms). */
  checked_at: EpochMs,
  /** True when the statement's limits, samples, cases, checker or reference changed since: check again. */
  stale: z.boolean(),
});
/** A reference-solution check. */
export type BankVerification = z.infer<typeof BankVerification>;

/** One question in full, with its key (staff with bank.read only). */
export const BankQuestionView = BankQuestionItem.omit({ stem: true, verification: true, problem: true }).extend({
  /** The typed question: kind, content and key. */
  question: QuestionBody,
  /** Its explanation and feedback per option, or null when it has none. */
  explanation: QuestionExplanation.nullable(),
  /** The last reference-solution check, or null. */
  verification: BankVerification.nullable(),
});
/** One question in full. */
export type BankQuestionView = z.infer<typeof BankQuestionView>;

/** GET /admin/bank/question query. */
export const BankQuestionIdQuery = z.object({
  /** Question id. */
  question_id: IdParam,
});
/** GET /admin/bank/question query. */
export type BankQuestionIdQuery = z.input<typeof BankQuestionIdQuery>;

/** The fields an author edits. */
const questionFields = {
  /** Folder; null or absent for none. */
  folder_id: Id.nullable().optional(),
  /** The typed question: kind, content and key, checked against the kind's schema. */
  question: QuestionBody,
  /** Its explanation (解析) and feedback per option (each naming an option of the question); null for none. */
  explanation: QuestionExplanation.nullable().default(null),
  /** Difficulty 1 to 5. */
  difficulty: BankDifficulty.default(3),
  /** Knowledge points (each once). */
  knowledge_points: z
    .array(BankKnowledgePoint)
    .max(BANK_LIMITS.knowledgePoints, `at most ${BANK_LIMITS.knowledgePoints} knowledge points`)
    .default([]),
  /** Tags (each once). */
  tags: z.array(BankTag).max(BANK_LIMITS.tags, `at most ${BANK_LIMITS.tags} tags`).default([]),
  /** Points it gets when added to an exam. */
  default_score: z
    .number({ error: 'the score must be a number' })
    .min(0, 'the score is 0 or more')
    .max(1000, 'at most 1000 points'),
};

/** POST /admin/bank/questions body: creates a question. */
export const BankQuestionCreateBody = z.object({
  ...questionFields,
  /** Team of a question in no folder (admins only; otherwise the folder's team or the author's). */
  team_id: Id.nullable().optional(),
});
/** POST /admin/bank/questions body. */
export type BankQuestionCreateBody = z.input<typeof BankQuestionCreateBody>;

/** POST /admin/bank/questions/update body: replaces a question's fields. */
export const BankQuestionUpdateBody = z.object({
  /** The question. */
  question_id: Id,
  /** The revision the edit started from; a newer stored one answers 409 conflict. */
  revision: z.number().int().min(1),
  ...questionFields,
});
/** POST /admin/bank/questions/update body. */
export type BankQuestionUpdateBody = z.input<typeof BankQuestionUpdateBody>;

/** POST /admin/bank/questions/move body: moves questions into a folder (or none). */
export const BankBulkMoveBody = z.object({
  /** The questions. */
  question_ids: BulkIds,
  /** Target folder; null for none. */
  folder_id: Id.nullable(),
});
/** POST /admin/bank/questions/move body. */
export type BankBulkMoveBody = z.input<typeof BankBulkMoveBody>;

/** POST /admin/bank/questions/tag and /untag body: adds or removes tags. */
export const BankBulkTagBody = z.object({
  /** The questions. */
  question_ids: BulkIds,
  /** Tags to add or remove. */
  tags: z.array(BankTag).min(1, 'name at least one tag').max(BANK_LIMITS.tags, `at most ${BANK_LIMITS.tags} tags`),
});
/** POST /admin/bank/questions/tag body. */
export type BankBulkTagBody = z.input<typeof BankBulkTagBody>;

/** POST /admin/bank/questions/delete body: deletes questions no exam version uses. */
export const BankBulkDeleteBody = z.object({
  /** The questions. */
  question_ids: BulkIds,
});
/** POST /admin/bank/questions/delete body. */
export type BankBulkDeleteBody = z.input<typeof BankBulkDeleteBody>;

/** What a bulk call did: the questions changed, and those left as they were, with why. */
export const BankBulkResult = z.object({
  /** Questions changed. */
  done: z.array(z.number().int()),
  /** Questions left as they were. */
  kept: z.array(
    z.object({
      /** Question id. */
      id: z.number().int(),
      /** Why, e.g. "used by 2 exams". */
      reason: z.string(),
    }),
  ),
});
/** What a bulk call did. */
export type BankBulkResult = z.infer<typeof BankBulkResult>;

/** POST /admin/bank/questions/verify body: judges the reference solution on every case. */
export const BankVerifyBody = z.object({
  /** A programming question with a reference solution. */
  question_id: Id,
});
/** POST /admin/bank/questions/verify body. */
export type BankVerifyBody = z.input<typeof BankVerifyBody>;

// ---------------------------------------------------------------- tags and uploads

/** GET /admin/bank/tags data. */
export const BankTagListData = z.object({
  /** Every tag of the caller's questions with how many carry it, most used first. */
  list: z.array(
    z.object({
      /** The tag. */
      tag: z.string(),
      /** Questions carrying it. */
      count: z.number().int(),
    }),
  ),
});
/** GET /admin/bank/tags data. */
export type BankTagListData = z.infer<typeof BankTagListData>;

/** POST /admin/bank/uploads/image data: a picture for stems and options. */
export const BankImageData = z.object({
  /** Object key in storage. */
  key: z.string(),
  /**
   * Where it is served: a public, content-addressed path that never changes, so a stem's `<img src>` works
   * in the editor and for candidates alike.
   */
  url: z.string(),
  /** Its type: image/png, image/jpeg, image/gif or image/webp. */
  mime: z.string(),
  /** Size in bytes. */
  size: z.number().int(),
});
/** POST /admin/bank/uploads/image data. */
export type BankImageData = z.infer<typeof BankImageData>;

/** POST /admin/bank/uploads/audio data: listening audio. */
export const BankAudioData = z.object({
  /** Object key in storage: the listening key's `audio.key`. */
  key: z.string(),
  /** A short-lived link the editor can play it with. */
  url: z.string(),
  /** Its type: audio/wav, audio/mpeg, audio/ogg or audio/mp4. */
  mime: z.string(),
  /** Size in bytes. */
  size: z.number().int(),
  /** Its length in seconds, read on the server (the content's `audio.duration_s`). */
  duration_s: z.number(),
});
/** POST /admin/bank/uploads/audio data. */
export type BankAudioData = z.infer<typeof BankAudioData>;

/** POST /admin/bank/uploads/cases data: hidden cases read from a zip of `.in`/`.out` pairs. */
export const BankCasesData = z.object({
  /** The cases in natural order of their names ("2" before "10"), ready for the key's `cases`. */
  cases: z.array(
    z.object({
      /** Name: the file name without .in/.out. */
      name: z.string(),
      /** Standard input. */
      input: z.string(),
      /** Expected output. */
      output: z.string(),
    }),
  ),
  /** Bytes of every file unpacked. */
  total_bytes: z.number().int(),
});
/** POST /admin/bank/uploads/cases data. */
export type BankCasesData = z.infer<typeof BankCasesData>;
