/**
 * A question file read as the bank would store it: the part of an import that needs no database (the importers
 * package, then the bank's rules on every question), its preview's first page, and the checks a commit makes.
 * The console's calls run it on a worker thread (parsing/); jobs and the command line call it directly.
 */
import { createHash } from 'node:crypto';
import {
  BANK_LIMITS,
  BankKnowledgePoint,
  BankTag,
  candidateView,
  IMPORT_LIMITS,
  QUESTION_REGISTRY,
  type ImportedQuestion,
  type ImportPreviewData,
  type ImportProblem,
} from '@examhall/contract';
import {
  FORMATS,
  importFile,
  placeOf,
  type Draft,
  type Format,
  type ImportResult,
  type Where,
} from '@examhall/importers';
import { z } from 'zod';
import { fail } from '../errors.js';
import type { BankImportItem } from './bank/transfer.js';
import { checkExplanation, checkQuestionBody, imageTargetOf, stemText } from './questionBody.js';

/** Points of an imported question when its file gives none. */
const DEFAULT_POINTS = 5;
/** Difficulty of an imported question when its file gives none (the middle of 1..5). */
const DEFAULT_DIFFICULTY = 3;
/** Characters of plain stem the preview shows. */
const STEM_PREVIEW = 200;
/** Matches an embedded file's link in a draft; group 1 is its id (the package's pattern, made local). */
const FILE_LINK = /import-file:(f\d+)/g;

/** A file to read. */
export interface QuestionFileInput {
  /** Its name as uploaded. */
  name: string;
  bytes: Uint8Array;
  /** The format the author chose, when the file does not tell. */
  format?: string | undefined;
  /** Where the API answers (pictures are linked under it). */
  apiPrefix: string;
}

/** A file read and checked against the bank's rules: what a preview shows and a commit stores. */
export interface ReadFile {
  format: Format;
  sha256: string;
  questions: ImportedQuestion[];
  problems: ImportProblem[];
  /** Pictures to store before the questions that link them. */
  images: Buffer[];
  files: number;
}

/** What a commit asks for, beside the file. */
export interface ImportChoice {
  tags: string[];
  only_valid: boolean;
  sha256?: string | undefined;
}

/** A problem the server finds (the bank's rules), located and worded like the package's. */
function serverProblem(where: Where, code: string, severity: ImportProblem['severity'], en: string, zh: string) {
  const place = placeOf(where);
  return {
    where,
    code,
    params: {},
    severity,
    message: place.en ? `${place.en}: ${en}` : en,
    message_zh: place.zh ? `${place.zh}：${zh}` : zh,
  } satisfies ImportProblem;
}

/** True when two places in a file are the same. */
const samePlace = (a: Where, b: Where) => JSON.stringify(a) === JSON.stringify(b);

/** A format name of the importers package, or `format_unknown`. */
export function formatOf(name: string): Format {
  const found = FORMATS.find((f) => f === name);
  if (!found) throw fail('format_unknown', `format: one of ${FORMATS.join(', ')}`);
  return found;
}

/** `import_refused` with the file's problem: its message, its code and, for a bound, the bound. */
function refusal(fileName: string, p: ImportProblem | undefined) {
  // The file's name first, unless the problem already starts with it.
  const where = p?.where.file === fileName ? '' : `${fileName}: `;
  const limit = p?.params.limit;
  return fail('import_refused', `${where}${p?.message ?? 'not a question file'}`, {
    problem: p?.code ?? 'unknown_format',
    ...(typeof limit === 'number' ? { limit } : {}),
  });
}

/**
 * Reads a file as the bank would store it: `import_refused` for a file refused whole, or holding more questions
 * than a file may (the importers stop reading there, and nothing of it is checked); otherwise every question with
 * the bank's rules applied and every located problem.
 */
