import type { QuestionBody } from '@examhall/contract';

/** The formats this package reads and writes. */
export const FORMATS = ['gift', 'moodle_xml', 'qti', 'xlsx', 'csv', 'fps', 'problem_zip'] as const;
/** A file format. */
export type Format = (typeof FORMATS)[number];

/** Where in the file something stands; each format fills the parts it has. */
export interface Where {
  /** Line, from 1 (text formats, and XML when the parser knows it). */
  line?: number;
  /** Column, from 1. */
  column?: number;
  /** Column of a sheet, as its letter (`C`); sheets say `row 12, column C`. */
  col?: string;
  /** File inside a package (zip), as its path there. */
  file?: string;
  /** Element of an XML file, as a short path (`question[3]`, `choiceInteraction[RESPONSE]`). */
  element?: string;
  /** Row of a sheet, from 1. */
  row?: number;
  /** Sheet of a workbook. */
  sheet?: string;
}

/** How bad a problem is. */
export type Severity =
  /** The file, or one question of it, could not be read: nothing was made of it. */
  | 'error'
  /** A question has no counterpart here (or lost something that matters) and was left out. */
  | 'warning'
  /** A question was imported, converted in a way the author should know of. */
  | 'info';

/** A problem found in a file, located in the file's own terms. */
export interface Problem {
  /** Where it stands. */
  where: Where;
  /** Stable id (see PROBLEM_TEXTS); clients translate by it. */
  code: string;
  /** Values the message is built from. */
  params: Record<string, string | number>;
  /** How bad it is. */
  severity: Severity;
  /** Default English text, location first (`line 12: ...`). */
  message: string;
  /** Default Chinese text, location first (`第 12 行：...`). */
  message_zh: string;
}

/** A typed question of the contract plus the bank metadata the format carries. */
export interface Draft {
  /** Kind, content and key; parsed by the contract's QuestionBody. */
  question: QuestionBody;
  /** The question's name in the file (GIFT `::title::`, Moodle `<name>`, QTI `title`). */
  title?: string;
  /** Folder path from the file's categories, outermost first ([] when none). */
  folder: string[];
  /** Tags. */
  tags: string[];
  /** Difficulty 1 to 5, when the format has one. */
  difficulty?: number;
  /** Knowledge points. */
  knowledge_points: string[];
  /** Points the question is worth, when the format says. */
  points?: number;
  /** General feedback / explanation (解析) shown after submitting (HTML). */
  explanation?: string;
  /** Feedback per option (HTML), by option id ('A'), or a sub-question's as '2.A' (see the contract's feedbackTargets). */
  feedback?: Record<string, string>;
  /** Where the question stands in the file. */
  where: Where;
}

/** A picture (or other file) embedded in the imported file, for the server to store and link. */
export interface EmbeddedFile {
  /** Id used in the drafts' rich text as `import-file:<id>` (see fileUrl). */
  id: string;
  /** File name as the source names it. */
  name: string;
  /** MIME type guessed from the name. */
  mime: string;
  /** The bytes. */
  bytes: Uint8Array;
}

/** What an import yields. */
export interface ImportResult {
  /** The format the file was read as. */
  format: Format | null;
  /** Questions that passed the contract's schemas. */
  questions: Draft[];
  /** Everything worth telling, located. */
  problems: Problem[];
  /** Embedded files the drafts link to. */
  files: EmbeddedFile[];
  /** True when the file as a whole was refused (hostile, unreadable, too large): nothing else was read. */
  refused: boolean;
}

/** Bounds that keep an import's time and memory in check. */
export interface ImportLimits {
  /** Largest input file, bytes. */
  fileBytes: number;
  /** Largest sum of a zip's unpacked entries, bytes. */
  zipTotalBytes: number;
  /** Largest one unpacked zip entry, bytes. */
  zipEntryBytes: number;
  /** Most entries in a zip. */
  zipEntries: number;
  /** Highest unpacked/packed ratio of a zip entry. */
  zipRatio: number;
  /** Most questions in one file. */
  questions: number;
  /** Most rows in one sheet (counted before any row is read: a million-row sheet is refused at once). */
  sheetRows: number;
}

/** Default bounds. */
export const DEFAULT_LIMITS: ImportLimits = {
  fileBytes: 20 * 1024 * 1024,
  zipTotalBytes: 100 * 1024 * 1024,
  zipEntryBytes: 20 * 1024 * 1024,
  zipEntries: 5000,
  zipRatio: 200,
  questions: 20_000,
  sheetRows: 200_000,
};
