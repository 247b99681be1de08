import { parseQuestion, type ImportFormatInfo, type QuestionExplanation } from '@examhall/contract';
import { exportQuestions, FORMATS, questionTemplate, type Draft, type Format } from '@examhall/importers';
import type { Db } from '../db/database.js';
import type { Download } from '../files.js';
import { fail } from '../errors.js';
import { ExamEditorRepository } from '../repositories/examEditor.js';
import { ExamVersionRepository } from '../repositories/examVersions.js';
import type { AccessService, StaffActor } from './access.js';
import type { AuditService } from './audit.js';
import type { BankExportItem, BankTransferService } from './bank/transfer.js';
import { storedExplanation } from './questionBody.js';
import { formatOf } from './questionFile.js';

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

/** What question exports need. */
export interface QuestionExportDeps {
  access: AccessService;
  audit: AuditService;
  /** The bank's questions as they are exported (bank/transfer.ts). */
  bank: Pick<BankTransferService, 'forExport'>;
}

/**
 * Question files the bank hands out through the importers package: the formats it knows, the Excel template of
 * the one-row-per-question layout, and exports of folders, chosen questions and exams. The server knows no format
 * itself: formats and writing come from the package.
 */
export class QuestionExportService {
  constructor(
    private readonly db: Db,
    private readonly deps: QuestionExportDeps,
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

  /** A folder's questions (its sub-folders' under their names) as a file (audited). */
  async exportFolder(actor: StaffActor, folderId: number, format: string): Promise<Download> {
    const f = formatOf(format);
    const items = await this.deps.bank.forExport(actor, { folderId });
    const file = await this.download(f, items.map(toDraft), `folder-${folderId}`);
    await this.deps.audit.record(actor, 'bank.export_folder', { kind: 'folder', id: folderId }, null, {
      file_name: file.fileName,
      format: f,
      questions: items.length,
    });
    return file;
  }

  /** Chosen bank questions as a file (audited). */
  async exportQuestions(actor: StaffActor, ids: readonly number[], format: string): Promise<Download> {
    const f = formatOf(format);
    const items = await this.deps.bank.forExport(actor, { ids });
    const file = await this.download(f, items.map(toDraft), `questions-${items.length}`);
    // Questions of several folders (or teams, for an admin): one entry naming them all.
    await this.deps.audit.record(
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
    await this.deps.access.require(actor, 'exam.manage', 'exam', examId);
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
      return {
        question: parsed.body,
        ...draftExplanation(storedExplanation(r.explanation)),
        folder: [],
        tags: [],
        knowledge_points: [],
        points: r.score,
        where: {},
      };
    });
    const file = await this.download(f, drafts, `exam-${examId}`);
    await this.deps.audit.record(actor, 'exam.export', { kind: 'exam', id: examId }, null, {
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
}

/** An explanation as a draft carries it: the text, and the feedback per option (each only when there is some). */
function draftExplanation(e: QuestionExplanation | null): Pick<Draft, 'explanation' | 'feedback'> {
  if (!e) return {};
  return {
    ...(e.text.trim() !== '' ? { explanation: e.text } : {}),
    ...(Object.keys(e.options).length > 0 ? { feedback: e.options } : {}),
  };
}

/** A bank question as a draft the package writes. */
function toDraft(item: BankExportItem): Draft {
  return {
    question: item.body,
    ...draftExplanation(item.explanation),
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
