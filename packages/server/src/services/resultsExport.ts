/**
 * Exports of an exam's results as background jobs: the ranking as filtered, with each attempt's points per
 * question, written row by row into a file and put into object storage; the file then downloaded (audited).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  api,
  enumText,
  formatServerTime,
  GRADING_STATE_TEXTS,
  OUTCOME_TEXTS,
  outcomeOf,
  SECTION_SCORE_TEXTS,
  type JobStartedData,
  type ParsedBody,
  type ResultExportResult,
  type TextLanguage,
} from '@examhall/contract';
import { openTableWriter } from '@examhall/importers';
import type { Db } from '../db/database.js';
import { fail } from '../errors.js';
import type { Download } from '../files.js';
import type { JobContext, Json } from '../jobs/types.js';
import type { ServiceLog } from '../log.js';
import { JobRepository } from '../repositories/jobs.js';
import { ResultsRepository } from '../repositories/results.js';
import type { ObjectStore } from '../storage/objectStore.js';
import type { AccessService, StaffActor } from './access.js';
import type { AuditService } from './audit.js';
import type { ExamCatalog, VersionBundle } from './catalog.js';
import type { JobService } from './jobs.js';
import { ResultsService } from './results.js';

/** What a `results_export` job is given: the exam, the file's format and language, the ranking's filters. */
export interface ResultExportPayload {
  [key: string]: Json;
  title: string;
  exam_id: number;
  format: 'xlsx' | 'csv';
  lang: 'zh' | 'en';
  /** The ranking's filters as the export call gave them. */
  filter: { [key: string]: Json };
  /** Leave out who the candidates are (a grader's export while blind grading runs). */
  hide: boolean;
}

/** Rows an export reads per batch of per-question points (and reports progress after). */
const EXPORT_BATCH = 500;

/** The export's header words. */
const WORDS = {
  zh: {
    rank: '排名',
    attempt: '答卷编号',
    name: '姓名',
    phone: '手机号',
    school: '学校',
    major: '专业',
    score: '总分',
    max: '满分',
    passed: '是否通过',
    yes: '是',
    risk: '风险记录数',
    flagged: '已确认违规',
    grading: '阅卷状态',
    finished: '交卷时间',
    question: (i: number, max: number) => `第${i}题（${max}分）`,
    sheet: '成绩',
  },
  en: {
    rank: 'Rank',
    attempt: 'Attempt',
    name: 'Name',
    phone: 'Phone',
    school: 'School',
    major: 'Major',
    score: 'Score',
    max: 'Maximum',
    passed: 'Passed',
    yes: 'yes',
    risk: 'Risk records',
    flagged: 'Confirmed flag',
    grading: 'Grading',
    finished: 'Finished at',
    question: (i: number, max: number) => `Q${i} (${max})`,
    sheet: 'Results',
  },
} as const;

/** The language of the texts an export's language code names. */
const TEXT_LANGUAGE: Record<ResultExportPayload['lang'], TextLanguage> = { zh: 'zh-CN', en: 'en-US' };

/** The file an export writes, also the job's title (data, in no language). */
function exportFileName(examId: number, format: string): string {
  return `exam-${examId}-results.${format}`;
}

/** The object key of an export job's file. */
function exportKey(jobId: number, format: string): string {
  return `exports/results/job-${jobId}.${format}`;
}

/** What exports need: the ranking's rows as the console shows them, and where jobs and files go. */
export interface ResultsExportDeps {
  ranking: Pick<ResultsService, 'toRow' | 'blindFor' | 'hasPassRule'>;
  access: AccessService;
  audit: AuditService;
  catalog: ExamCatalog;
  jobs: JobService;
  store: ObjectStore;
  log: ServiceLog;
}

export class ResultsExportService {
  private readonly repo: ResultsRepository;

  constructor(
    private readonly db: Db,
    private readonly deps: ResultsExportDeps,
  ) {
    this.repo = new ResultsRepository(db);
  }

  /** Starts an export of the ranking (as filtered) with points per question (audited). */
  async startExport(actor: StaffActor, body: ParsedBody<typeof api.resultsExport>): Promise<JobStartedData> {
    const [owner] = await this.deps.access.requireFor(actor, api.resultsExport, body.exam_id);
    ResultsService.filter(body);
    const { exam_id, format, lang, ...rest } = body;
    const filter = Object.fromEntries(Object.entries(rest).filter(([, v]) => v !== undefined)) as Record<string, Json>;
    const payload: ResultExportPayload = {
      title: exportFileName(exam_id, format),
      exam_id,
      format,
      lang,
      filter,
      hide: await this.deps.ranking.blindFor(actor, exam_id),
    };
    const jobId = await this.deps.jobs.start(actor, 'results_export', payload, owner?.teamId ?? null);
    await this.deps.audit.record(actor, 'results.export', { kind: 'exam', id: exam_id }, null, {
      job_id: jobId,
      format,
      filter,
    });
    return { job_id: jobId };
  }

