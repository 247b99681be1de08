/** Question imports and exports: a file's preview, its import into a folder, and downloads of questions. */
import { z } from 'zod';
import { QuestionBody, QuestionExplanation, QuestionKindField } from '../questions/index.js';
import { BANK_LIMITS, BankTag } from './bank.js';
import { FormFlag, IdParam } from './common.js';
import { Subject } from './subject.js';

/** Bounds of an import the server enforces (the importers package applies the same). */
export const IMPORT_LIMITS = {
  /** Largest file, bytes. */
  fileBytes: 20 * 1024 * 1024,
  /** Most questions in one file: a file with more is refused whole. */
  questions: 20_000,
  /** Questions a preview answers (the first ones; `counts` has them all). */
  previewQuestions: 50,
  /** Problems a preview answers (errors first; `counts` has them all). */
  previewProblems: 200,
} as const;

/** A format name as the importers package names it (`gift`, `moodle_xml`, `qti`, ...); the server lists them. */
export const ImportFormatName = z
  .string()
  .trim()
  .regex(/^[a-z][a-z0-9_]{0,31}$/, 'a format name such as gift or moodle_xml');

/** One format the server reads and writes. */
export const ImportFormatInfo = z.object({
  /** Its name, sent back as `format`. */
  format: z.string(),
  /** How people call it (GIFT, Moodle XML, ...). */
  label: z.string(),
  /** File name extension of an export (gift.txt, xml, zip, ...). */
  extension: z.string(),
  /** Content type of an export. */
  mime: z.string(),
});
/** One format. */
export type ImportFormatInfo = z.infer<typeof ImportFormatInfo>;

/** GET /admin/bank/formats data. */
export const ImportFormatListData = z.object({
  /** Every format, in the importers package's order. */
  list: z.array(ImportFormatInfo),
});
/** GET /admin/bank/formats data. */
export type ImportFormatListData = z.infer<typeof ImportFormatListData>;

/** Where in the file something stands; each format fills the parts it has. */
export const ImportWhere = z.object({
  /** Line, from 1. */
  line: z.number().int().optional(),
  /** Column, from 1. */
  column: z.number().int().optional(),
  /** File inside a package. */
  file: z.string().optional(),
  /** XML element as a short path. */
  element: z.string().optional(),
  /** Row of a sheet, from 1. */
  row: z.number().int().optional(),
  /** Sheet of a workbook. */
  sheet: z.string().optional(),
});
/** Where in the file. */
export type ImportWhere = z.infer<typeof ImportWhere>;

/** A problem found in a file, located in the file's own terms. */
export const ImportProblem = z.object({
  /** Where it stands. */
  where: ImportWhere,
  /** Stable id of the importers package (a client may translate by it). */
  code: z.string(),
  /** Values the message is built from. */
  params: z.record(z.string(), z.union([z.string(), z.number()])),
  /** error: not imported (the file or a question could not be read); warning: left out; info: converted. */
  severity: z.enum(['error', 'warning', 'info']),
  /** English text, location first. */
  message: z.string(),
  /** Chinese text, location first. */
  message_zh: z.string(),
});
/** A located problem. */
export type ImportProblem = z.infer<typeof ImportProblem>;

/** A bank question that an imported one likely repeats (same kind and same plain stem text). */
export const ImportDuplicate = z.object({
  /** The bank question's id. */
  id: z.number().int(),
  /** Its folder, or null. */
  folder_id: z.number().int().nullable(),
  /** The start of its stem as plain text. */
  stem: z.string(),
});
/** A likely duplicate. */
export type ImportDuplicate = z.infer<typeof ImportDuplicate>;

/** One question of a file as it will be stored. */
export const ImportedQuestion = z.object({
  /** Its place among the file's questions, from 1 (the order a commit stores them in). */
  index: z.number().int(),
  /** Where it stands in the file. */
  where: ImportWhere,
  /** Its name in the file, when it has one. */
  title: z.string().nullable(),
  /** The typed question: kind, content and key (embedded files linked as `import-file:<id>` until stored). */
  question: QuestionBody,
  /** Kind. */
  kind: QuestionKindField,
  /** Question type id (1..11, QuestionType). */
  type: z.number().int(),
  /** The start of the stem as plain text. */
  stem: z.string(),
  /** Folder path below the target folder, from the file's categories ([] for the target itself). */
  folder: z.array(z.string()),
  /** Tags from the file (the author's chosen tags are added on import). */
  tags: z.array(z.string()),
  /** Difficulty 1 to 5 (3 when the file has none). */
  difficulty: z.number().int(),
  /** Knowledge points. */
  knowledge_points: z.array(z.string()),
  /** Points it gets when added to an exam. */
  default_score: z.number(),
  /** Its explanation and feedback per option, when the file has them. */
  explanation: QuestionExplanation.nullable(),
  /** What a candidate will see (embedded pictures inlined so the preview shows them). */
  subject: Subject,
  /** False when an error is located at it: `only_valid` leaves it out. */
  valid: z.boolean(),
  /** Bank questions of the target folder's team that it likely repeats. */
  duplicates: z.array(ImportDuplicate),
});
/** One question of a file. */
export type ImportedQuestion = z.infer<typeof ImportedQuestion>;

/**
 * POST /admin/bank/imports/preview data: what a commit of the same file would store, nothing written. A file
 * may hold 20,000 questions: the answer carries the first page of them and of the problems, with the totals.
 */
