import { randomUUID } from 'node:crypto';
import {
  CANDIDATE_HEADERS,
  CANDIDATE_LIMITS,
  CANDIDATE_COLUMNS,
  type api,
  type CandidateImportPreviewData,
  type CandidateImportProblem,
  type CandidateImportResult,
  type CandidateImportRow,
  type JobStartedData,
  type ParsedBody,
} from '@examhall/contract';
import { writeTable } from '@examhall/importers';
import type { Db } from '../db/database.js';
import type { Download } from '../files.js';
import { fail } from '../errors.js';
import { CandidateDirectoryRepository, phoneKey, type PhoneHit } from '../repositories/candidateDirectory.js';
import { ParseBusyError, ParseCrashError, parsePool, type ParsePool } from '../parsing/pool.js';
import type { JobContext, Json } from '../jobs/types.js';
import type { ObjectStore } from '../storage/objectStore.js';
import type { AccessService, StaffActor } from './access.js';
import type { AuditService } from './audit.js';
import { othersOnly, writeTeam } from './candidates.js';
import { inOtherTeam, readCandidateFile, type CandidateFile, type SheetRead } from './candidateSheet.js';
import type { BulkInviteService } from './bulkInvite.js';
import type { JobService } from './jobs.js';
import type { CandidateSessions } from './candidateSessions.js';
import { importCandidates } from './candidateImportWrite.js';
import type { Upload } from './profile.js';

/** Where files wait for their import job in object storage. */
const IMPORT_FILES = 'jobs/candidates';

/** What a candidate import job carries. */
export interface CandidateImportPayload {
  [key: string]: Json;
  title: string;
  team_id: number | null;
  only_valid: boolean;
  sha256: string;
  file_key: string;
  file_name: string;
  /** The exam the imported candidates are invited to, and whether each new invitation is texted. */
  invite: { [key: string]: Json; exam_id: number; send_sms: boolean } | null;
}

/** A file read for a team: the sheet's candidates, each with what an import would do with it, and every problem. */
interface PlannedFile {
  sha256: string;
  sheet: SheetRead;
  rows: CandidateImportRow[];
  problems: CandidateImportProblem[];
}

/** What candidate imports need. */
export interface CandidateImportDeps {
  access: AccessService;
  audit: AuditService;
  store: Pick<ObjectStore, 'put' | 'get' | 'delete'>;
  jobs: Pick<JobService, 'start'>;
  invitations: Pick<BulkInviteService, 'checkBulk' | 'startBulk'>;
  /** The candidates kept per process (candidateSessions.ts), told of the candidates an import wrote. */
  sessions: Pick<CandidateSessions, 'changed'>;
  clock: () => number;
  /** The account a job runs as, by id (null when disabled or gone). */
  actorById: (id: number) => Promise<StaffActor | null>;
  /** Where the console's calls read files (default: worker threads). */
  parser?: ParsePool;
}

/**
 * Candidate imports, as the question imports: a preview reads the file and stores nothing, the commit sends the
 * file again (checked by its SHA-256) and runs as a job (`runImport`) that writes the candidates in batches, each
 * batch in one transaction with the job's checkpoint, upserting by phone; the template to fill in.
 */
export class CandidateImportService {
  private readonly repo: CandidateDirectoryRepository;
  /** Where the console's calls read files: worker threads. */
  private readonly parser: ParsePool;

  constructor(
    private readonly db: Db,
    private readonly deps: CandidateImportDeps,
  ) {
    this.repo = new CandidateDirectoryRepository(db);
    this.parser = deps.parser ?? parsePool();
  }

  /**
   * Reads a file and plans it for a team: what each candidate would become. The console's calls read it on a
   * worker thread (`offThread`), so that a 10,000-row list never holds candidates' calls; a job reads it here.
   */
  private async plan(file: Upload, teamId: number | null, actor: StaffActor, offThread: boolean): Promise<PlannedFile> {
    const { sha256, sheet } = offThread
      ? await this.readOffThread(file)
      : await readCandidateFile(file.fileName, file.data);
    const valid = sheet.entries.filter((e) => e.valid).map((e) => e.values);
    const existing = new Map<string, PhoneHit>();
    for (let i = 0; i < valid.length; i += CANDIDATE_LIMITS.batchRows) {
      const found = await this.repo.byPhones(valid.slice(i, i + CANDIDATE_LIMITS.batchRows), teamId);
      for (const [k, v] of found) existing.set(k, v);
    }
    const seesAll = actor.role === 'admin';
    const refused: CandidateImportProblem[] = [];
    const rows = sheet.entries.map((e): CandidateImportRow => {
      const hit = e.valid ? existing.get(phoneKey(e.values.area_code, e.values.phone)) : undefined;
      // Someone who logged in by themselves is new to the team: the preview does not reveal that they exist.
      const known = hit !== undefined && (hit.linked || seesAll);
      const othersOwn = hit !== undefined && !seesAll && othersOnly(hit);
      if (othersOwn) refused.push(inOtherTeam(e.row, sheet.phoneColumn));
      return {
        row: e.row,
        rows: e.rows,
        ...e.values,
        action: !e.valid || othersOwn ? 'invalid' : known ? 'update' : 'create',
        candidate_id: known ? hit.row.id : null,
      };
    });
    const problems = [...sheet.problems, ...refused].sort((a, b) => (a.row ?? 0) - (b.row ?? 0));
    return { sha256, sheet, rows, problems };
  }

