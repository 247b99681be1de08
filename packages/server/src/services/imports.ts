import { randomUUID } from 'node:crypto';
import { type ImportCommitData, type ImportPreviewData, type JobStartedData } from '@examhall/contract';
import type { Db } from '../db/database.js';
import { fail } from '../errors.js';
import { ParseBusyError, ParseCrashError, parsePool, type ParsePool } from '../parsing/pool.js';
import type { ParseTasks } from '../parsing/tasks.js';
import { TeamRepository } from '../repositories/teams.js';
import type { AccessService, StaffActor } from './access.js';
import type { AuditService } from './audit.js';
import type { BankFolderService } from './bank/folders.js';
import type { BankQuestionService } from './bank/questions.js';
import { IMPORT_STAGE_ROWS, type BankTransferService } from './bank/transfer.js';
import type { BankUploadService } from './bank/uploads.js';
import { FINAL_STATES, JobLeaseLost, type JobContext, type JobState, type Json } from '../jobs/types.js';
import { BankImportRepository } from '../repositories/bankImports.js';
import { JobRepository } from '../repositories/jobs.js';
import type { ObjectStore } from '../storage/objectStore.js';
import type { JobService } from './jobs.js';
import type { Upload } from './profile.js';
import { plannedImport, readQuestionFile, type ReadFile } from './questionFile.js';

export type { ReadFile } from './questionFile.js';

/** What imports need of the bank (services/bank/). */
export interface ImportBank {
  folders: Pick<BankFolderService, 'folders' | 'createFolder'>;
  questions: Pick<BankQuestionService, 'duplicates'>;
  uploads: Pick<BankUploadService, 'apiPrefix' | 'putImage'>;
  transfer: Pick<
    BankTransferService,
    'prepareImport' | 'stageImport' | 'publishImport' | 'discardImport' | 'importQuestions'
  >;
}

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

