import { sql, type Insertable } from 'kysely';
import { ExamPhase } from '@examhall/contract';
import type { Db } from '../db/database.js';
import type { ItemAnalysisTable, ItemFlagTable } from '../db/schema.js';

/** One finished attempt's per-question points, packed as `question:points` pairs (`-`: waiting for a grader). */
export interface PackedScores {
  attempt_id: number;
  scores: string;
}

/** A published version of an exam with its finished attempts. */
export interface AnalysisVersionRow {
  id: number;
  number: number;
  attempts: number;
}

/** The SQL of the results analysis: finished attempts' points, choice answers, and the flags it records. */
export class AnalysisRepository {
  constructor(private readonly db: Db) {}

  /**
   * The state of an exam's scores, '<attempts>:<score writes>': it changes with every write of any attempt's scores
   * (each counts one), an attempt started or gone; its attempts found through the exam's index.
   */
  async scoreBasis(examId: number): Promise<string> {
    const row = await this.db
      .selectFrom('attempts')
      .select((eb) => [eb.fn.countAll().as('n'), eb.fn.sum('score_writes').as('writes')])
      .where('exam_id', '=', examId)
      .executeTakeFirst();
    return `${Number(row?.n ?? 0)}:${Number(row?.writes ?? 0)}`;
  }

  /** A version's kept analysis, if one was computed. */
  kept(versionId: number): Promise<ItemAnalysisTable | undefined> {
    return this.db.selectFrom('item_analyses').selectAll().where('version_id', '=', versionId).executeTakeFirst();
  }

  /** Keeps a version's analysis in place of the one before. */
  async keep(row: ItemAnalysisTable): Promise<void> {
    await this.db
      .insertInto('item_analyses')
      .values(row)
      .onConflict((oc) =>
        oc.column('version_id').doUpdateSet({ basis: row.basis, computed_at: row.computed_at, data: row.data }),
      )
      .execute();
  }

  /** Finished, counted (not preview) attempts of a version. */
  private finished(versionId: number) {
    return this.db
      .selectFrom('attempts as a')
      .where('a.version_id', '=', versionId)
      .where('a.phase', '=', ExamPhase.submit)
      .where('a.preview', '=', 0);
  }

  /**
   * Every finished attempt of a version with its points, one row per attempt: the database folds the attempt's
   * per-question rows into one string, so 50,000 attempts of 40 questions cross as 50,000 rows rather than two
   * million (string_agg: PostgreSQL, and SQLite from 3.44, which better-sqlite3 bundles).
   */
  scoresByAttempt(versionId: number): Promise<PackedScores[]> {
    return this.finished(versionId)
      .innerJoin('question_scores as qs', 'qs.attempt_id', 'a.id')
      .select([
        'a.id as attempt_id',
        sql<string>`string_agg(cast(${sql.ref('qs.question_id')} as text) || ':' || coalesce(cast(${sql.ref('qs.points')} as text), '-'), ',')`.as(
          'scores',
        ),
      ])
      .groupBy('a.id')
      .execute();
  }

  /** How many finished attempts of a version stored each distinct answer to each of these questions. */
  async answerCounts(
    versionId: number,
    questionIds: readonly number[],
  ): Promise<{ question_id: number; value: string; n: number }[]> {
    if (questionIds.length === 0) return [];
    const rows = await this.finished(versionId)
      .innerJoin('answers as x', 'x.attempt_id', 'a.id')
      .select((eb) => ['x.question_id', 'x.value', eb.fn.countAll().as('n')])
      .where('x.question_id', 'in', [...questionIds])
      .groupBy(['x.question_id', 'x.value'])
      .execute();
    return rows.map((r) => ({ question_id: r.question_id, value: r.value, n: Number(r.n) }));
  }

  /** An exam's published versions (not previews), newest first, with their finished attempts. */
  async versions(examId: number): Promise<AnalysisVersionRow[]> {
    const rows = await this.db
      .selectFrom('exam_versions as v')
      .select((eb) => [
        'v.id',
        'v.number',
        eb
          .selectFrom('attempts as a')
          .select((e) => e.fn.countAll().as('n'))
          .whereRef('a.version_id', '=', 'v.id')
          .where('a.phase', '=', ExamPhase.submit)
          .where('a.preview', '=', 0)
          .as('attempts'),
      ])
      .where('v.exam_id', '=', examId)
      .where('v.preview', '=', 0)
      .orderBy('v.number', 'desc')
      .execute();
    return rows.map((r) => ({ id: r.id, number: r.number, attempts: Number(r.attempts ?? 0) }));
  }

  /**
   * Replaces a version's flags with those of its latest analysis. An upsert, so two analyses of the version at once
   * (each deleting what its snapshot saw) cannot collide on a question.
   */
  async replaceFlags(versionId: number, rows: Insertable<ItemFlagTable>[]): Promise<void> {
    const keep = rows.map((r) => r.question_id);
    await this.db
      .deleteFrom('item_flags')
      .where('version_id', '=', versionId)
      .$if(keep.length > 0, (qb) => qb.where('question_id', 'not in', keep))
      .execute();
    for (const row of rows) {
      await this.db
        .insertInto('item_flags')
        .values(row)
        .onConflict((oc) =>
          oc.column('question_id').doUpdateSet({
            item_rest: row.item_rest,
            upper_lower: row.upper_lower,
            n: row.n,
            flagged_at: row.flagged_at,
          }),
        )
        .execute();
    }
  }

  /** How many bank questions of this author an analysis flagged. */
  async flaggedOfAuthor(authorId: number): Promise<number> {
    const r = await this.db
      .selectFrom('item_flags as f')
      .innerJoin('bank_questions as b', 'b.id', 'f.bank_question_id')
      .select((eb) => eb.fn.count<number>('f.bank_question_id').distinct().as('n'))
      .where('b.author_id', '=', authorId)
      .executeTakeFirst();
    return Number(r?.n ?? 0);
  }
}