  /** Reads a file on a worker thread; a busy pool is `rate_limited`, a worker that died refuses the file. */
  private async readOffThread(file: Upload): Promise<CandidateFile> {
    // a copy of its own: its buffer is handed to the worker
    const bytes = new Uint8Array(file.data);
    try {
      return await this.parser.run('candidate_sheet', { name: file.fileName, bytes }, [bytes.buffer]);
    } catch (err) {
      if (err instanceof ParseBusyError) throw fail('rate_limited', 'files are being read; try again in a moment');
      if (err instanceof ParseCrashError) throw fail('candidate_import_refused', `${file.fileName}: ${err.message}`);
      throw err;
    }
  }

  /**
   * Reads a candidate file for the actor's team: the counts of what an import would do, and the first candidates
   * as they would be stored, the first with a problem and the first problems.
   */
  async preview(actor: StaffActor, file: Upload, teamIdAsked: number | undefined): Promise<CandidateImportPreviewData> {
    const teamId = await writeTeam(this.deps.access, actor, teamIdAsked);
    const { sha256, sheet, rows, problems } = await this.plan(file, teamId, actor, true);
    const count = (a: CandidateImportRow['action']) => rows.filter((r) => r.action === a).length;
    const problemRows = new Set(problems.map((p) => p.row));
    const withProblems = rows.filter((r) => r.rows.some((n) => problemRows.has(n)));
    await this.deps.audit.record(actor, 'candidate.import.preview', { kind: 'team', id: teamId }, null, {
      file_name: file.fileName.slice(0, 200),
      sha256,
      size: file.data.length,
      rows: sheet.rowsRead,
      create: count('create'),
      update: count('update'),
      invalid: count('invalid'),
    });
    return {
      file_name: file.fileName,
      sha256,
      columns: sheet.columns,
      custom_columns: sheet.customColumns,
      rows: rows.slice(0, CANDIDATE_LIMITS.previewRows),
      problem_rows: withProblems.slice(0, CANDIDATE_LIMITS.previewRows),
      problems: problems.slice(0, CANDIDATE_LIMITS.previewProblems),
      counts: {
        rows: sheet.rowsRead,
        candidates: rows.length,
        with_problems: withProblems.length,
        problems: problems.length,
        create: count('create'),
        update: count('update'),
        invalid: count('invalid'),
        merged: sheet.merged,
        errors: problems.filter((p) => p.severity === 'error').length,
        warnings: problems.filter((p) => p.severity === 'warning').length,
      },
    };
  }

  /** The rows an import writes, or the error that refuses the file. */
  private chosen(planned: PlannedFile, input: { sha256?: string | undefined; only_valid: boolean }) {
    if (input.sha256 && input.sha256 !== planned.sha256) {
      throw fail('import_file_changed', `sha256: the file's is ${planned.sha256}, not ${input.sha256}`);
    }
    const invalid = planned.rows.filter((r) => r.action === 'invalid');
    if (invalid.length > 0 && !input.only_valid) {
      const first = planned.problems.find((p) => p.severity === 'error');
      throw fail('import_has_errors', `${invalid.length} row(s) with errors, the first: ${first?.message ?? ''}`);
    }
    const rows = planned.rows.filter((r) => r.action !== 'invalid');
    if (rows.length === 0) throw fail('import_has_errors', 'the file holds no candidate that can be imported');
    return { rows, skipped: invalid.length };
  }