export async function readQuestionFile(input: QuestionFileInput): Promise<ReadFile> {
  const format = input.format ? formatOf(input.format) : undefined;
  let result: ImportResult;
  try {
    result = await importFile({
      name: input.name,
      bytes: input.bytes,
      ...(format ? { format } : {}),
      limits: { fileBytes: IMPORT_LIMITS.fileBytes, questions: IMPORT_LIMITS.questions },
    });
  } catch (err) {
    // The package promises never to throw on bad input; should it, the file is refused, not a 500.
    throw fail('import_refused', `${input.name}: ${(err as Error).message}`, { problem: 'syntax' });
  }
  if (result.refused || !result.format) throw refusal(input.name, result.problems[0]);
  const over = result.problems.find((p) => p.code === 'too_many_questions');
  if (over) throw refusal(input.name, over);
  const problems: ImportProblem[] = [...result.problems];
  // Embedded pictures get their content-addressed URL now; other files cannot be stored in the bank.
  const urls = new Map<string, string>();
  const images: Buffer[] = [];
  for (const f of result.files) {
    const data = Buffer.from(f.bytes);
    const target = imageTargetOf(data, input.apiPrefix);
    if (target) {
      urls.set(f.id, target.url);
      images.push(data);
    } else {
      problems.push(
        serverProblem(
          { file: f.name },
          'file_not_stored',
          'warning',
          'only pictures (PNG, JPEG, GIF, WebP) are stored; links to this file are removed',
          '只保存图片（PNG、JPEG、GIF、WebP）；指向该文件的链接已去除',
        ),
      );
    }
  }
  const errorsAt = result.problems.filter((p) => p.severity === 'error').map((p) => p.where);
  const drafts = result.questions;
  const questions: ImportedQuestion[] = [];
  drafts.forEach((d, i) => {
    const link = <T>(value: T): T =>
      JSON.parse(JSON.stringify(value).replace(FILE_LINK, (whole, id: string) => urls.get(id) ?? whole)) as T;
    const linked = link(d.question);
    const bodyCheck = checkQuestionBody(linked);
    const explained = checkExplanation(
      bodyCheck.body ?? linked,
      link({ text: d.explanation ?? '', options: d.feedback ?? {} }),
    );
    const metaProblem = metadataProblem(d);
    let valid = !errorsAt.some((w) => samePlace(w, d.where));
    if (bodyCheck.problem !== null) {
      valid = false;
      problems.push(
        serverProblem(
          d.where,
          'bank_refused',
          'error',
          `the bank cannot store this question (${bodyCheck.problem})`,
          `题库无法保存这道题（${bodyCheck.problem}）`,
        ),
      );
    }
    if (explained.problem !== null) {
      valid = false;
      problems.push(
        serverProblem(
          d.where,
          'bank_refused',
          'error',
          `the bank cannot store this question (${explained.problem})`,
          `题库无法保存这道题（${explained.problem}）`,
        ),
      );
    }
    if (metaProblem) {
      valid = false;
      problems.push(
        serverProblem(d.where, 'bank_refused', 'error', metaProblem, `题目信息不符合题库要求：${metaProblem}`),
      );
    }
    const body = bodyCheck.body ?? linked;
    const points = d.points ?? DEFAULT_POINTS;
    questions.push({
      index: i + 1,
      where: d.where,
      title: d.title ?? null,
      question: body,
      kind: body.kind,
      type: QUESTION_REGISTRY[body.kind].type,
      stem: stemText(body).slice(0, STEM_PREVIEW),
      folder: d.folder,
      tags: d.tags,
      difficulty: d.difficulty ?? DEFAULT_DIFFICULTY,
      knowledge_points: d.knowledge_points,
      default_score: points,
      explanation: explained.explanation,
      subject: {
        ...candidateView(body),
        id: i + 1,
        type: QUESTION_REGISTRY[body.kind].type,
        order_num: i + 1,
        score: points,
        section: QUESTION_REGISTRY[body.kind].sections[0]!,
      },
      valid,
      duplicates: [],
    });
  });
  return {
    format: result.format,
    sha256: createHash('sha256').update(input.bytes).digest('hex'),
    questions,
    problems,
    images,
    files: result.files.length,
  };
}

