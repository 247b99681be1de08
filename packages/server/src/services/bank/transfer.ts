import { randomUUID } from 'node:crypto';
import { BANK_LIMITS, type QuestionBody, type QuestionExplanation } from '@examhall/contract';
import type { Db } from '../../db/database.js';
import { fail } from '../../errors.js';
import type { ServiceLog } from '../../log.js';
import { BankRepository, type BankFolderRow, type BankQuestionRecord } from '../../repositories/bank.js';
import { BankImportRepository, type StagedQuestion } from '../../repositories/bankImports.js';
import type { StaffActor } from '../access.js';
import { type BankTxDeps, byId, depthOf, folderObject, inTransaction, unique, withSubFolders } from './common.js';
import {
  checkedBody,
  checkedExplanation,
  columns,
  explanationOf,
  parseStored,
  stringList,
  type BankQuestionInput,
} from './stored.js';

/** One question of an import: the sub-folder path below the target folder, and its fields. */
export interface BankImportItem {
  folder: readonly string[];
  input: BankQuestionInput;
}

/** Questions an import stages in one transaction: short, so the candidates' writes go on in between. */
export const IMPORT_STAGE_ROWS = 500;

/**
 * The sub-folders of an import's target folder by path, found or created (within the folder depth) as the import
 * names them; counts those it created.
 */
class SubFolders {
  created = 0;
  private readonly made = new Map<string, number>();
  private tree: Map<number, BankFolderRow> | null = null;

  constructor(
    private readonly repo: BankRepository,
    private readonly team: number | null,
    private readonly root: number,
    private readonly actorId: number,
    private readonly clock: () => number,
  ) {}

  async of(path: readonly string[]): Promise<number> {
    let at = this.root;
    for (let i = 0; i < path.length; i++) {
      const key = JSON.stringify(path.slice(0, i + 1));
      const known = this.made.get(key);
      if (known !== undefined) {
        at = known;
        continue;
      }
      const found = await this.repo.sibling(this.team, at, path[i]!);
      if (found) at = found.id;
      else at = await this.create(at, path[i]!);
      this.made.set(key, at);
    }
    return at;
  }

  private async create(parent: number, name: string): Promise<number> {
    this.tree ??= byId(await this.repo.teamFolders(this.team));
    if (depthOf(this.tree, parent) + 1 >= BANK_LIMITS.folderDepth) {
      throw fail('validation_error', `folder: folders nest at most ${BANK_LIMITS.folderDepth} deep`);
    }
    const created = await this.repo.createFolder({
      team_id: this.team,
      parent_id: parent,
      name,
      created_by: this.actorId,
      created_at: this.clock(),
    });
    this.tree.set(created.id, created);
    this.created += 1;
    return created.id;
  }
}

/** A bank question to export: its typed body and metadata, and its folder path below the exported folder. */
export interface BankExportItem {
  id: number;
  body: QuestionBody;
  /** Its explanation and feedback per option, or null. */
  explanation: QuestionExplanation | null;
  folder: string[];
  tags: string[];
  difficulty: number;
  knowledge_points: string[];
  default_score: number;
}

/** What imports into and exports from the bank need. */
export interface BankTransferDeps extends BankTxDeps {
  clock: () => number;
  log: ServiceLog;
}

/**
 * The bank's side of imports and exports (services/imports.ts drives them): imported questions checked, staged
 * where no reader sees them and published in one transaction; the questions of a folder or a selection to export.
 */
export class BankTransferService {
  private readonly repo: BankRepository;

  constructor(private readonly deps: BankTransferDeps) {
    this.repo = new BankRepository(deps.db);
  }

  /**
   * Imported questions made ready to store: each body checked (`validation_error` at the first problem) and
   * turned into columns, before anything is written.
   */
  prepareImport(actor: StaffActor, items: readonly BankImportItem[]): StagedQuestion[] {
    const now = this.deps.clock();
    return items.map((item) => {
      const body = checkedBody(item.input.question);
      return {
        ...columns(body, checkedExplanation(body, item.input), item.input, actor, now),
        folder_path: JSON.stringify(item.folder),
        tags: JSON.stringify(unique(item.input.tags)),
      };
    });
  }

  /**
   * Stages prepared questions `from` to `to` (exclusive) under an import's batch key, where no reader of the bank
   * sees them; a part staged twice (a job's run that took over) is the same part.
   */
  async stageImport(
    batch: string,
    prepared: readonly StagedQuestion[],
    from: number,
    to: number,
    outer?: Db,
  ): Promise<void> {
    await new BankImportRepository(outer ?? this.deps.db).stage(batch, from, prepared.slice(from, to));
  }