/** Questions an import job staged before it was taken over (its checkpoint's cursor while staging). */
function stagedSoFar(cursor: Json | null): number {
  if (cursor === null || typeof cursor !== 'object' || Array.isArray(cursor)) return 0;
  const staged = (cursor as { staged?: unknown }).staged;
  return typeof staged === 'number' && Number.isInteger(staged) && staged > 0 ? staged : 0;
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

/** What question imports need. */
export interface ImportDeps {
  access: AccessService;
  audit: AuditService;
  bank: ImportBank;
  store: Pick<ObjectStore, 'put' | 'get' | 'delete'>;
  jobs: Pick<JobService, 'start'>;
  /** The account a job runs as, by id (null when disabled or gone). */
  actorById: (id: number) => Promise<StaffActor | null>;
  /** Where the console's calls read files (default: worker threads). */
  parser?: ParsePool;
}

/**
 * Question imports through the importers package: a file becomes the bank questions it would make (preview) and
 * then those questions (commit, in one transaction: all, or only the valid ones when the author says so). The
 * server knows no format itself: formats and reading come from the package. A commit checks the file at once and
 * stores it as a job (`runImport`), with progress the console follows; the command line imports synchronously.
 * The console's two calls read the file on a worker thread (parsing/), so that a large file never holds
 * candidates' calls, and a preview answers the first page of what the file holds with its totals. Exports and the
 * template are in questionExports.ts.
 *
 * The file is sent again with the commit rather than kept between the two calls: no state on the server
 * (any process can answer either call), nothing to clean up, and the preview's SHA-256, sent back, makes
 * sure the questions stored are those the author saw.
 */
export class ImportService {
  /** Where the console's calls read files: worker threads. */
  private readonly parser: ParsePool;

  constructor(
    private readonly db: Db,
    private readonly deps: ImportDeps,
  ) {
    this.parser = deps.parser ?? parsePool();
  }

  /**
   * Reads a file for the target folder's team (on a worker thread): the counts of its questions and problems, the
   * first questions with their duplicates in the team's bank, and the first problems.
   */
  async preview(actor: StaffActor, file: Upload, target: ImportTarget): Promise<ImportPreviewData> {
    const [folder] = await this.deps.access.require(actor, 'bank.manage', 'folder', target.folder_id);
    const page = await this.offThread('question_preview', file, { format: target.format });
    const dupes = await this.deps.bank.questions.duplicates(
      folder!.teamId,
      page.questions.map((q) => q.question),
    );
    dupes.forEach((list, i) => {
      if (page.questions[i]!.valid) page.questions[i]!.duplicates = list;
    });
    await this.deps.audit.record(actor, 'bank.import.preview', { kind: 'folder', id: target.folder_id }, null, {
      file_name: file.fileName.slice(0, 200),
      format: page.format,
      sha256: page.sha256,
      size: file.data.length,
      questions: page.counts.questions,
      problems: page.counts.problems,
    });
    return { ...page, file_name: file.fileName };
  }

  /**
   * Starts importing a file into a folder with the author's tags, as a job; answers the job's id. The file is
   * read and checked first (on a worker thread), so what would refuse it answers at once: a file with an error
   * imports nothing (`import_has_errors`) unless `only_valid`, a file other than the one previewed
   * `import_file_changed`. The file is kept in object storage for the job (any process may run it, and a runner
   * that takes over after a crash reads it again).
   */
  async commit(actor: StaffActor, file: Upload, input: ImportCommitInput): Promise<JobStartedData> {
    const [folder] = await this.deps.access.require(actor, 'bank.manage', 'folder', input.folder_id);
    const read = await this.offThread('question_commit', file, {
      format: input.format,
      choice: { tags: input.tags, only_valid: input.only_valid, sha256: input.sha256 },
    });
    const fileKey = `${IMPORT_FILES}/${randomUUID()}`;
    await this.deps.store.put(fileKey, file.data);
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
    const jobId = await this.deps.jobs.start(actor, 'bank_import', payload, folder!.teamId);
    return { job_id: jobId };
  }

  /** Reads a file on a worker thread; a busy pool is `rate_limited`, a worker that died refuses the file. */
  private async offThread<K extends 'question_preview' | 'question_commit'>(
    kind: K,
    file: Upload,
    fields: Omit<ParseTasks[K]['input'], 'name' | 'bytes' | 'apiPrefix'>,
  ): Promise<ParseTasks[K]['output']> {
    // a copy of its own: its buffer is handed to the worker
    const bytes = new Uint8Array(file.data);
    const input = {
      ...fields,
      name: file.fileName,
      bytes,
      apiPrefix: this.deps.bank.uploads.apiPrefix,
    } as ParseTasks[K]['input'];
    try {
      return await this.parser.run(kind, input, [bytes.buffer]);
    } catch (err) {
      if (err instanceof ParseBusyError) throw fail('rate_limited', 'files are being read; try again in a moment');
      if (err instanceof ParseCrashError) throw fail('import_refused', `${file.fileName}: ${err.message}`);
      throw err;
    }
  }

  /**
   * The import job: reads the kept file again, stores its pictures, checks its questions, stages them a part at a
   * time (each part in one short transaction with the job's checkpoint, so the candidates' writes go on between),
   * then publishes them in one transaction together with the job's checkpoint: all or nothing for the bank's
   * readers, and never twice (a run that takes over after a crash goes on from the last part staged, or finds the
   * publishing checkpoint and answers what the first run stored). Runs as the staff member who started it, with
   * their access as it is now. A failed or cancelled import forgets what it staged.
   */
  async runImport(ctx: JobContext<ImportJobPayload>): Promise<ImportCommitData> {
    const p = ctx.payload;
    const done = importDone(ctx.cursor);
    if (done) {
      await this.deps.store.delete(p.file_key).catch(() => undefined);
      return done;
    }
    const actor = ctx.owner.staffId === null ? null : await this.deps.actorById(ctx.owner.staffId);
    if (!actor) throw fail('forbidden', 'the account that started this import is disabled or gone');
    await ctx.progress(0, 1, 'read');
    const data = await this.deps.store.get(p.file_key);
    if (!data) throw fail('import_refused', `${p.file_name}: the file kept for this import is gone`);
    const file: Upload = { fileName: p.file_name, mime: 'application/octet-stream', data };
    const input: ImportCommitInput = {
      folder_id: p.folder_id,
      format: p.format,
      tags: p.tags,
      only_valid: p.only_valid,
      sha256: p.sha256,
    };
    await this.deps.access.require(actor, 'bank.manage', 'folder', input.folder_id);
    const read = await this.readHere(file, input.format);
    const items = plannedImport(read, input);
    await ctx.progress(1, 1, 'read');
    // Pictures first, outside the transaction: objects are content-addressed, so one left by a failed import
    // is only the same picture a later import stores again, never a broken link.
    for (const [i, image] of read.images.entries()) {
      await ctx.progress(i, read.images.length, 'pictures');
      await this.deps.bank.uploads.putImage(image);
    }
    const prepared = this.deps.bank.transfer.prepareImport(actor, items);
    const skipped = read.questions.length - items.length;
    const batch = `job:${ctx.jobId}`;
    const first = stagedSoFar(ctx.cursor);
    // The phase is named once; each part's checkpoint then moves the count.
    await ctx.progress(first, items.length, 'questions');
    try {
      for (let at = first; at < items.length; at += IMPORT_STAGE_ROWS) {
        if (ctx.signal.aborted) throw ctx.signal.reason ?? new Error('cancelled');
        const to = Math.min(at + IMPORT_STAGE_ROWS, items.length);
        await ctx.checkpoint(
          { staged: to },
          (trx) => this.deps.bank.transfer.stageImport(batch, prepared, at, to, trx),
          {
            done: to,
            total: items.length,
          },
        );
      }
      const stored = await ctx.checkpoint(
        (out: { ids: number[]; foldersCreated: number }): Json => ({
          question_ids: out.ids,
          folders_created: out.foldersCreated,
          files_stored: read.images.length,
          skipped,
        }),
        (trx) =>
          this.deps.bank.transfer.publishImport(
            actor,
            input.folder_id,
            batch,
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
      await this.deps.store.delete(p.file_key).catch(() => undefined);
      return {
        question_ids: stored.ids,
        folders_created: stored.foldersCreated,
        files_stored: read.images.length,
        skipped,
      };
    } catch (err) {
      // A runner that lost the job leaves its staged part to the runner that took over.
      if (!(err instanceof JobLeaseLost)) await this.deps.bank.transfer.discardImport(batch).catch(() => undefined);
      throw err;
    }
  }

  /**
   * Forgets what import jobs staged and left: a job that ended without publishing or forgetting (its runners died
   * until it was given up, or it was removed). Reads only the batches staged now.
   */
  async sweepStaged(): Promise<number> {
    const staging = new BankImportRepository(this.db);
    const jobs = new Map<number, string>();
    for (const batch of await staging.batches()) {
      const id = /^job:(\d+)$/.exec(batch)?.[1];
      if (id !== undefined) jobs.set(Number(id), batch);
    }
    const states = await new JobRepository(this.db).states([...jobs.keys()]);
    let forgotten = 0;
    for (const [id, batch] of jobs) {
      const state = states.get(id);
      if (state === undefined || FINAL_STATES.includes(state as JobState)) {
        await staging.discard(batch);
        forgotten++;
      }
    }
    return forgotten;
  }

  /** The command line's import, synchronous: reads, checks and stores in one go (all or nothing). */
  private async importNow(actor: StaffActor, file: Upload, input: ImportCommitInput): Promise<ImportCommitData> {
    await this.deps.access.require(actor, 'bank.manage', 'folder', input.folder_id);
    const read = await this.readHere(file, input.format);
    const items = plannedImport(read, input);
    for (const image of read.images) await this.deps.bank.uploads.putImage(image);
    const skipped = read.questions.length - items.length;
    const prepared = this.deps.bank.transfer.prepareImport(actor, items);
    const { ids, foldersCreated } = await this.deps.bank.transfer.importQuestions(actor, input.folder_id, prepared, {
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
      const { list } = await this.deps.bank.folders.folders(actor);
      const found = list.find((f) => f.team_id === teamId && f.parent_id === parent && f.name === name);
      parent = found
        ? found.id
        : (
            await this.deps.bank.folders.createFolder(actor, {
              name,
              parent_id: parent,
              team_id: parent === null ? teamId : undefined,
            })
          ).id;
    }
    if (parent === null) throw fail('validation_error', 'folder: name a folder to import into');
    return this.importNow(actor, file, { folder_id: parent, format: opts.format, tags: [], only_valid: false });
  }

  /**
   * Reads a file as the bank would store it, with no folder in view (the command line's dry run):
   * `import_refused` for a file refused whole, otherwise the questions and every located problem.
   */
  inspect(file: Upload, format?: string): Promise<ReadFile> {
    return this.readHere(file, format);
  }

  /** Reads a file on this thread: for jobs and the command line, which answer no candidate. */
  private readHere(file: Upload, format: string | undefined): Promise<ReadFile> {
    return readQuestionFile({
      name: file.fileName,
      bytes: file.data,
      format,
      apiPrefix: this.deps.bank.uploads.apiPrefix,
    });
  }
}
