import { createHash, randomUUID } from 'node:crypto';
import {
  BANK_LIMITS,
  BankKnowledgePoint,
  BankTag,
  candidateView,
  IMPORT_LIMITS,
  parseQuestion,
  QUESTION_REGISTRY,
  type ImportCommitData,
  type ImportedQuestion,
  type ImportFormatInfo,
  type ImportPreviewData,
  type ImportProblem,
  type JobStartedData,
  type QuestionBody,
} from '@examhall/contract';
import {
  exportQuestions,
  FORMATS,
  importFile,
  placeOf,
  questionTemplate,
  type Draft,
  type Format,
  type ImportResult,
  type Where,
} from '@examhall/importers';
import { z } from 'zod';
import type { Db } from '../db/database.js';
import type { Download } from '../http/route.js';
import { fail } from '../http/errors.js';
import { ExamEditorRepository } from '../repositories/examEditor.js';
import { ExamVersionRepository } from '../repositories/examVersions.js';
import { TeamRepository } from '../repositories/teams.js';
import type { AccessService, StaffActor } from './access.js';
import type { AuditService } from './audit.js';
import type { BankExportItem, BankImportItem, BankService } from './bank.js';
import type { JobContext, Json } from '../jobs/types.js';
import type { ObjectStore } from '../storage/objectStore.js';
import type { JobService } from './jobs.js';
import type { Upload } from './profile.js';

/**
 * How people call each format. Typed by the importers package's list, so a format added there fails to
 * compile here until it has a name: the one place the server lists formats.
 */
const FORMAT_LABELS: Record<Format, string> = {
  gift: 'GIFT',
  moodle_xml: 'Moodle XML',
  qti: 'QTI 2.1 / 3.0',
  xlsx: 'Excel (.xlsx)',
  csv: 'CSV',
  fps: 'FPS (FreeProblemSet)',
  problem_zip: 'Problem zip',
};

/** Content types of exports, by the last part of the extension the package suggests. */
const MIME_BY_EXTENSION: Record<string, string> = {
  txt: 'text/plain; charset=utf-8',
  xml: 'application/xml; charset=utf-8',
  zip: 'application/zip',
  csv: 'text/csv; charset=utf-8',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
};

/** Points of an imported question when its file gives none. */
const DEFAULT_POINTS = 5;
/** Difficulty of an imported question when its file gives none (the middle of 1..5). */
const DEFAULT_DIFFICULTY = 3;
/** Characters of plain stem the preview shows. */
const STEM_PREVIEW = 200;
/** Matches an embedded file's link in a draft; group 1 is its id (the package's pattern, made local). */
const FILE_LINK = /import-file:(f\d+)/g;

/** The fields of a preview, validated. */
export interface ImportTarget {
  folder_id: number;
  format?: string | undefined;
}

/** The fields of a commit, validated. */
export interface ImportCommitInput extends ImportTarget {
  tags: string[];
  only_valid: boolean;
  sha256?: string | undefined;
}

/** Where files wait for their import job in object storage. */
const IMPORT_FILES = 'jobs/imports';

/** What an import job carries. */
export interface ImportJobPayload {
  [key: string]: Json;
  title: string;
  folder_id: number;
  format: string;
  tags: string[];
  only_valid: boolean;
  sha256: string;
  file_key: string;
  file_name: string;
}

/** The result a finished import's checkpoint holds, or null before it committed. */
function importDone(cursor: Json | null): ImportCommitData | null {
  if (cursor === null || typeof cursor !== 'object' || Array.isArray(cursor)) return null;
  const c = cursor as Partial<Record<keyof ImportCommitData, unknown>>;
  if (!Array.isArray(c.question_ids)) return null;
  return {
    question_ids: c.question_ids as number[],
    folders_created: Number(c.folders_created),
    files_stored: Number(c.files_stored),
    skipped: Number(c.skipped),
  };
}