export const ImportPreviewData = z.object({
  /** The format the file was read as. */
  format: z.string(),
  /** The file's name. */
  file_name: z.string(),
  /** SHA-256 of the file, hex. */
  sha256: z.string(),
  /** The first questions of the file in file order, at most IMPORT_LIMITS.previewQuestions (all: counts.questions). */
  questions: z.array(ImportedQuestion).max(IMPORT_LIMITS.previewQuestions),
  /**
   * The first problems, located: errors, then warnings, then notes, each in file order; at most
   * IMPORT_LIMITS.previewProblems (all: counts.problems).
   */
  problems: z.array(ImportProblem).max(IMPORT_LIMITS.previewProblems),
  /** Embedded files the questions link to. */
  files: z.number().int(),
  /** The file's questions and problems, all of them: by severity, and the questions `only_valid` would store. */
  counts: z.object({
    /** Questions in the file. */
    questions: z.number().int(),
    /** Questions with no error (what `only_valid` imports). */
    valid: z.number().int(),
    /** Problems in all. */
    problems: z.number().int(),
    errors: z.number().int(),
    warnings: z.number().int(),
    infos: z.number().int(),
  }),
});
/** POST /admin/bank/imports/preview data. */
export type ImportPreviewData = z.infer<typeof ImportPreviewData>;

/** Tags of a form field: one per line (a tag never holds a line break). */
const TagLines = z
  .string()
  .default('')
  .transform((s) =>
    s
      .split(/\r?\n/)
      .map((t) => t.trim())
      .filter(Boolean),
  )
  .pipe(z.array(BankTag).max(BANK_LIMITS.tags, `at most ${BANK_LIMITS.tags} tags`));

/** A yes/no form field ('1'/'true' or '0'/'false'). */
/** POST /admin/bank/imports/preview fields (multipart, with the file in field `file`). */
export const ImportPreviewBody = z.object({
  /** The folder the questions would go into: duplicates are looked for in its team's bank. */
  folder_id: IdParam,
  /** The format, when the file's name and content do not tell. */
  format: ImportFormatName.optional(),
});
/** POST /admin/bank/imports/preview fields. */
export type ImportPreviewBody = z.input<typeof ImportPreviewBody>;

/** POST /admin/bank/imports fields (multipart, with the same file again in field `file`). */
export const ImportCommitBody = ImportPreviewBody.extend({
  /** Tags added to every imported question, one per line. */
  tags: TagLines,
  /** Import the valid questions when the file has errors; otherwise a file with an error imports nothing. */
  only_valid: FormFlag,
  /** SHA-256 the preview answered: a different file is refused, so what is stored is what was seen. */
  sha256: z
    .string()
    .regex(/^[0-9a-f]{64}$/, 'the SHA-256 of the previewed file, hex')
    .optional(),
});
/** POST /admin/bank/imports fields. */
export type ImportCommitBody = z.input<typeof ImportCommitBody>;

/** POST /admin/bank/imports data. */
export const ImportCommitData = z.object({
  /** Ids of the created questions, in file order. */
  question_ids: z.array(z.number().int()),
  /** Folders created for the file's categories. */
  folders_created: z.number().int(),
  /** Embedded files stored. */
  files_stored: z.number().int(),
  /** Questions of the file left out (`only_valid`). */
  skipped: z.number().int(),
});
/** POST /admin/bank/imports data. */
export type ImportCommitData = z.infer<typeof ImportCommitData>;

/** Question ids in a query string, each as its own parameter: `question_ids=1&question_ids=2`. */
const IdList = z
  .union([IdParam, z.array(IdParam)])
  .transform((v) => [...new Set(Array.isArray(v) ? v : [v])])
  .pipe(z.array(z.number()).min(1).max(BANK_LIMITS.bulkIds, `at most ${BANK_LIMITS.bulkIds} questions`));

/** GET /admin/bank/export/folder query. */
export const ExportFolderQuery = z.object({
  /** The folder; its sub-folders' questions come too, under their folder names. */
  folder_id: IdParam,
  /** A format of GET /admin/bank/formats. */
  format: ImportFormatName,
});
/** GET /admin/bank/export/folder query. */
export type ExportFolderQuery = z.input<typeof ExportFolderQuery>;

/** GET /admin/bank/export/questions query. */
export const ExportQuestionsQuery = z.object({
  /** The questions, one parameter each. */
  question_ids: IdList,
  /** A format of GET /admin/bank/formats. */
  format: ImportFormatName,
});
/** GET /admin/bank/export/questions query. */
export type ExportQuestionsQuery = z.input<typeof ExportQuestionsQuery>;

/** GET /admin/exam/export query. */
export const ExportExamQuery = z.object({
  /** The exam: its current version's questions, in exam order. */
  exam_id: IdParam,
  /** A format of GET /admin/bank/formats. */
  format: ImportFormatName,
});
/** GET /admin/exam/export query. */
export type ExportExamQuery = z.input<typeof ExportExamQuery>;

/** GET /admin/bank/imports/template query. */
export const ImportTemplateQuery = z.object({
  /** The language of the headers, examples and instructions. */
  lang: z.enum(['zh', 'en']).default('zh'),
});
/** GET /admin/bank/imports/template query. */
export type ImportTemplateQuery = z.input<typeof ImportTemplateQuery>;

/** What a download answers instead of an envelope: the file (`content-disposition` names it). */
export const DownloadData = z.unknown();