  /**
   * The `results_export` job: the ranking's rows in rank order with each attempt's points per question, written
   * row by row into a file of this machine (exceljs's streaming writer, or CSV lines), then put into object
   * storage; progress is rows done of rows in all. A job taken over writes the whole file again.
   */
  async runExport(ctx: JobContext<ResultExportPayload>): Promise<ResultExportResult> {
    const p = ctx.payload;
    const f = p.filter as Parameters<typeof ResultsService.filter>[0];
    const rows = await this.repo.allRanked({
      examId: p.exam_id,
      ...ResultsService.filter(f),
      sort: 'rank',
      order: 'asc',
    });
    await ctx.progress(0, rows.length, 'rows');
    const versions = new Map<number, VersionBundle | null>();
    // One column per scored question of the versions taken that a finished attempt was given (a draw's pool
    // question nobody drew has none), in the versions' order.
    const given = await this.repo.questionMeans(p.exam_id);
    const columns: { id: number; max: number }[] = [];
    const seen = new Set<number>();
    for (const vid of [...new Set(rows.map((r) => r.version_id).filter((v) => v !== null))].sort((a, b) => a - b)) {
      versions.set(vid, await this.deps.catalog.version(vid));
      const version = versions.get(vid);
      if (!version) continue;
      for (const q of ResultsService.scoredQuestions(version)) {
        if (seen.has(q.id) || !given.has(q.id)) continue;
        seen.add(q.id);
        columns.push({ id: q.id, max: q.score });
      }
    }
    const w = WORDS[p.lang];
    const lang = TEXT_LANGUAGE[p.lang];
    // A column of each scored section the attempts have, and whether each passed only under a pass rule.
    const sections = ResultsService.sectionsOf(rows);
    const passRule = await this.deps.ranking.hasPassRule(rows, versions);
    const header = [
      w.rank,
      w.attempt,
      w.name,
      w.phone,
      w.school,
      w.major,
      w.score,
      w.max,
      ...sections.map((section) => enumText(SECTION_SCORE_TEXTS, section, lang)),
      ...(passRule ? [w.passed] : []),
      w.risk,
      w.flagged,
      w.grading,
      w.finished,
      ...columns.map((c, i) => w.question(i + 1, c.max)),
    ];
    const fileName = exportFileName(p.exam_id, p.format);
    const dir = await fs.promises.mkdtemp(path.join(os.tmpdir(), 'examhall-export-'));
    const file = path.join(dir, fileName);
    try {
      const out = await openTableWriter(p.format, file, header, w.sheet);
      let done = 0;
      try {
        for (let at = 0; at < rows.length; at += EXPORT_BATCH) {
          if (ctx.signal.aborted) throw fail('conflict', 'the export was cancelled');
          const batch = rows.slice(at, at + EXPORT_BATCH);
          const points = new Map<string, number | null>();
          for (const s of await this.repo.scoresOf(batch.map((r) => r.attempt_id))) {
            points.set(`${s.attempt_id}:${s.question_id}`, s.points);
          }
          for (const r of batch) {
            const row = await this.deps.ranking.toRow(r, p.hide === true, versions);
            await out.add([
              row.rank,
              row.attempt_id,
              row.candidate.name,
              row.candidate.phone,
              row.candidate.school,
              row.candidate.major,
              row.score,
              row.max_score,
              ...sections.map((section) => row.sections.find((s) => s.section === section)?.score ?? null),
              ...(passRule ? [enumText(OUTCOME_TEXTS, outcomeOf(row.passed), lang)] : []),
              row.risk_count,
              row.flagged ? w.yes : '',
              enumText(GRADING_STATE_TEXTS, row.grading, lang),
              row.finished_at === null ? '' : formatServerTime(row.finished_at),
              ...columns.map((c) => {
                const v = points.get(`${r.attempt_id}:${c.id}`);
                return v === undefined || v === null ? null : v;
              }),
            ]);
          }
          done += batch.length;
          await ctx.progress(done, rows.length, 'rows');
        }
      } finally {
        await out.close();
      }
      const { size } = await this.deps.store.putFile(exportKey(ctx.jobId, p.format), file);
      this.deps.log.info({ exam: p.exam_id, rows: rows.length, size }, 'results exported');
      return {
        rows: rows.length,
        file_name: fileName,
        size,
        format: p.format,
        download: `${api.resultsExportFile.path}?job_id=${ctx.jobId}`,
      };
    } finally {
      await fs.promises.rm(dir, { recursive: true, force: true });
    }
  }

  /** The file of a finished export the actor may follow, streamed from object storage (the download is audited). */
  async exportFile(actor: StaffActor, jobId: number): Promise<Download> {
    await this.deps.access.requireFor(actor, api.resultsExportFile, jobId);
    const job = await new JobRepository(this.db).view(jobId);
    if (!job || job.kind !== 'results_export') throw fail('not_found', `no such export ${jobId}`);
    const payload = JSON.parse(job.payload) as ResultExportPayload;
    // The exam must still be in reach: a grader taken off it keeps no way to its results.
    await this.deps.access.require(actor, 'grade.read', 'exam', payload.exam_id);
    // A file written with names (another's export) cannot be blanked afterwards: a grader exports their own.
    if (!payload.hide && (await this.deps.ranking.blindFor(actor, payload.exam_id))) {
      throw fail(
        'blind_marking',
        `export ${jobId} names the candidates: start an export of your own, which leaves them out`,
      );
    }
    if (job.state !== 'done' || job.result === null) {
      throw fail('conflict', `export ${jobId} is ${job.state}: its file comes once it is done`);
    }
    const result = JSON.parse(job.result) as ResultExportResult;
    const object = await this.deps.store.stream(exportKey(jobId, result.format));
    if (!object) throw fail('not_found', `the file of export ${jobId} is gone`);
    await this.deps.audit.record(actor, 'results.download', { kind: 'exam', id: payload.exam_id }, null, {
      job_id: jobId,
      file_name: result.file_name,
      rows: result.rows,
    });
    return {
      bytes: object.stream,
      mime:
        result.format === 'csv'
          ? 'text/csv; charset=utf-8'
          : 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
      fileName: result.file_name,
    };
  }
}