/** A file read and checked against the bank: what a preview shows and a commit stores. */
export interface ReadFile {
  format: Format;
  sha256: string;
  questions: ImportedQuestion[];
  problems: ImportProblem[];
  /** Pictures to store before the questions that link them. */
  images: Buffer[];
  files: number;
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
function formatOf(name: string): Format {
  const found = FORMATS.find((f) => f === name);
  if (!found) throw fail('format_unknown', `format: one of ${FORMATS.join(', ')}`);
  return found;
}

/** A file name without characters that a download name cannot hold. */
function safeName(name: string): string {
  const printable = [...name].map((c) => (c.charCodeAt(0) < 0x20 ? '_' : c)).join('');
  return (
    printable
      .replace(/[\\/:*?"<>|]+/g, '_')
      .trim()
      .slice(0, 80) || 'questions'
  );
}

/**
 * Question imports and exports through the importers package: a file becomes the bank questions it would
 * make (preview) and then those questions (commit, in one transaction: all, or only the valid ones when the
 * author says so); folders, selections and exams become files. The server knows no format itself: formats,
 * reading and writing come from the package. A commit checks the file at once and stores it as a job
 * (`runImport`), with progress the console follows; the command line imports synchronously.
 *
 * The file is sent again with the commit rather than kept between the two calls: no state on the server
 * (any process can answer either call), nothing to clean up, and the preview's SHA-256, sent back, makes
 * sure the questions stored are those the author saw.
 */
export class ImportService {
  constructor(
    private readonly db: Db,
    private readonly access: AccessService,
    private readonly audit: AuditService,
    private readonly bank: BankService,
    private readonly store: ObjectStore,
    private readonly jobs: JobService,
    /** The account a job runs as, by id (null when disabled or gone). */
    private readonly staffAccount: (id: number) => Promise<StaffActor | null>,
  ) {}

  /** The formats questions are imported from and exported to. */
  async formats(): Promise<ImportFormatInfo[]> {
    return Promise.all(
      FORMATS.map(async (format) => {
        const { extension } = await exportQuestions(format, []);
        return { format, label: FORMAT_LABELS[format], extension, mime: mimeOf(extension) };
      }),
    );
  }

  /** Reads a file for the target folder's team: every question as it will be stored, problems, duplicates. */
  async preview(actor: StaffActor, file: Upload, target: ImportTarget): Promise<ImportPreviewData> {
    const read = await this.read(actor, file, target);
    await this.audit.record(actor, 'bank.import.preview', { kind: 'folder', id: target.folder_id }, null, {
      file_name: file.fileName.slice(0, 200),
      format: read.format,
      sha256: read.sha256,
      size: file.data.length,
      questions: read.questions.length,
      problems: read.problems.length,
    });
    return {
      format: read.format,
      file_name: file.fileName,
      sha256: read.sha256,
      questions: read.questions,
      problems: read.problems,
      files: read.files,
      counts: {
        questions: read.questions.length,
        valid: read.questions.filter((q) => q.valid).length,
        errors: read.problems.filter((p) => p.severity === 'error').length,
        warnings: read.problems.filter((p) => p.severity === 'warning').length,
        infos: read.problems.filter((p) => p.severity === 'info').length,
      },
    };
  }

  /**
   * Starts importing a file into a folder with the author's tags, as a job; answers the job's id. The file is
   * read and checked first, so what would refuse it answers at once: a file with an error imports nothing
   * (`import_has_errors`) unless `only_valid`, a file other than the one previewed `import_file_changed`. The
   * file is kept in object storage for the job (any process may run it, and a runner that takes over after a
   * crash reads it again).
   */
  async commit(actor: StaffActor, file: Upload, input: ImportCommitInput): Promise<JobStartedData> {
    const read = await this.read(actor, file, input);
    this.plan(read, input);
    const [folder] = await this.access.require(actor, 'bank.manage', 'folder', input.folder_id);
    const fileKey = `${IMPORT_FILES}/${randomUUID()}`;
    await this.store.put(fileKey, file.data);
    const payload: ImportJobPayload = {
      title: file.fileName.slice(0, 200),
      folder_id: input.folder_id,
      format: read.format,
      tags: input.tags,
      only_valid: input.only_valid,
      sha256: read.sha256,
      file_key: fileKey,
      file_name: file.fileName.slice(0, 200),
    };
    const jobId = await this.jobs.start(actor, 'bank_import', payload, folder!.teamId);
    return { job_id: jobId };
  }

  /**
   * The import job: reads the kept file again, stores its pictures, then its questions in one transaction
   * together with the job's checkpoint (all or nothing, and never twice: a run that takes over after a crash
   * finds the checkpoint and answers what the first run stored). Runs as the staff member who started it,
   * with their access as it is now.
   */
  async runImport(ctx: JobContext<ImportJobPayload>): Promise<ImportCommitData> {
    const p = ctx.payload;
    const done = importDone(ctx.cursor);
    if (done) {
      await this.store.delete(p.file_key).catch(() => undefined);
      return done;
    }
    const actor = ctx.owner.staffId === null ? null : await this.staffAccount(ctx.owner.staffId);
    if (!actor) throw fail('forbidden', 'the account that started this import is disabled or gone');
    await ctx.progress(0, 1, 'read');
    const data = await this.store.get(p.file_key);
    if (!data) throw fail('import_refused', `${p.file_name}: the file kept for this import is gone`);
    const file: Upload = { fileName: p.file_name, mime: 'application/octet-stream', data };
    const input: ImportCommitInput = {
      folder_id: p.folder_id,
      format: p.format,
      tags: p.tags,
      only_valid: p.only_valid,
      sha256: p.sha256,
    };
    const read = await this.read(actor, file, input);
    const items = this.plan(read, input);
    await ctx.progress(1, 1, 'read');
    // Pictures first, outside the transaction: objects are content-addressed, so one left by a failed import
    // is only the same picture a later import stores again, never a broken link.
    for (const [i, image] of read.images.entries()) {
      await ctx.progress(i, read.images.length, 'pictures');
      await this.bank.putImage(image);
    }
    await ctx.progress(0, items.length, 'questions');
    const skipped = read.questions.length - items.length;
    const stored = await ctx.checkpoint(
      (out: { ids: number[]; foldersCreated: number }): Json => ({
        question_ids: out.ids,
        folders_created: out.foldersCreated,
        files_stored: read.images.length,
        skipped,
      }),
      (trx) =>
        this.bank.importQuestions(
          actor,
          input.folder_id,
          items,
          {
            file_name: p.file_name,
            format: read.format,
            sha256: read.sha256,
            tags: input.tags,
            files_stored: read.images.length,
            skipped,
            job_id: ctx.jobId,
          },
          trx,
        ),
      { done: items.length, total: items.length },
    );
    await this.store.delete(p.file_key).catch(() => undefined);
    return {
      question_ids: stored.ids,
      folders_created: stored.foldersCreated,
      files_stored: read.images.length,
      skipped,
    };
  }

  /** The questions of a read file that an import stores, or the error that refuses it. */
  private plan(read: ReadFile, input: ImportCommitInput): BankImportItem[] {
    if (input.sha256 && input.sha256 !== read.sha256) {
      throw fail('import_file_changed', `sha256: the file's is ${read.sha256}, not ${input.sha256}`);
    }
    const errors = read.problems.filter((p) => p.severity === 'error');
    if (errors.length > 0 && !input.only_valid) {
      throw fail('import_has_errors', `${errors.length} error(s), the first: ${errors[0]!.message}`);
    }
    const chosen = read.questions.filter((q) => q.valid);
    if (chosen.length === 0) throw fail('import_has_errors', 'the file holds no question that can be imported');
    return chosen.map((q) => {
      const tags = [...new Set([...q.tags, ...input.tags])];
      if (tags.length > BANK_LIMITS.tags) {
        throw fail('validation_error', `tags: question ${q.index} would carry more than ${BANK_LIMITS.tags} tags`);
      }
      return {
        folder: q.folder,
        input: {
          question: q.question,
          difficulty: q.difficulty,
          knowledge_points: q.knowledge_points,
          tags,
          default_score: q.default_score,
        },
      };
    });
  }

  /** The command line's import, synchronous: reads, checks and stores in one go (all or nothing). */
  private async importNow(actor: StaffActor, file: Upload, input: ImportCommitInput): Promise<ImportCommitData> {
    const read = await this.read(actor, file, input);
    const items = this.plan(read, input);
    for (const image of read.images) await this.bank.putImage(image);
    const skipped = read.questions.length - items.length;
    const { ids, foldersCreated } = await this.bank.importQuestions(actor, input.folder_id, items, {
      file_name: file.fileName.slice(0, 200),
      format: read.format,
      sha256: read.sha256,
      tags: input.tags,
      files_stored: read.images.length,
      skipped,
    });
    return { question_ids: ids, folders_created: foldersCreated, files_stored: read.images.length, skipped };
  }

  /**
   * The command line's import: into the folder at `path` of a team (null: of no team), made when missing,
   * as the operator (an admin); otherwise exactly the console's commit (all or nothing).
   */
  async importAsOperator(
    actor: StaffActor,
    file: Upload,
    opts: { format?: string | undefined; teamName?: string | undefined; path: readonly string[] },
  ): Promise<ImportCommitData> {
    let teamId: number | null = null;
    if (opts.teamName !== undefined) {
      const team = await new TeamRepository(this.db).findByName(opts.teamName);
      if (!team) throw fail('not_found', `no such team ${opts.teamName}`);
      teamId = team.id;
    }
    let parent: number | null = null;
    for (const name of opts.path) {
      const { list } = await this.bank.folders(actor);
      const found = list.find((f) => f.team_id === teamId && f.parent_id === parent && f.name === name);
      parent = found
        ? found.id
        : (
            await this.bank.createFolder(actor, {
              name,
              parent_id: parent,
              team_id: parent === null ? teamId : undefined,
            })
          ).id;
    }
    if (parent === null) throw fail('validation_error', 'folder: name a folder to import into');
    return this.importNow(actor, file, { folder_id: parent, format: opts.format, tags: [], only_valid: false });
  }

  /** A folder's questions (its sub-folders' under their names) as a file (audited). */
  async exportFolder(actor: StaffActor, folderId: number, format: string): Promise<Download> {
    const f = formatOf(format);
    const items = await this.bank.forExport(actor, { folderId });
    const file = await this.download(f, items.map(toDraft), `folder-${folderId}`);
    await this.audit.record(actor, 'bank.export_folder', { kind: 'folder', id: folderId }, null, {
      file_name: file.fileName,
      format: f,
      questions: items.length,
    });
    return file;
  }

  /** Chosen bank questions as a file (audited). */
  async exportQuestions(actor: StaffActor, ids: readonly number[], format: string): Promise<Download> {
    const f = formatOf(format);
    const items = await this.bank.forExport(actor, { ids });
    const file = await this.download(f, items.map(toDraft), `questions-${items.length}`);
    // Questions of several folders (or teams, for an admin): one entry naming them all.
    await this.audit.record(
      actor,
      'bank.export_questions',
      { kind: 'question', id: ids.length === 1 ? ids[0]! : null },
      null,
      {
        file_name: file.fileName,
        format: f,
        question_ids: [...ids],
        questions: items.length,
      },
    );
    return file;
  }

  /** The questions of an exam's published version, in the exam's order, as a file. */
  async exportExam(actor: StaffActor, examId: number, format: string): Promise<Download> {
    const f = formatOf(format);
    await this.access.require(actor, 'exam.manage', 'exam', examId);
    const exam = await new ExamEditorRepository(this.db).byId(examId);
    if (!exam || exam.published_version_id === null) {
      throw fail('exam_not_published', `exam ${examId} has no published version to export`);
    }
    const rows = await new ExamVersionRepository(this.db).questionsOf(exam.published_version_id);
    const drafts = rows.map((r): Draft => {
      let parsed: ReturnType<typeof parseQuestion>;
      try {
        parsed = parseQuestion(r.kind, JSON.parse(r.content), JSON.parse(r.answer_key));
      } catch {
        parsed = { ok: false, problems: ['content or key: not valid JSON'] };
      }
      if (!parsed.ok) throw fail('question_invalid', `question ${r.id}: ${parsed.problems[0] ?? 'invalid'}`);
      return { question: parsed.body, folder: [], tags: [], knowledge_points: [], points: r.score, where: {} };
    });
    const file = await this.download(f, drafts, `exam-${examId}`);
    await this.audit.record(actor, 'exam.export', { kind: 'exam', id: examId }, null, {
      file_name: file.fileName,
      format: f,
      version_id: exam.published_version_id,
      questions: drafts.length,
      // The file carries the answer keys.
      keys: true,
    });
    return file;
  }

  /** The Excel template of the one-row-per-question layout in a language, as a download. */
  async template(lang: 'zh' | 'en'): Promise<Download> {
    const bytes = await questionTemplate(lang);
    return { bytes, mime: mimeOf('xlsx'), fileName: lang === 'zh' ? '题目导入模板.xlsx' : 'question-template.xlsx' };
  }

  /** Writes drafts in a format as a download. */
  private async download(format: Format, drafts: Draft[], baseName: string): Promise<Download> {
    const { bytes, extension } = await exportQuestions(format, drafts);
    return { bytes, mime: mimeOf(extension), fileName: `${safeName(baseName)}.${extension}` };
  }

  /** Reads a file for a target folder the actor may fill, with the duplicates in the folder's team's bank. */
  private async read(actor: StaffActor, file: Upload, target: ImportTarget): Promise<ReadFile> {
    const [folder] = await this.access.require(actor, 'bank.manage', 'folder', target.folder_id);
    const read = await this.parse(file, target.format);
    const dupes = await this.bank.duplicates(
      folder!.teamId,
      read.questions.map((q) => q.question),
    );
    dupes.forEach((list, i) => {
      if (read.questions[i]!.valid) read.questions[i]!.duplicates = list;
    });
    return read;
  }

  /**
   * Reads a file as the bank would store it, with no folder in view (the command line's dry run):
   * `import_refused` for a file refused whole, otherwise the questions and every located problem.
   */
  inspect(file: Upload, format?: string): Promise<ReadFile> {
    return this.parse(file, format);
  }

  /** Reads a file and checks each draft against the bank's rules; refused files answer `import_refused`. */
  private async parse(file: Upload, formatName: string | undefined): Promise<ReadFile> {
    const format = formatName ? formatOf(formatName) : undefined;
    let result: ImportResult;
    try {
      result = await importFile({
        name: file.fileName,
        bytes: file.data,
        ...(format ? { format } : {}),
        limits: { fileBytes: IMPORT_LIMITS.fileBytes },
      });
    } catch (err) {
      // The package promises never to throw on bad input; should it, the file is refused, not a 500.
      throw fail('import_refused', `${file.fileName}: ${(err as Error).message}`);
    }
    if (result.refused || !result.format) {
      const first = result.problems[0];
      // The file's name first, unless the problem already starts with it.
      const where = first?.where.file === file.fileName ? '' : `${file.fileName}: `;
      throw fail('import_refused', `${where}${first?.message ?? 'not a question file'}`);
    }
    const problems: ImportProblem[] = [...result.problems];
    // Embedded pictures get their content-addressed URL now; other files cannot be stored in the bank.
    const urls = new Map<string, string>();
    const images: Buffer[] = [];
    for (const f of result.files) {
      const data = Buffer.from(f.bytes);
      const target = this.bank.imageTarget(data);
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
      const linked = JSON.parse(
        JSON.stringify(d.question).replace(FILE_LINK, (whole, id: string) => urls.get(id) ?? whole),
      ) as QuestionBody;
      const bodyCheck = this.bank.checkBody(linked);
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
        stem: this.bank.plainText(body).slice(0, STEM_PREVIEW),
        folder: d.folder,
        tags: d.tags,
        difficulty: d.difficulty ?? DEFAULT_DIFFICULTY,
        knowledge_points: d.knowledge_points,
        default_score: points,
        explanation: d.explanation ?? null,
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
    if (drafts.some((d) => d.explanation)) {
      problems.push(
        serverProblem(
          {},
          'explanation_not_stored',
          'info',
          'the bank keeps no explanation: the explanations of this file are not imported',
          '题库不保存解析：该文件中的解析不会导入',
        ),
      );
    }
    return {
      format: result.format,
      sha256: createHash('sha256').update(file.data).digest('hex'),
      questions,
      problems,
      images,
      files: result.files.length,
    };
  }
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

/** A bank question as a draft the package writes. */
function toDraft(item: BankExportItem): Draft {
  return {
    question: item.body,
    folder: item.folder,
    tags: item.tags,
    difficulty: item.difficulty,
    knowledge_points: item.knowledge_points,
    points: item.default_score,
    where: {},
  };
}

/** The content type of a file by its extension. */
function mimeOf(extension: string): string {
  return MIME_BY_EXTENSION[extension.split('.').pop() ?? ''] ?? 'application/octet-stream';
}