  /**
   * Starts importing a previewed file as a job; answers the job's id. The file is read and checked at once (a
   * file with errors imports nothing unless `only_valid`; another file than the one previewed is refused) and
   * kept in object storage for the job, so any process may run it and a runner that takes over reads it again.
   */
  async commit(
    actor: StaffActor,
    file: Upload,
    input: ParsedBody<typeof api.candidateImport>,
  ): Promise<JobStartedData> {
    const teamId = await writeTeam(this.deps.access, actor, input.team_id);
    const planned = await this.plan(file, teamId, actor, true);
    const { rows, skipped } = this.chosen(planned, input);
    // An exam to invite to is checked now, so that a file is not imported for an invitation that would be refused.
    if (input.invite_exam_id !== undefined) await this.deps.invitations.checkBulk(actor, input.invite_exam_id);
    const fileKey = `${IMPORT_FILES}/${randomUUID()}`;
    await this.deps.store.put(fileKey, file.data);
    const payload: CandidateImportPayload = {
      title: file.fileName.slice(0, 200),
      team_id: teamId,
      only_valid: input.only_valid,
      sha256: input.sha256 ?? '',
      file_key: fileKey,
      file_name: file.fileName.slice(0, 200),
      invite: input.invite_exam_id === undefined ? null : { exam_id: input.invite_exam_id, send_sms: input.send_sms },
    };
    const jobId = await this.deps.jobs.start(actor, 'candidate_import', payload, teamId);
    // The entry is made when the import is started (what it will write); the job's result says what it wrote.
    await this.deps.audit.record(actor, 'candidate.import', { kind: 'team', id: teamId }, null, {
      file_name: payload.file_name,
      sha256: planned.sha256,
      job_id: jobId,
      create: rows.filter((r) => r.action === 'create').length,
      update: rows.filter((r) => r.action === 'update').length,
      skipped,
    });
    return { job_id: jobId };
  }

  /**
   * The import job: reads the kept file, then writes its candidates in order, in batches; each batch (creates,
   * updates by phone, team links) commits in one transaction with the job's checkpoint, so a resumed job goes on
   * after the last batch committed and every row is written once. Runs as the staff member who started it.
   */
  async runImport(ctx: JobContext<CandidateImportPayload>): Promise<CandidateImportResult> {
    const p = ctx.payload;
    const actor = ctx.owner.staffId === null ? null : await this.deps.actorById(ctx.owner.staffId);
    if (!actor) throw fail('forbidden', 'the account that started this import is disabled or gone');
    await ctx.progress(0, 1, 'read');
    const data = await this.deps.store.get(p.file_key);
    if (!data) throw fail('candidate_import_refused', `${p.file_name}: the file kept for this import is gone`);
    const planned = await this.plan(
      { fileName: p.file_name, mime: 'application/octet-stream', data },
      p.team_id,
      actor,
      false,
    );
    const { rows, skipped } = this.chosen(planned, { sha256: p.sha256 || undefined, only_valid: p.only_valid });
    const result = await importCandidates(this.db, ctx, {
      rows,
      teamId: p.team_id,
      actor,
      overwriteAll: actor.role === 'admin',
      now: this.deps.clock,
      written: (ids) => this.deps.sessions.changed(ids),
    });
    // Invitations are made once per candidate and exam and texted once per invitation, so a job resumed after
    // this point starts a second invitation job that finds everyone invited and texts nobody again.
    const invited = p.invite
      ? await this.deps.invitations.startBulk(actor, {
          exam_id: p.invite.exam_id,
          phones: rows.map((r) => ({ area_code: r.area_code, phone: r.phone })),
          candidate_ids: [],
          send_sms: p.invite.send_sms,
        })
      : null;
    await this.deps.store.delete(p.file_key).catch(() => undefined);
    return {
      ...result,
      skipped: skipped + result.skipped,
      total: result.created + result.updated,
      ...(invited ? { invitation_job_id: invited.job_id } : {}),
    };
  }

  /** The Excel template: the known headers in a language, one example row, and an example custom column. */
  async template(lang: 'zh' | 'en'): Promise<Download> {
    const custom = lang === 'zh' ? '意向岗位' : 'preferred role';
    const header = [...CANDIDATE_COLUMNS.map((c) => CANDIDATE_HEADERS[c][lang]), custom];
    const example =
      lang === 'zh'
        ? [
            '86',
            '13800138000',
            '张三',
            'zhangsan@example.com',
            '清华大学',
            '计算机科学与技术',
            '本科',
            2026,
            '后端开发',
          ]
        : [
            '86',
            '13800138000',
            'Zhang San',
            'zhangsan@example.com',
            'Tsinghua University',
            'Computer Science',
            'Bachelor',
            2026,
            'Backend developer',
          ];
    const bytes = await writeTable('xlsx', header, [example], lang === 'zh' ? '考生' : 'Candidates');
    return {
      bytes: Buffer.from(bytes),
      mime: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
      fileName: lang === 'zh' ? '考生导入模板.xlsx' : 'candidate-template.xlsx',
    };
  }
}
