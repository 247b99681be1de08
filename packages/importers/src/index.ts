/** @examhall/importers: question files to typed drafts with located problems, and drafts back to files. */
import { detectFormat } from './detect.js';
import { exportFps } from './formats/fps/export.js';
import { importFps } from './formats/fps/import.js';
import { exportGift } from './formats/gift/export.js';
import { importGift } from './formats/gift/import.js';
import { exportMoodle } from './formats/moodle/export.js';
import { importMoodle } from './formats/moodle/import.js';
import { exportQti } from './formats/qti/export.js';
import { exportProblemZip } from './formats/problemzip/export.js';
import { importProblemZip } from './formats/problemzip/import.js';
import { importQti } from './formats/qti/import.js';
import { exportCsv, importCsv } from './formats/sheet/csv.js';
import { exportXlsx, importXlsx } from './formats/sheet/xlsx.js';
import { problem, Refusal } from './problems.js';
import { decodeText } from './text.js';
import {
  DEFAULT_LIMITS,
  type Draft,
  type Format,
  type ImportLimits,
  type ImportResult,
  type Problem,
} from './types.js';

export { detectFormat } from './detect.js';
export { PROBLEM_TEXTS, placeOf, type ProblemCode } from './problems.js';
export { FILE_URL_PATTERN, fileUrl, BLANK } from './richText.js';
export { GAPPED_TEXT_STEM, TRUE_FALSE_OPTIONS } from './mapping.js';
export { questionTemplate } from './formats/sheet/xlsx.js';
export { FPS_DEFAULT_LANGUAGES } from './formats/fps/import.js';
export { languageOf, SOURCE_EXTENSION } from './languages.js';
export * from './types.js';

/** A file to import. */
export interface ImportInput {
  /** File name (its extension helps detection). */
  name: string;
  /** Its bytes. */
  bytes: Uint8Array;
  /** The format, when the caller knows it; detected otherwise. */
  format?: Format;
  /** Bounds; the defaults suit an upload. */
  limits?: Partial<ImportLimits>;
}

/**
 * Reads a question file. Never rejects on bad input: a file refused as a whole (too large, binary, hostile zip or
 * XML, a sheet over the row limit) is `refused` with one problem; otherwise each question is a checked draft or a
 * located problem. Asynchronous because exceljs reads workbooks asynchronously.
 */
export async function importFile(input: ImportInput): Promise<ImportResult> {
  const limits = { ...DEFAULT_LIMITS, ...input.limits };
  const where = { file: input.name };
  if (input.bytes.length > limits.fileBytes)
    return refused(
      null,
      problem(where, 'file_too_large', 'error', { bytes: input.bytes.length, limit: limits.fileBytes }),
    );
  const format = input.format ?? detectFormat(input.name, input.bytes);
  if (!format) return refused(null, problem(where, 'unknown_format', 'error'));
  try {
    switch (format) {
      case 'gift':
        return { format, files: [], refused: false, ...importGift(decodeText(input.bytes, {}), limits) };
      case 'moodle_xml':
        return { format, refused: false, ...importMoodle(decodeText(input.bytes, {}), limits) };
      case 'qti':
        return { format, refused: false, ...importQti(input.name, input.bytes, limits) };
      case 'xlsx':
        return { format, files: [], refused: false, ...(await importXlsx(input.bytes, limits, {})) };
      case 'csv':
        return { format, files: [], refused: false, ...importCsv(input.bytes, limits, {}) };
      case 'fps':
        return { format, refused: false, ...importFps(decodeText(input.bytes, {}), limits) };
      case 'problem_zip':
        return { format, refused: false, ...importProblemZip(input.bytes, limits) };
    }
  } catch (e) {
    if (e instanceof Refusal) return refused(format, e.problem);
    throw e;
  }
}

function refused(format: Format | null, p: Problem): ImportResult {
  return { format, questions: [], problems: [p], files: [], refused: true };
}

/** What an export yields: the file's bytes, and the drafts it could not carry. */
export interface ExportResult {
  /** The file (GIFT, Moodle XML, FPS: UTF-8 text; CSV: UTF-8 with a BOM; QTI and problem zip: a zip; xlsx). */
  bytes: Uint8Array;
  /** Suggested file name extension. */
  extension: string;
  /** One warning per draft left out (located as `question[n]`, n from 1 in the input order). */
  problems: Problem[];
}

/** Writes drafts in a format. Embedded-file links (`import-file:`) are written as they are. */
export async function exportQuestions(format: Format, drafts: Draft[]): Promise<ExportResult> {
  switch (format) {
    case 'gift': {
      const { text, problems } = exportGift(drafts);
      return { bytes: new TextEncoder().encode(text), extension: 'gift.txt', problems };
    }
    case 'moodle_xml': {
      const { text, problems } = exportMoodle(drafts);
      return { bytes: new TextEncoder().encode(text), extension: 'xml', problems };
    }
    case 'qti': {
      const { bytes, problems } = exportQti(drafts);
      return { bytes, extension: 'zip', problems };
    }
    case 'xlsx':
      return { extension: 'xlsx', ...(await exportXlsx(drafts)) };
    case 'csv':
      return { extension: 'csv', ...exportCsv(drafts) };
    case 'fps': {
      const { text, problems } = exportFps(drafts);
      return { bytes: new TextEncoder().encode(text), extension: 'fps.xml', problems };
    }
    case 'problem_zip':
      return { extension: 'zip', ...exportProblemZip(drafts) };
  }
}
export {
  openTableWriter,
  readTable,
  writeTable,
  type TableLimits,
  type TableResult,
  type TableRow,
  type TableWriter,
} from './table.js';