/** A preview without its file name and duplicates (the service adds them: they need the request and the bank). */
export type PreviewPage = Omit<ImportPreviewData, 'file_name'>;

const SEVERITY_ORDER: Record<ImportProblem['severity'], number> = { error: 0, warning: 1, info: 2 };

/**
 * A read file's preview: the totals, the first questions and the first problems (errors first, so that a file's
 * errors are never hidden behind its notes).
 */
export function previewPage(read: ReadFile): PreviewPage {
  const count = (s: ImportProblem['severity']) => read.problems.filter((p) => p.severity === s).length;
  const problems = read.problems
    .map((p, i) => ({ p, i }))
    .sort((a, b) => SEVERITY_ORDER[a.p.severity] - SEVERITY_ORDER[b.p.severity] || a.i - b.i)
    .slice(0, IMPORT_LIMITS.previewProblems)
    .map(({ p }) => p);
  return {
    format: read.format,
    sha256: read.sha256,
    questions: read.questions.slice(0, IMPORT_LIMITS.previewQuestions),
    problems,
    files: read.files,
    counts: {
      questions: read.questions.length,
      valid: read.questions.filter((q) => q.valid).length,
      problems: read.problems.length,
      errors: count('error'),
      warnings: count('warning'),
      infos: count('info'),
    },
  };
}

/**
 * The questions of a read file that an import stores, or the error that refuses it: another file than the one
 * previewed (`import_file_changed`), a file with an error unless `only_valid` (`import_has_errors`), a question
 * that would carry too many tags.
 */
export function plannedImport(read: ReadFile, choice: ImportChoice): BankImportItem[] {
  if (choice.sha256 && choice.sha256 !== read.sha256) {
    throw fail('import_file_changed', `sha256: the file's is ${read.sha256}, not ${choice.sha256}`);
  }
  const errors = read.problems.filter((p) => p.severity === 'error');
  if (errors.length > 0 && !choice.only_valid) {
    throw fail('import_has_errors', `${errors.length} error(s), the first: ${errors[0]!.message}`);
  }
  const chosen = read.questions.filter((q) => q.valid);
  if (chosen.length === 0) throw fail('import_has_errors', 'the file holds no question that can be imported');
  return chosen.map((q) => {
    const tags = [...new Set([...q.tags, ...choice.tags])];
    if (tags.length > BANK_LIMITS.tags) {
      throw fail('validation_error', `tags: question ${q.index} would carry more than ${BANK_LIMITS.tags} tags`);
    }
    return {
      folder: q.folder,
      input: {
        question: q.question,
        explanation: q.explanation,
        difficulty: q.difficulty,
        knowledge_points: q.knowledge_points,
        tags,
        default_score: q.default_score,
      },
    };
  });
}

/** Why a draft's metadata does not fit the bank (too many or too long tags or knowledge points), or null. */
function metadataProblem(d: Draft): string | null {
  const tags = z.array(BankTag).max(BANK_LIMITS.tags, `at most ${BANK_LIMITS.tags} tags`).safeParse(d.tags);
  if (!tags.success) return `tags: ${tags.error.issues[0]?.message ?? 'invalid'}`;
  const points = z
    .array(BankKnowledgePoint)
    .max(BANK_LIMITS.knowledgePoints, `at most ${BANK_LIMITS.knowledgePoints} knowledge points`)
    .safeParse(d.knowledge_points);
  if (!points.success) return `knowledge points: ${points.error.issues[0]?.message ?? 'invalid'}`;
  if (d.points !== undefined && (d.points < 0 || d.points > 1000)) return 'points: 0 to 1000';
  return null;
}
