import type { Insertable } from 'kysely';
import type { Db } from '../db/database.js';
import type { BankImportRowTable } from '../db/schema.js';

/** A question staged for an import: its columns, tags and sub-folder path, without the import's own. */
export type StagedQuestion = Omit<Insertable<BankImportRowTable>, 'batch' | 'seq' | 'folder_id'>;

/** Rows one insert statement writes: 17 columns each, within SQLite's 32,766 parameters. */
const INSERT_ROWS = 500;

/** The columns a staged row gives a bank question as it is. */
const COPIED = [
  'folder_id',
  'kind',
  'type',
  'stem_text',
  'content',
  'answer_key',
  'difficulty',
  'knowledge_points',
  'default_score',
  'editor_id',
  'updated_at',
  'explanation',
] as const;

/**
 * The SQL of imports' staging: an import's questions wait in `bank_import_rows` under its batch key, written a part
 * at a time, and become bank questions together in one INSERT ... SELECT (see migration 035).
 */
export class BankImportRepository {
  constructor(private readonly db: Db) {}

  /** Stages questions from position `firstSeq` on (a part written again replaces itself). */
  async stage(batch: string, firstSeq: number, rows: readonly StagedQuestion[]): Promise<void> {
    for (let at = 0; at < rows.length; at += INSERT_ROWS) {
      await this.db
        .insertInto('bank_import_rows')
        .values(
          rows
            .slice(at, at + INSERT_ROWS)
            .map((row, i) => ({ ...row, batch, seq: firstSeq + at + i, folder_id: null })),
        )
        .onConflict((oc) => oc.columns(['batch', 'seq']).doNothing())
        .execute();
    }
  }

  /** The distinct sub-folder paths (JSON) the staged questions name. */
  async folderPaths(batch: string): Promise<string[]> {
    const rows = await this.db
      .selectFrom('bank_import_rows')
      .select('folder_path')
      .distinct()
      .where('batch', '=', batch)
      .execute();
    return rows.map((r) => r.folder_path);
  }

  /** Places the staged questions of a path in a folder. */
  async placeFolder(batch: string, folderPath: string, folderId: number): Promise<void> {
    await this.db
      .updateTable('bank_import_rows')
      .set({ folder_id: folderId })
      .where('batch', '=', batch)
      .where('folder_path', '=', folderPath)
      .execute();
  }

  /**
   * Makes the staged questions bank questions of `team` by `authorId`, in one statement, then their tags; answers
   * their ids in staged order. One statement numbers its rows in the order it reads them on both databases, so the
   * ids sorted are in `seq` order.
   */
  async publish(
    batch: string,
    fixed: { team_id: number | null; author_id: number; created_at: number },
  ): Promise<number[]> {
    const made = await this.db
      .insertInto('bank_questions')
      .columns([...COPIED, 'team_id', 'author_id', 'created_at'])
      .expression((eb) =>
        eb
          .selectFrom('bank_import_rows')
          .select([
            ...COPIED,
            eb.val(fixed.team_id).as('team_id'),
            eb.val(fixed.author_id).as('author_id'),
            eb.val(fixed.created_at).as('created_at'),
          ])
          .where('batch', '=', batch)
          .orderBy('seq'),
      )
      .returning('id')
      .execute();
    const ids = made.map((r) => r.id).sort((a, b) => a - b);
    // Every staged row in order, so the i-th holds the i-th id.
    const staged = await this.db
      .selectFrom('bank_import_rows')
      .select('tags')
      .where('batch', '=', batch)
      .orderBy('seq')
      .execute();
    const tags = staged.flatMap((r, i) =>
      (JSON.parse(r.tags) as string[]).map((tag) => ({ question_id: ids[i]!, tag })),
    );
    for (let at = 0; at < tags.length; at += INSERT_ROWS * 4) {
      await this.db
        .insertInto('bank_question_tags')
        .values(tags.slice(at, at + INSERT_ROWS * 4))
        .execute();
    }
    await this.discard(batch);
    return ids;
  }

  /** The batches with questions staged (imports under way, or left by one that ended without forgetting them). */
  async batches(): Promise<string[]> {
    const rows = await this.db.selectFrom('bank_import_rows').select('batch').distinct().execute();
    return rows.map((r) => r.batch);
  }

  /** Removes what a batch staged (an import that failed, was cancelled or was published). */
  async discard(batch: string): Promise<void> {
    await this.db.deleteFrom('bank_import_rows').where('batch', '=', batch).execute();
  }
}