  /** Forgets what an import staged (it failed or was cancelled). */
  async discardImport(batch: string): Promise<void> {
    await new BankImportRepository(this.deps.db).discard(batch);
  }

  /**
   * Makes an import's staged questions bank questions in one transaction: under the target folder (its team's,
   * which the actor must reach), each in the sub-folder path it names (created when missing), with one audit entry
   * for the whole import (`summary` plus what was made). Nothing is published when any part fails. Their embedded
   * files must have been stored.
   */
  async publishImport(
    actor: StaffActor,
    folderId: number,
    batch: string,
    summary: Record<string, unknown>,
    /** A transaction of the caller's to run in (a job's checkpoint), instead of one of its own. */
    outer?: Db,
  ): Promise<{ ids: number[]; foldersCreated: number }> {
    return inTransaction(
      this.deps,
      async ({ trx, repo, audit, access }) => {
        const [target] = await access.require(actor, 'bank.manage', 'folder', folderId);
        const team = target!.teamId;
        const staging = new BankImportRepository(trx);
        const folders = new SubFolders(repo, team, folderId, actor.id, this.deps.clock);
        for (const path of await staging.folderPaths(batch)) {
          await staging.placeFolder(batch, path, await folders.of(JSON.parse(path) as string[]));
        }
        const ids = await staging.publish(batch, { team_id: team, author_id: actor.id, created_at: this.deps.clock() });
        await audit.record(actor, 'bank.import', folderObject(folderId), null, {
          ...summary,
          questions: ids.length,
          question_ids: ids,
          folders_created: folders.created,
        });
        return { ids, foldersCreated: folders.created };
      },
      outer,
    );
  }

  /** The command line's import: prepared questions staged, then published; what was staged is forgotten on failure. */
  async importQuestions(
    actor: StaffActor,
    folderId: number,
    prepared: readonly StagedQuestion[],
    summary: Record<string, unknown>,
  ): Promise<{ ids: number[]; foldersCreated: number }> {
    const batch = `cli:${randomUUID()}`;
    try {
      for (let at = 0; at < prepared.length; at += IMPORT_STAGE_ROWS) {
        await this.stageImport(batch, prepared, at, at + IMPORT_STAGE_ROWS);
      }
      return await this.publishImport(actor, folderId, batch, summary);
    } catch (err) {
      await this.discardImport(batch);
      throw err;
    }
  }

  /**
   * Questions to export, with their metadata: a folder's (and its sub-folders', each with its path below the
   * folder) or chosen ones (no path), in folder then id order; a row that no longer parses is
   * `question_invalid`, never left out unsaid.
   */
  async forExport(
    actor: StaffActor,
    from: { folderId: number } | { ids: readonly number[] },
  ): Promise<BankExportItem[]> {
    let rows: BankQuestionRecord[];
    const pathOf = new Map<number, string[]>();
    if ('folderId' in from) {
      const [folder] = await this.deps.access.require(actor, 'bank.read', 'folder', from.folderId);
      const tree = byId(await this.repo.teamFolders(folder!.teamId));
      const ids = await withSubFolders([from.folderId], folder!.teamId, this.repo);
      for (const id of ids) {
        const path: string[] = [];
        for (let at: number | null = id; at !== null && at !== from.folderId; at = tree.get(at)?.parent_id ?? null) {
          path.unshift(tree.get(at)!.name);
        }
        pathOf.set(id, path);
      }
      rows = (
        await this.repo.list({ team: null, folderIds: ids }, { sort: 'id', order: 'asc', offset: 0, limit: 1_000_000 })
      ).rows;
      rows.sort(
        (a, b) =>
          (pathOf.get(a.folder_id!) ?? []).join('/').localeCompare((pathOf.get(b.folder_id!) ?? []).join('/')) ||
          a.id - b.id,
      );
    } else {
      await this.deps.access.require(actor, 'bank.read', 'question', from.ids);
      const byIdRows = new Map((await this.repo.byIds(from.ids)).map((r) => [r.id, r]));
      rows = from.ids.map((id) => byIdRows.get(id)!);
    }
    return rows.map((r) => ({
      id: r.id,
      body: parseStored(r, this.deps.log),
      explanation: explanationOf(r),
      folder: r.folder_id === null ? [] : (pathOf.get(r.folder_id) ?? []),
      tags: r.tags,
      difficulty: r.difficulty,
      knowledge_points: stringList(r.knowledge_points),
      default_score: r.default_score,
    }));
  }
}
